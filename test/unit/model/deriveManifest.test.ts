import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ConfigError } from '../../../src/core/configError';
import { loadModelManifest, type ModelManifestData } from '../../../src/config/modelManifest';
import { COCO_CLASS_NAMES } from '../../../src/heads/cocoClassNames';
import { deriveManifest, ImportRefusedError } from '../../../src/model/deriveManifest';
import { parsePythonNames } from '../../../src/families/yolov8/parsePythonNames';
import { END_TO_END_NOTE } from '../../../src/families/yolov8/readUltralyticsExport';
import { modelProto, ONNX_FLOAT, valueInfoProto } from '../../../src/model/onnxWriter';
import { readOnnxModel } from '../../../src/model/readOnnxModel';
import { resolveModelManifest } from '../../../src/model/resolveModelManifest';
import { repoPath } from '../../support/paths';
import { copyWithMetadata, pythonNames } from '../../support/onnxFiles';
import { tempDir } from '../../support/tempDir';

const AIHUB_DIR = repoPath('.cache', 'aihub-layout');

/** What Ultralytics writes, minus provenance-only keys; restores it on the untrained builds. */
function ultralyticsMeta(
  task: 'pose' | 'segment',
  names: readonly string[],
): Record<string, string> {
  return {
    description: `Ultralytics YOLOv8n-${task} model (htp_perception untrained build)`,
    author: 'Ultralytics',
    stride: '32',
    task,
    batch: '1',
    imgsz: '[640, 640]',
    names: pythonNames(names),
    ...(task === 'pose' ? { kpt_shape: '[17, 3]' } : {}),
  };
}

/** The parts of a manifest a file can state (provenance and notes are written by people). */
function contract(m: ModelManifestData) {
  return {
    task: m.task,
    family: m.family,
    input: m.input,
    outputs: m.outputs,
    classNames: m.classNames,
    keypoints: m.keypoints,
  };
}

function derive(file: string, aihub = true) {
  return deriveManifest(file, readOnnxModel(file), { allowAihub: aihub });
}

function graphFile(dir: string, name: string, inputs: string[], outputs: [string, number[]][]) {
  const file = path.join(dir, name);
  fs.writeFileSync(
    file,
    modelProto({
      name: 'g',
      producer: 'test',
      nodes: [],
      initializers: [],
      inputs: inputs.map((n) => valueInfoProto(n, ONNX_FLOAT, [1, 3, 640, 640])),
      outputs: outputs.map(([n, d]) => valueInfoProto(n, ONNX_FLOAT, d)),
    }),
  );
  return file;
}

/** An empty graph with Ultralytics metadata and the given outputs: what import reads of a file. */
function ultralyticsGraph(
  dir: string,
  name: string,
  meta: Record<string, string>,
  outputs: [string, number[]][],
): string {
  const file = path.join(dir, name);
  fs.writeFileSync(
    file,
    modelProto({
      name: 'g',
      producer: 'test',
      nodes: [],
      initializers: [],
      inputs: [valueInfoProto('images', ONNX_FLOAT, [1, 3, 640, 640])],
      outputs: outputs.map(([n, d]) => valueInfoProto(n, ONNX_FLOAT, d)),
      metadata: { author: 'Ultralytics', imgsz: '[640, 640]', ...meta },
    }),
  );
  return file;
}

/**
 * The YOLO11n exports of PyPI isat-plugin-auto-annotate 1.2.1, end-to-end, as bootstrap step 71
 * fetches them (models/yolo11n* ship them cut at the raw head).
 */
const YOLO11N = repoPath('.cache', 'registry-models', 'yolo11n.onnx');
const YOLO11N_SEG = repoPath('.cache', 'registry-models', 'yolo11n-seg.onnx');

describe('model import: manifests derived from ONNX files', function () {
  const dir = tempDir('htp-import-');

  it('parses Ultralytics names (dict or list, either quote, escapes) and rejects gaps', function () {
    assert.deepEqual(parsePythonNames("{0: 'Normal', 1: 'Fall'}"), ['Normal', 'Fall']);
    assert.deepEqual(parsePythonNames(`{0: "men's", 1: 'a\\'b'}`), ["men's", "a'b"]);
    assert.deepEqual(parsePythonNames("['a', 'b']"), ['a', 'b']);
    assert.equal(parsePythonNames("{0: 'a', 2: 'c'}"), undefined);
    assert.equal(parsePythonNames("{0: 'a'"), undefined);
    assert.equal(parsePythonNames('person'), undefined);
  });

  it('the real Ultralytics export (yolov8s-fall) gives its checked-in manifest', function () {
    const file = repoPath('models', 'yolov8-fall', 'yolov8s-fall.onnx');
    const d = derive(file);
    assert.equal(d.kind, 'ultralytics');
    assert.deepEqual(d.assumptions, []);
    const shipped = loadModelManifest(
      repoPath('models', 'yolov8-fall', 'yolov8s-fall.manifest.json'),
    );
    assert.deepEqual(contract(d.manifest), contract(shipped));
    assert.equal(d.manifest.weights, 'pretrained');
    assert.equal(d.manifest.files.fp32, 'yolov8s-fall.onnx');
    assert.equal(d.manifest.provenance.version, '8.3.202');
  });

  for (const [task, folder] of [
    ['pose', 'yolov8n-pose'],
    ['segment', 'yolov8n-seg'],
  ] as const) {
    it(`untrained ${folder} with Ultralytics metadata gives its checked-in manifest`, function () {
      const shipped = loadModelManifest(repoPath('models', folder, `${folder}.manifest.json`));
      const file = copyWithMetadata(
        repoPath('models', folder, `${folder}.onnx`),
        dir,
        ultralyticsMeta(task, task === 'pose' ? ['person'] : COCO_CLASS_NAMES),
      );
      const d = derive(file);
      assert.equal(d.kind, 'ultralytics');
      assert.deepEqual(contract(d.manifest), contract(shipped));
      assert.equal(d.manifest.weights, 'untrained');
    });
  }

  it('the real end-to-end YOLO11n export (nms=True) gives end-to-end rows, COCO names, no NMS of ours', function () {
    assert.ok(fs.existsSync(YOLO11N), `${YOLO11N} missing: run scripts/bootstrap.sh (step 71)`);
    const d = derive(YOLO11N);
    assert.equal(d.kind, 'ultralytics');
    assert.deepEqual(d.assumptions, []);
    const m = d.manifest;
    assert.deepEqual([m.task, m.family, m.weights], ['detect', 'yolov8', 'pretrained']);
    assert.deepEqual(m.outputs, {
      format: 'ultralytics-end2end',
      predictions: { name: 'output0', dims: [1, 300, 6], dtype: 'float32' },
      boxes: { format: 'xyxy', units: 'input-pixels' },
    });
    assert.deepEqual(m.classNames, [...COCO_CLASS_NAMES]);
    assert.deepEqual(
      [m.input.name, m.input.width, m.input.height, m.input.layout, m.input.resize],
      ['images', 640, 640, 'NCHW', { mode: 'letterbox', padValue: 114 }],
    );
    assert.equal(m.notes, END_TO_END_NOTE);
    assert.equal(m.provenance.version, '8.3.105');
    assert.match(m.provenance.license, /^AGPL-3\.0/);
    // In memory too: a `model` parameter may name the .onnx itself.
    assert.equal(resolveModelManifest(YOLO11N).outputs.format, 'ultralytics-end2end');
  });

  it('the real end-to-end YOLO11n-seg export gives rows of 6 + 32 coefficients and the prototypes', function () {
    assert.ok(
      fs.existsSync(YOLO11N_SEG),
      `${YOLO11N_SEG} missing: run scripts/bootstrap.sh (step 71)`,
    );
    const m = derive(YOLO11N_SEG).manifest;
    assert.equal(m.task, 'segment');
    assert.deepEqual(m.outputs, {
      format: 'ultralytics-end2end',
      predictions: { name: 'output0', dims: [1, 300, 38], dtype: 'float32' },
      boxes: { format: 'xyxy', units: 'input-pixels' },
      maskCoefficients: 32,
      protos: { name: 'output1', dims: [1, 32, 160, 160], dtype: 'float32', layout: 'NCHW' },
    });
    assert.equal(m.classNames.length, 80);
  });

  it('recognises end-to-end rows by end2end metadata, by the nms export argument, or by the tensor alone', function () {
    const coco = pythonNames(COCO_CLASS_NAMES);
    const two = pythonNames(['Normal', 'Fall']);
    const pose = derive(
      ultralyticsGraph(
        dir,
        'e2e-pose.onnx',
        { task: 'pose', names: "{0: 'person'}", kpt_shape: '[17, 3]', end2end: 'True' },
        [['output0', [1, 300, 57]]],
      ),
    ).manifest;
    assert.equal(pose.outputs.format, 'ultralytics-end2end');
    assert.equal(pose.keypoints?.names.length, 17);
    const cases: [string, Record<string, string>, number[], string][] = [
      // 2 classes: [1, 300, 6] would also fit a packed [1, anchors, 4 + 2]
      ['nms-arg', { args: "{'batch': 1, 'nms': True}", names: two }, [1, 300, 6], 'end2end'],
      ['anchor-count', { names: two }, [1, 300, 6], 'end2end'],
      ['packed-2', { names: two }, [1, 8400, 6], 'packed'],
      ['flag-false', { names: two, end2end: 'False' }, [1, 8400, 6], 'packed'],
      ['shape-only', { names: coco }, [1, 300, 6], 'end2end'],
      ['packed-80', { names: coco, args: "{'nms': False}" }, [1, 84, 8400], 'packed'],
    ];
    for (const [name, meta, dims, want] of cases) {
      const m = derive(
        ultralyticsGraph(dir, `${name}.onnx`, { task: 'detect', ...meta }, [['output0', dims]]),
      ).manifest;
      assert.equal(m.outputs.format, `ultralytics-${want}`, name);
      assert.equal(m.notes, want === 'end2end' ? END_TO_END_NOTE : undefined, name);
    }
  });

  it('refuses an end-to-end claim the tensor does not bear out, naming the rows it expected', function () {
    const file = ultralyticsGraph(
      dir,
      'e2e-liar.onnx',
      { task: 'pose', names: "{0: 'person'}", kpt_shape: '[17, 3]', end2end: 'True' },
      [['output0', [1, 300, 56]]],
    );
    assert.throws(
      () => derive(file),
      (e: Error) =>
        e instanceof ImportRefusedError &&
        e.message.includes('ends in NMS') &&
        e.message.includes('is not [1, N, 57] rows') &&
        e.message.includes('outputs: output0 float32 [1,300,56]'),
    );
    const seg = ultralyticsGraph(
      dir,
      'e2e-seg.onnx',
      { task: 'segment', names: pythonNames(COCO_CLASS_NAMES) },
      [
        ['output0', [1, 300, 37]],
        ['output1', [1, 32, 160, 160]],
      ],
    );
    assert.throws(() => derive(seg), /no axis of 116 channels .*nor end-to-end rows of 38 values/);
  });

  for (const name of ['yolov8s-fall-aihub', 'deeplabv3-aihub-argmax', 'hrnet-nhwc']) {
    it(`AI Hub layout ${name}: recognised by its tensors, outputs as its manifest says`, function () {
      const file = path.join(AIHUB_DIR, `${name}.onnx`);
      assert.ok(fs.existsSync(file), `${file} missing: run scripts/bootstrap.sh 75`);
      const layout = loadModelManifest(path.join(AIHUB_DIR, `${name}.manifest.json`));
      const d = derive(file);
      assert.equal(d.kind, 'aihub');
      const got = contract(d.manifest);
      const want = contract(layout);
      assert.deepEqual(
        { ...got, input: { ...got.input, normalization: null, resize: null } },
        { ...want, input: { ...want.input, normalization: null, resize: null } },
      );
      // These copies keep the originals' pre-processing; a real AI Hub export normalizes inside
      // the graph (plain 0..1), which is what import assumes and says.
      assert.deepEqual(d.manifest.input.normalization.mean, [0, 0, 0]);
      if (name === 'yolov8s-fall-aihub') {
        // Ultralytics metadata survived: its names and the 114 pad its weights were trained with.
        assert.deepEqual(d.manifest.input.resize, { mode: 'letterbox', padValue: 114 });
        assert.deepEqual(d.assumptions, []);
      } else {
        assert.ok(d.assumptions.length > 0);
      }
    });
  }

  it('refuses a file that is not ONNX', function () {
    const file = path.join(dir, 'notes.onnx');
    fs.writeFileSync(file, 'these are not weights\n');
    assert.throws(
      () => readOnnxModel(file),
      (e: Error) =>
        e.name === 'OnnxFormatError' && e.message.startsWith(`${file}: not an ONNX model`),
    );
  });

  it('refuses two image inputs, showing them and the example to start from', function () {
    const file = graphFile(dir, 'two.onnx', ['image', 'image2'], [['mask', [1, 640, 640]]]);
    assert.throws(
      () => derive(file),
      (e: Error) =>
        e instanceof ImportRefusedError &&
        e.message.includes('2 inputs, one image input expected') &&
        e.message.includes('inputs: image float32 [1,3,640,640], image2 float32 [1,3,640,640]') &&
        e.message.includes('models/examples/'),
    );
  });

  it('refuses unknown outputs, showing them and the AI Hub examples', function () {
    const file = graphFile(dir, 'odd.onnx', ['image'], [['logits_raw', [1, 10]]]);
    assert.throws(
      () => derive(file),
      (e: Error) =>
        e instanceof ImportRefusedError &&
        /outputs: logits_raw float32 \[1,10\]/.test(e.message) &&
        e.message.includes('models/examples/aihub-*.manifest.json'),
    );
  });

  it('refuses an Ultralytics-named file without metadata, pointing at the Ultralytics examples', function () {
    // Synthetic: the bootstrap pose files carry metadata once built by the current tools.
    const file = graphFile(dir, 'bare-pose.onnx', ['images'], [['output0', [1, 56, 8400]]]);
    assert.throws(
      () => derive(file),
      (e: Error) =>
        e instanceof ImportRefusedError &&
        e.message.includes('no Ultralytics metadata') &&
        e.message.includes('ultralytics-yolov8n-{detect,pose,seg}'),
    );
  });

  it('refuses metadata that disagrees with the outputs', function () {
    const file = copyWithMetadata(
      repoPath('models', 'yolov8-fall', 'yolov8s-fall.onnx'),
      dir,
      { names: pythonNames(['a', 'b', 'c']) },
      'liar.onnx',
    );
    assert.throws(() => derive(file), /no axis of 7 channels/);
  });

  it('resolveModelManifest: an Ultralytics .onnx in memory, AI Hub layouts only through import', function () {
    const file = repoPath('models', 'yolov8-fall', 'yolov8s-fall.onnx');
    const m = resolveModelManifest(file);
    assert.equal(m.manifestPath, file);
    assert.deepEqual(m.modelPaths, { fp32: file });
    assert.equal(m.name, 'yolov8s-fall');
    assert.throws(
      () => resolveModelManifest(path.join(AIHUB_DIR, 'deeplabv3-aihub-argmax.onnx')),
      (e: Error) => e instanceof ConfigError && /htp-perception model import/.test(e.message),
    );
    assert.throws(
      () => resolveModelManifest(path.join(dir, 'missing.onnx')),
      (e: Error) => e instanceof ConfigError && /cannot open/.test(e.message),
    );
    const manifest = repoPath('models', 'yolov8-fall', 'yolov8s-fall.manifest.json');
    assert.equal(resolveModelManifest(manifest).manifestPath, manifest);
  });
});
