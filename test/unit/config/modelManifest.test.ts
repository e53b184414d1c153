import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { REPO_ROOT } from '../../support/paths';
import { ConfigError } from '../../../src/core/configError';
import { loadModelManifest, parseModelManifest } from '../../../src/config/modelManifest';

const root = REPO_ROOT;
const examples = path.join(root, 'models', 'examples');
const fall = path.join(root, 'models', 'yolov8-fall', 'yolov8s-fall.manifest.json');

function readJson(file: string): Record<string, unknown> {
  return JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
}

/** A deep copy of a checked-in manifest with one change applied, written to a temp file. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the tests edit arbitrary JSON paths
type AnyJson = Record<string, any>;

/** Folders the variants were written to, removed after the tests. */
const variantDirs: string[] = [];

function variant(base: string, change: (m: AnyJson) => void): string {
  const m = readJson(base);
  change(m);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'manifest-'));
  variantDirs.push(dir);
  const file = path.join(dir, 'bad.manifest.json');
  fs.writeFileSync(file, JSON.stringify(m));
  return file;
}

function assertConfigError(fn: () => unknown, ...parts: string[]): void {
  assert.throws(fn, (e: unknown) => {
    assert.ok(e instanceof ConfigError, `expected ConfigError, got ${String(e)}`);
    for (const p of parts) assert.ok(e.message.includes(p), `'${e.message}' should mention '${p}'`);
    return true;
  });
}

describe('model manifest loader', function () {
  after(() => {
    for (const d of variantDirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
  });

  it('loads every checked-in manifest', function () {
    const files = [fall, ...fs.readdirSync(examples).map((f) => path.join(examples, f))].filter(
      (f) => f.endsWith('.manifest.json'),
    );
    assert.ok(files.length >= 8);
    for (const f of files) {
      const m = loadModelManifest(f);
      assert.equal(m.manifestPath, f);
      assert.equal(m.schemaVersion, 1);
    }
  });

  it('types the outputs by format and resolves model files beside the manifest', function () {
    const m = loadModelManifest(fall);
    assert.equal(m.task, 'detect');
    assert.equal(m.weights, 'pretrained');
    assert.deepEqual(m.classNames, ['Normal', 'Fall']);
    assert.equal(m.modelPaths.fp32, path.join(root, 'models', 'yolov8-fall', 'yolov8s-fall.onnx'));
    assert.equal(
      m.modelPaths.int8,
      path.join(root, 'models', 'yolov8-fall', 'yolov8s-fall.int8.qdq.onnx'),
    );
    assert.equal(m.outputs.format, 'ultralytics-packed');
    if (m.outputs.format === 'ultralytics-packed') {
      assert.deepEqual(m.outputs.predictions.dims, [1, 6, 8400]);
      assert.deepEqual(m.outputs.boxes, { format: 'cxcywh', units: 'input-pixels' });
    }
    const pose = loadModelManifest(path.join(examples, 'ultralytics-yolov8n-pose.manifest.json'));
    assert.equal(pose.keypoints?.names.length, 17);
    assert.equal(pose.keypoints?.skeleton.length, 19);
    assert.deepEqual(pose.keypoints?.skeleton[0], [15, 13]);
    const aihub = loadModelManifest(path.join(examples, 'aihub-yolov8-detect.manifest.json'));
    assert.equal(aihub.outputs.format, 'aihub-split');
    if (aihub.outputs.format === 'aihub-split') assert.equal(aihub.outputs.classIdx.dtype, 'uint8');
  });

  it('names the file when it is missing or not JSON', function () {
    const missing = path.join(os.tmpdir(), 'no-such-dir-xyz', 'a.manifest.json');
    assertConfigError(() => loadModelManifest(missing), missing, 'cannot read');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'manifest-'));
    variantDirs.push(dir);
    const broken = path.join(dir, 'broken.manifest.json');
    fs.writeFileSync(broken, '{ "task": ');
    assertConfigError(() => loadModelManifest(broken), broken, 'not valid JSON');
  });

  it('names the file and the field of a schema violation', function () {
    const f = variant(fall, (m) => {
      m.input.layout = 'CHW';
    });
    assertConfigError(() => loadModelManifest(f), f, 'input.layout');
    const g = variant(fall, (m) => {
      delete m.provenance.license;
    });
    assertConfigError(() => loadModelManifest(g), 'provenance.license');
    const h = variant(fall, (m) => {
      m.outputs.predictions.dtype = 'float64';
    });
    assertConfigError(() => loadModelManifest(h), 'outputs.predictions.dtype');
    const u = variant(fall, (m) => {
      m.unknownField = 1;
    });
    assertConfigError(() => loadModelManifest(u), 'unknownField');
  });

  it('rejects a packed output whose channel count does not match the classes', function () {
    const f = variant(fall, (m) => {
      m.outputs.predictions.dims = [1, 84, 8400];
    });
    assertConfigError(() => loadModelManifest(f), 'outputs.predictions.dims', 'make 6');
    const seg = path.join(examples, 'ultralytics-yolov8n-seg.manifest.json');
    const g = variant(seg, (m) => {
      delete m.outputs.protos;
    });
    assertConfigError(() => loadModelManifest(g), 'outputs.protos');
    const pose = path.join(examples, 'ultralytics-yolov8n-pose.manifest.json');
    const anchorsFirst = variant(pose, (m) => {
      m.outputs.predictions.layout = 'anchors-first';
      m.outputs.predictions.dims = [1, 8400, 56];
    });
    assert.equal(loadModelManifest(anchorsFirst).task, 'pose');
  });

  it('checks end-to-end rows: 6 values + coefficients / keypoints, xyxy boxes, protos for segment', function () {
    const seg = path.join(examples, 'ultralytics-yolov8n-seg.manifest.json');
    const pose = path.join(examples, 'ultralytics-yolov8n-pose.manifest.json');
    const toEnd2end = (rowWidth: number) => (m: AnyJson) => {
      m.outputs.format = 'ultralytics-end2end';
      m.outputs.predictions = { name: 'output0', dims: [1, 300, rowWidth], dtype: 'float32' };
      m.outputs.boxes = { format: 'xyxy', units: 'input-pixels' };
      delete m.outputs.scoresActivated;
    };
    const detect = variant(fall, toEnd2end(6));
    const m = loadModelManifest(detect);
    assert.equal(m.outputs.format, 'ultralytics-end2end');
    assert.equal(loadModelManifest(variant(seg, toEnd2end(38))).task, 'segment');
    assert.equal(loadModelManifest(variant(pose, toEnd2end(57))).task, 'pose');
    assertConfigError(
      () => loadModelManifest(variant(pose, toEnd2end(56))),
      'outputs.predictions.dims',
      'rows of 56 values',
      'make 57',
    );
    assertConfigError(
      () => loadModelManifest(variant(fall, toEnd2end(84))),
      'outputs.predictions.dims',
      'make 6',
    );
    assertConfigError(
      () =>
        loadModelManifest(
          variant(seg, (x) => {
            toEnd2end(38)(x);
            delete x.outputs.protos;
          }),
        ),
      'outputs.protos',
      'segment models need protos',
    );
    assertConfigError(
      () =>
        loadModelManifest(
          variant(fall, (x) => {
            toEnd2end(6)(x);
            x.outputs.boxes.format = 'cxcywh';
          }),
        ),
      'outputs.boxes.format',
    );
    assertConfigError(
      () =>
        loadModelManifest(
          variant(fall, (x) => {
            toEnd2end(6)(x);
            x.outputs.scoresActivated = true;
          }),
        ),
      'scoresActivated',
    );
  });

  it('ties task, family, output format and keypoints together', function () {
    const pose = path.join(examples, 'ultralytics-yolov8n-pose.manifest.json');
    assertConfigError(
      () =>
        loadModelManifest(
          variant(pose, (m) => {
            delete m.keypoints;
          }),
        ),
      'keypoints',
    );
    assertConfigError(
      () =>
        loadModelManifest(
          variant(pose, (m) => {
            m.keypoints.skeleton.push([3, 17]);
          }),
        ),
      'keypoints.skeleton.19',
    );
    assertConfigError(
      () =>
        loadModelManifest(
          variant(fall, (m) => {
            m.family = 'hrnet';
          }),
        ),
      'outputs.format',
    );
    const hrnet = path.join(examples, 'aihub-hrnet-pose.manifest.json');
    assertConfigError(
      () =>
        loadModelManifest(
          variant(hrnet, (m) => {
            m.outputs.heatmaps.dims = [1, 16, 64, 48];
          }),
        ),
      'outputs.heatmaps.dims',
      '16 heatmaps for 17 keypoints',
    );
    assertConfigError(
      () =>
        loadModelManifest(
          variant(fall, (m) => {
            m.input.dtype = 'uint8';
          }),
        ),
      'input.quantization',
    );
  });

  it('checks the MediaPipe formats: landmark, heatmap and world counts, one probability of two classes', function () {
    const pose = path.join(examples, 'mediapipe-blazepose-landmarks.manifest.json');
    const m = loadModelManifest(pose);
    assert.equal(m.family, 'blazepose');
    assert.equal(m.keypoints?.names.length, 33);
    assertConfigError(
      () =>
        loadModelManifest(
          variant(pose, (x) => {
            x.outputs.landmarks.dims = [1, 194];
          }),
        ),
      'outputs.landmarks.dims',
      '5 values per landmark',
    );
    assertConfigError(
      () =>
        loadModelManifest(
          variant(pose, (x) => {
            x.outputs.heatmaps.dims = [1, 64, 64, 33];
          }),
        ),
      'outputs.heatmaps.dims',
      '39 heatmaps',
    );
    assertConfigError(
      () =>
        loadModelManifest(
          variant(pose, (x) => {
            x.outputs.worldLandmarks.dims = [1, 99];
          }),
        ),
      'outputs.worldLandmarks.dims',
    );
    assertConfigError(
      () =>
        loadModelManifest(
          variant(pose, (x) => {
            x.outputs.landmarks.dims = [1, 100];
          }),
        ),
      'keypoints.names',
      '33 keypoints but the model has 20 landmarks',
    );
    assertConfigError(
      () =>
        loadModelManifest(
          variant(pose, (x) => {
            x.family = 'hrnet';
          }),
        ),
      'outputs.format',
    );
    const selfie = path.join(examples, 'mediapipe-selfie-segmentation.manifest.json');
    assert.equal(loadModelManifest(selfie).outputs.format, 'semantic-probability');
    assertConfigError(
      () =>
        loadModelManifest(
          variant(selfie, (x) => {
            x.classNames = ['background', 'person', 'dog'];
          }),
        ),
      'classNames',
      'two classes',
    );
    assertConfigError(
      () =>
        loadModelManifest(
          variant(selfie, (x) => {
            x.outputs.probability.dims = [1, 256, 256, 2];
          }),
        ),
      'outputs.probability.dims',
      'one probability',
    );
    assertConfigError(
      () =>
        loadModelManifest(
          variant(selfie, (x) => {
            x.task = 'segment';
          }),
        ),
      'task segment is not served by family selfie-segmentation',
    );
  });

  it('takes an optional SHA-256 per model file, 64 lowercase hex digits, only for files it has', function () {
    const hex = 'ab'.repeat(32);
    const ok = loadModelManifest(
      variant(fall, (m) => {
        m.files.sha256 = { fp32: hex, int8: hex };
      }),
    );
    assert.deepEqual(ok.files.sha256, { fp32: hex, int8: hex });
    assertConfigError(
      () =>
        loadModelManifest(
          variant(fall, (m) => {
            m.files.sha256 = { fp32: hex.toUpperCase() };
          }),
        ),
      'files.sha256.fp32',
      'expected 64 lowercase hex digits',
    );
    assertConfigError(
      () =>
        loadModelManifest(
          variant(fall, (m) => {
            m.files.sha256 = { onnx: hex };
          }),
        ),
      'files.sha256',
      'onnx',
    );
    assertConfigError(
      () =>
        loadModelManifest(
          variant(fall, (m) => {
            delete m.files.int8;
            m.files.sha256 = { int8: hex };
          }),
        ),
      'files.sha256.int8',
      'which the manifest lacks',
    );
  });

  it('validates parsed data without a file', function () {
    assertConfigError(
      () => parseModelManifest({ schemaVersion: 2 }, 'inline'),
      'inline',
      'schemaVersion',
    );
  });
});
