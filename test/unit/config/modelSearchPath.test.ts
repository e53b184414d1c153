import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  lookUpModelReference,
  MODEL_PATH_VARIABLE,
  modelSearchPath,
  requireModelReference,
} from '../../../src/config/modelSearchPath';
import { ConfigError } from '../../../src/core/configError';
import { packagePath } from '../../../src/packageRoot';

describe('model search path (HTP_PERCEPTION_MODEL_PATH, then the package models/)', function () {
  let root = '';
  const put = (rel: string): string => {
    const file = path.join(root, rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, '{}');
    return file;
  };
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'model-path-'));
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('lists the variable folders in order, skipping empty entries, then the package models/', function () {
    const env = { [MODEL_PATH_VARIABLE]: `${root}/a::${root}/b:` };
    assert.deepEqual(modelSearchPath(env), [
      { dir: `${root}/a`, from: MODEL_PATH_VARIABLE },
      { dir: `${root}/b`, from: MODEL_PATH_VARIABLE },
      { dir: packagePath('models'), from: "the package's models/" },
    ]);
    assert.deepEqual(
      modelSearchPath({}).map((d) => d.dir),
      [packagePath('models')],
    );
  });

  it('resolves a name in the first folder that has it, searching each folder recursively', function () {
    const second = put('b/deep/er/mine.manifest.json');
    const first = put('a/mine/mine.manifest.json');
    put('a/examples/other.manifest.json');
    const env = { [MODEL_PATH_VARIABLE]: `${root}/missing:${root}/a:${root}/b` };
    assert.equal(requireModelReference('mine', env), first);
    assert.equal(lookUpModelReference('mine', env), first);
    assert.equal(
      requireModelReference('mine', { [MODEL_PATH_VARIABLE]: `${root}/b:${root}/a` }),
      second,
    );
  });

  it("a folder on the variable comes before the package's own model of the same name", function () {
    const pkgManifest = findPackageManifest();
    if (!pkgManifest) this.skip();
    const name = path.basename(pkgManifest, '.manifest.json');
    const mine = put(`robot/${name}.manifest.json`);
    assert.equal(requireModelReference(name, { [MODEL_PATH_VARIABLE]: `${root}/robot` }), mine);
    assert.equal(requireModelReference(name, {}), pkgManifest);
  });

  it('refuses a name found nowhere with a ConfigError naming every folder looked in', function () {
    put('a/other.manifest.json');
    const env = { [MODEL_PATH_VARIABLE]: `${root}/a:${root}/gone` };
    assert.throws(
      () => requireModelReference('no-such-model', env),
      (e: Error) => {
        assert.ok(e instanceof ConfigError, e.name);
        assert.match(e.message, /^model 'no-such-model': no no-such-model\.manifest\.json in /);
        assert.ok(e.message.includes(`${root}/a (${MODEL_PATH_VARIABLE})`), e.message);
        assert.ok(
          e.message.includes(`${root}/gone (${MODEL_PATH_VARIABLE}, does not exist)`),
          e.message,
        );
        assert.ok(e.message.includes(`${packagePath('models')} (the package's models/`), e.message);
        return true;
      },
    );
    // The lenient form leaves it to its caller to refuse.
    assert.equal(lookUpModelReference('no-such-model', env), 'no-such-model');
  });

  it('takes paths as given: existing files, and anything with a slash or a .json/.onnx ending', function () {
    const file = put('x/y.manifest.json');
    const env = { [MODEL_PATH_VARIABLE]: root };
    for (const ref of [file, 'models/gone.manifest.json', 'gone.manifest.json', 'gone.onnx']) {
      assert.equal(requireModelReference(ref, env), ref);
      assert.equal(lookUpModelReference(ref, env), ref);
    }
  });
});

/** Any manifest the checkout's models/ has (the bootstrap ones), or undefined. */
function findPackageManifest(): string | undefined {
  const dir = packagePath('models');
  if (!fs.existsSync(dir)) return undefined;
  for (const sub of fs.readdirSync(dir).sort()) {
    if (sub === 'examples') continue;
    const d = path.join(dir, sub);
    if (!fs.statSync(d).isDirectory()) continue;
    const m = fs.readdirSync(d).find((f) => f.endsWith('.manifest.json'));
    if (m) return path.join(d, m);
  }
  return undefined;
}
