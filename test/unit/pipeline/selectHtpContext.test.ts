import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ConfigError } from '../../../src/core/configError';
import { findHtpSoc, htpSocFor } from '../../../src/config/htpSocs';
import { loadModelManifest, type ModelManifest } from '../../../src/config/modelManifest';
import { manifestEngineOptions } from '../../../src/pipeline/manifestEngineOptions';
import type { RuntimeChoices } from '../../../src/pipeline/runtimeChoices';
import { checkHtpContext, selectHtpContext } from '../../../src/pipeline/selectHtpContext';
import { recordHtpContext } from '../../../src/cli/compile/recordHtpContext';
import { tempDir } from '../../support/tempDir';
import { repoPath } from '../../support/paths';

const FALL = repoPath('models', 'yolov8-fall', 'yolov8s-fall.manifest.json');
const sha = (b: Buffer | string): string => createHash('sha256').update(b).digest('hex');

let root: string | undefined;

/** A copy of the fall manifest in a temp folder with small stand-in model files. */
function fixture(edit?: (m: Record<string, unknown>) => void): {
  dir: string;
  manifest: string;
} {
  // One folder per fixture inside one removed-at-exit root (one exit listener, not one each).
  root ??= tempDir('htp-ctx-');
  const dir = fs.mkdtempSync(path.join(root, 'm-'));
  const data = JSON.parse(fs.readFileSync(FALL, 'utf8')) as Record<string, unknown>;
  edit?.(data);
  const manifest = path.join(dir, 'yolov8s-fall.manifest.json');
  fs.writeFileSync(manifest, JSON.stringify(data));
  fs.writeFileSync(path.join(dir, 'yolov8s-fall.onnx'), 'fp32 stand-in');
  fs.writeFileSync(path.join(dir, 'yolov8s-fall.int8.qdq.onnx'), 'int8 stand-in');
  fs.writeFileSync(path.join(dir, 'yolov8s-fall.w8a16.qdq.onnx'), 'w8a16 stand-in');
  return { dir, manifest };
}

const entry = {
  file: 'yolov8s-fall.qcs6490.ctx.onnx',
  soc: 'qcs6490',
  precision: 'int8' as const,
  htpArch: 68,
  socModel: 35,
  sourceSha256: sha('int8 stand-in'),
};

function withContexts(contexts: unknown[]): (m: Record<string, unknown>) => void {
  return (m) => {
    (m.files as Record<string, unknown>).htpContexts = contexts;
  };
}

const htpInt8: RuntimeChoices = { provider: 'htp', precision: 'int8', threads: 0 };

function assertConfigError(fn: () => unknown, pattern: RegExp): void {
  assert.throws(fn, (e: unknown) => e instanceof ConfigError && pattern.test(e.message));
}

describe('SoC table', () => {
  it('maps qcs6490 to htp_arch 68 / soc_model 35 and back; unknown names are undefined', () => {
    assert.deepEqual(
      { arch: findHtpSoc('QCS6490')?.htpArch, model: findHtpSoc('qcs6490')?.socModel },
      { arch: 68, model: 35 },
    );
    assert.equal(htpSocFor(68, 35)?.name, 'qcs6490');
    assert.equal(findHtpSoc('sm8550'), undefined);
    assert.equal(htpSocFor(73, 43), undefined);
  });
});

describe('manifest files.htpContexts', () => {
  it('accepts an entry that matches the SoC table', () => {
    const m = loadModelManifest(fixture(withContexts([entry])).manifest);
    assert.deepEqual(m.files.htpContexts, [entry]);
  });

  it('refuses an unknown SoC, a wrong arch/model pair, int8 without files.int8, duplicates and a bad hash', () => {
    const cases: [unknown[] | ((m: Record<string, unknown>) => void), RegExp][] = [
      [[{ ...entry, soc: 'sm8550' }], /files\.htpContexts\.0\.soc/],
      [[{ ...entry, htpArch: 73 }], /qcs6490 is htp_arch 68 \/ soc_model 35, got 73 \/ 35/],
      [[entry, { ...entry, file: 'other.onnx' }], /a second int8 context binary for qcs6490/],
      [[{ ...entry, sourceSha256: 'abc' }], /sourceSha256: expected 64 lowercase hex digits/],
      [
        (m) => {
          const files = m.files as Record<string, unknown>;
          delete files.int8;
          files.htpContexts = [entry];
        },
        /files\.htpContexts\.0\.precision: int8 context binary but the manifest has no files\.int8/,
      ],
    ];
    for (const [edit, pattern] of cases) {
      const { manifest } = fixture(typeof edit === 'function' ? edit : withContexts(edit));
      assertConfigError(() => loadModelManifest(manifest), pattern);
    }
  });

  it('recordHtpContext adds the entry, replaces one for the same SoC and precision, and keeps the rest', () => {
    const { manifest } = fixture();
    recordHtpContext(manifest, entry);
    recordHtpContext(manifest, { ...entry, precision: 'fp32', file: 'a.fp32.ctx.onnx' });
    recordHtpContext(manifest, { ...entry, file: 'newer.ctx.onnx' });
    const m = loadModelManifest(manifest);
    assert.deepEqual(
      m.files.htpContexts?.map((c) => [c.precision, c.file]),
      [
        ['fp32', 'a.fp32.ctx.onnx'],
        ['int8', 'newer.ctx.onnx'],
      ],
    );
    assert.equal(m.classNames.length, 2, 'the rest of the manifest is untouched');
    assert.deepEqual(
      fs.readdirSync(path.dirname(manifest)).filter((f) => f.includes('.tmp')),
      [],
    );
  });
});

describe('selectHtpContext / checkHtpContext', () => {
  let m: ModelManifest;
  let dir: string;
  before(() => {
    const f = fixture(withContexts([entry]));
    dir = f.dir;
    m = loadModelManifest(f.manifest);
  });

  it('picks the binary for provider htp, the same precision and the default v68 / 35', () => {
    const s = selectHtpContext(m, htpInt8);
    assert.equal(s?.path, path.join(dir, entry.file));
    assert.equal(manifestEngineOptions(m, htpInt8).htp?.context_cache, path.join(dir, entry.file));
  });

  it('leaves it out for the CPU, fp32, another SoC, or an explicit context_cache', () => {
    assert.equal(selectHtpContext(m, { ...htpInt8, provider: 'cpu' }), undefined);
    assert.equal(selectHtpContext(m, { ...htpInt8, precision: 'fp32' }), undefined);
    assert.equal(selectHtpContext(m, { ...htpInt8, htp: { htp_arch: 73 } }), undefined);
    const explicit = { ...htpInt8, htp: { context_cache: '/x/mine.onnx' } };
    assert.equal(selectHtpContext(m, explicit), undefined);
    assert.equal(manifestEngineOptions(m, explicit).htp?.context_cache, '/x/mine.onnx');
    assert.equal(manifestEngineOptions(m, { ...htpInt8, provider: 'cpu' }).htp, undefined);
  });

  it('refuses a missing binary and one compiled from another model file, naming the fix', () => {
    const s = selectHtpContext(m, htpInt8)!;
    assertConfigError(
      () => checkHtpContext(m, s),
      /files\.htpContexts: .*yolov8s-fall\.qcs6490\.ctx\.onnx does not exist \(run 'htp-perception model compile yolov8s-fall --soc qcs6490 --precision int8 --force'/,
    );
    fs.writeFileSync(s.path, 'compiled stand-in');
    checkHtpContext(m, s);
    // A re-quantized model makes the binary stale: a new file, never an in-place write.
    const int8 = path.join(dir, 'yolov8s-fall.int8.qdq.onnx');
    fs.rmSync(int8);
    fs.writeFileSync(int8, 'int8 re-quantized');
    assertConfigError(
      () => checkHtpContext(m, s),
      /was compiled from another version of files\.int8/,
    );
  });
});

describe("an Ultralytics format=qnn binary (files.htpContexts, exportedBy: 'ultralytics')", () => {
  const exported = {
    file: 'yolov8s-fall_qnn.onnx',
    soc: 'qcs6490',
    precision: 'w8a16' as const,
    htpArch: 68,
    socModel: 35,
    sourceSha256: sha('fp32 stand-in'),
    exportedBy: 'ultralytics' as const,
  };
  /** The imported manifest: fp32 and the binary only (no files.int8 / files.w8a16). */
  const onlyBinary = (m: Record<string, unknown>): void => {
    m.files = { fp32: 'yolov8s-fall.onnx', htpContexts: [exported] };
  };
  const htpW8a16: RuntimeChoices = { provider: 'htp', precision: 'w8a16', threads: 0 };

  it('loads without files.w8a16; one of ours without it is refused', () => {
    assert.deepEqual(loadModelManifest(fixture(onlyBinary).manifest).files.htpContexts, [exported]);
    const ours = fixture((m) => {
      m.files = {
        fp32: 'yolov8s-fall.onnx',
        htpContexts: [{ ...exported, exportedBy: undefined }],
      };
    });
    assertConfigError(
      () => loadModelManifest(ours.manifest),
      /w8a16 context binary but the manifest has no files\.w8a16/,
    );
  });

  it('runs on the HTP from the binary, judged against files.fp32; refused on the CPU, naming why', () => {
    const { dir, manifest } = fixture(onlyBinary);
    const m = loadModelManifest(manifest);
    const s = selectHtpContext(m, htpW8a16)!;
    assert.equal(s.path, path.join(dir, 'yolov8s-fall_qnn.onnx'));
    fs.writeFileSync(s.path, 'binary stand-in');
    checkHtpContext(m, s);
    const o = manifestEngineOptions(m, htpW8a16);
    assert.deepEqual(
      { model: o.model, cache: o.htp?.context_cache },
      { model: path.join(dir, 'yolov8s-fall.onnx'), cache: s.path },
    );
    assertConfigError(
      () => manifestEngineOptions(m, { ...htpW8a16, provider: 'cpu' }),
      /w8a16 model is the QNN context binary of an Ultralytics format=qnn export \(yolov8s-fall_qnn\.onnx\), which only the HTP runs/,
    );
    // The FP32 model it was exported from changed: export again, there is nothing to compile.
    const fp32 = path.join(dir, 'yolov8s-fall.onnx');
    fs.rmSync(fp32);
    fs.writeFileSync(fp32, 'fp32 retrained');
    assertConfigError(
      () => checkHtpContext(m, s),
      /yolov8s-fall_qnn\.onnx was compiled from another version of files\.fp32 \(export it again with 'yolo export format=qnn name=68'/,
    );
  });
});
