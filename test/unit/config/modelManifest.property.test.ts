import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as fc from 'fast-check';
import { ConfigError } from '../../../src/core/configError';
import { loadModelManifest, parseModelManifest } from '../../../src/config/modelManifest';
import { REPO_ROOT } from '../../support/paths';
import { propertyCheck } from '../../support/propertyCheck';
import { mutatedJson, mutatedJsonText, type Json } from '../../support/jsonMutations';

/** The manifests checked in with the repository (generated ones vary with bootstrap). */
const MANIFESTS = [
  'models/deeplabv3/deeplabv3-mobilenetv3-large-520.manifest.json',
  'models/hrnet/hrnet-w32-256x192.manifest.json',
  'models/yolov8n-pose/yolov8n-pose.manifest.json',
  'models/yolov8n-seg/yolov8n-seg.manifest.json',
  ...fs
    .readdirSync(path.join(REPO_ROOT, 'models', 'examples'))
    .filter((f) => f.endsWith('.manifest.json'))
    .map((f) => `models/examples/${f}`),
].map((rel) => ({
  rel,
  doc: JSON.parse(fs.readFileSync(path.join(REPO_ROOT, rel), 'utf8')) as Json,
}));

/**
 * A manifest refusal: a ConfigError that starts with the source, then the field path (or
 * "(root)") and what is wrong with it; any other throw fails the property.
 */
function assertRefusal(e: unknown, source: string, what: string): void {
  assert.ok(e instanceof ConfigError, `${what}: threw ${String(e)}, not a ConfigError`);
  assert.ok(e.message.startsWith(`${source}: `), `${what}: "${e.message}" does not name ${source}`);
  const rest = e.message.slice(source.length + 2);
  assert.match(
    rest,
    /^(\(root\)|[^\s:;]+|not valid JSON|cannot read)[: (]/,
    `${what}: "${e.message}" names no field`,
  );
}

function parseOrRefuse(value: unknown, source: string, what: string): void {
  try {
    parseModelManifest(value, source);
  } catch (e) {
    assertRefusal(e, source, what);
  }
}

const manifest = fc.constantFrom(...MANIFESTS);

describe('model manifests: properties (fast-check)', function () {
  const dir = fs.mkdtempSync(path.join(process.env.TMPDIR ?? '/tmp', 'manifest-property-'));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('every checked-in manifest parses, whatever the order of its keys', function () {
    const shuffled = (doc: Json, seed: number): Json => {
      if (Array.isArray(doc)) return doc.map((v) => shuffled(v, seed));
      if (doc === null || typeof doc !== 'object') return doc;
      const entries = Object.entries(doc);
      entries.sort(([a], [b]) => ((a.length * seed) % 7) - ((b.length * seed) % 7));
      return Object.fromEntries(entries.map(([k, v]) => [k, shuffled(v, seed)]));
    };
    propertyCheck(
      fc.property(manifest, fc.integer({ min: 1, max: 1000 }), ({ rel, doc }, seed) => {
        const m = parseModelManifest(shuffled(doc, seed), rel);
        assert.deepEqual(m, parseModelManifest(doc, rel));
      }),
      100,
    );
  });

  it('any JSON value is a manifest or a ConfigError naming the source and the field', function () {
    propertyCheck(
      fc.property(fc.jsonValue({ maxDepth: 3 }), (v) =>
        parseOrRefuse(v, 'any.manifest.json', JSON.stringify(v)),
      ),
      1_000,
    );
  });

  it('any JavaScript value (not only JSON) is refused with a ConfigError, never another error', function () {
    propertyCheck(
      fc.property(
        fc.anything({
          withBigInt: true,
          withMap: true,
          withSet: true,
          withDate: true,
          withTypedArray: true,
          withSparseArray: true,
          withNullPrototype: true,
        }),
        (v) => parseOrRefuse(v, 'anything.manifest.json', 'fc.anything'),
      ),
      1_000,
    );
  });

  it('a checked-in manifest with one value changed is valid or a ConfigError naming it and the field', function () {
    propertyCheck(
      fc.property(
        fc.oneof(...MANIFESTS.map(({ rel, doc }) => mutatedJson(doc).map((m) => ({ rel, ...m })))),
        ({ rel, what, value }) => parseOrRefuse(value, rel, `${rel}: ${what}`),
      ),
    );
  });

  it('a manifest file broken as text: loadModelManifest gives a ConfigError naming the file', function () {
    const texts = MANIFESTS.map(({ rel, doc }) => ({ rel, text: JSON.stringify(doc, null, 2) }));
    let n = 0;
    propertyCheck(
      fc.property(
        fc
          .constantFrom(...texts)
          .chain(({ rel, text }) => mutatedJsonText(text).map((m) => ({ rel, ...m }))),
        ({ rel, what, text }) => {
          // One file per case would leave thousands behind on a failure; the name carries the case.
          const file = path.join(dir, `case-${n++ % 4}.manifest.json`);
          fs.writeFileSync(file, text);
          try {
            loadModelManifest(file);
          } catch (e) {
            assertRefusal(e, file, `${rel}: ${what}`);
          }
        },
      ),
      // A file write costs ~1 ms here: the parsing behind it has its 10,000 cases above.
      300,
    );
  });
});
