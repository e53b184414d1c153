import { strict as assert } from 'node:assert';
import { decodeYoloDetections } from '../../../../src/families/yolov8/decodeYoloDetections';
import { letterboxTransform } from '../../../../src/heads/letterboxTransform';
import type { Tensor } from '../../../../src/core/tensor';
import { f32, near, throwsHead, yoloOutput } from '../../heads/headTestUtils';

// 3 classes, so channels = 7; identity transform (source 640x640 = network).
const ID = letterboxTransform(640, 640, 640, 640);
const row = (cx: number, cy: number, w: number, h: number, s: number[]): number[] => [
  cx,
  cy,
  w,
  h,
  ...s,
];

describe('heads/decodeYoloDetections (Ultralytics layout)', () => {
  it('decodes cx, cy, w, h to corners and takes the best class per anchor', () => {
    const out = yoloOutput('output0', [row(100, 200, 40, 60, [0.1, 0.8, 0.3])], 7);
    const d = decodeYoloDetections({ format: 'ultralytics', output: out }, ID);
    assert.equal(d.length, 1);
    assert.deepEqual(d[0]!.box, { x1: 80, y1: 170, x2: 120, y2: 230 });
    assert.equal(d[0]!.classId, 1);
    near(d[0]!.score, 0.8);
  });

  it('takes the number of classes and anchors from dims, not constants', () => {
    const rows = Array.from({ length: 9 }, (_, i) =>
      row(30 + i * 60, 50, 20, 20, [0.1, 0.2, 0.05, 0.24, i === 4 ? 0.9 : 0.05]),
    );
    const d = decodeYoloDetections({ format: 'ultralytics', output: yoloOutput('o', rows, 9) }, ID);
    assert.deepEqual(
      d.map((x) => x.classId),
      [4],
    );
    assert.equal(d[0]!.box.x1, 30 + 4 * 60 - 10);
  });

  it('maps boxes back through the letterbox to source pixels', () => {
    const t = letterboxTransform(1280, 720, 640, 640);
    const out = yoloOutput('o', [row(320, 320, 100, 50, [0.9, 0, 0])], 7);
    const [d] = decodeYoloDetections({ format: 'ultralytics', output: out }, t);
    assert.deepEqual(d!.box, { x1: 540, y1: 310, x2: 740, y2: 410 });
  });

  it('applies class-aware NMS by default and agnostic NMS on request', () => {
    const out = yoloOutput(
      'o',
      [
        row(100, 100, 50, 50, [0.9, 0, 0]),
        row(102, 100, 50, 50, [0.8, 0, 0]),
        row(101, 101, 50, 50, [0, 0.7, 0]),
      ],
      7,
    );
    const aware = decodeYoloDetections({ format: 'ultralytics', output: out }, ID);
    assert.deepEqual(
      aware.map((d) => [d.classId, Math.round(d.score * 10)]),
      [
        [0, 9],
        [1, 7],
      ],
    );
    const agnostic = decodeYoloDetections({ format: 'ultralytics', output: out }, ID, {
      agnostic: true,
    });
    assert.deepEqual(
      agnostic.map((d) => d.classId),
      [0],
    );
  });

  it('returns nothing for all-below-threshold, NaN scores and an empty output', () => {
    const low = yoloOutput('o', [row(100, 100, 10, 10, [0.2, 0.25, 0.1])], 7);
    assert.deepEqual(decodeYoloDetections({ format: 'ultralytics', output: low }, ID), []);
    const nan = yoloOutput('o', [row(100, 100, 10, 10, [NaN, NaN, NaN])], 7);
    assert.deepEqual(decodeYoloDetections({ format: 'ultralytics', output: nan }, ID), []);
    const empty = f32('o', [1, 84, 0]);
    assert.deepEqual(decodeYoloDetections({ format: 'ultralytics', output: empty }, ID), []);
  });

  it('a NaN class score does not hide a valid one', () => {
    const out = yoloOutput('o', [row(100, 100, 10, 10, [NaN, 0.6, 0.1])], 7);
    const d = decodeYoloDetections({ format: 'ultralytics', output: out }, ID);
    assert.deepEqual(
      d.map((x) => x.classId),
      [1],
    );
  });

  it('drops degenerate boxes (zero or negative size, NaN coordinates) and boxes wholly in the padding', () => {
    const t = letterboxTransform(1280, 720, 640, 640);
    const out = yoloOutput(
      'o',
      [
        row(100, 300, 0, 20, [0.9, 0, 0]),
        row(100, 300, 20, -5, [0.9, 0, 0]),
        row(NaN, 300, 20, 20, [0.9, 0, 0]),
        row(300, 60, 40, 40, [0.9, 0, 0]), // y 40..80, padding is 0..140
        row(300, 300, 40, 40, [0.5, 0, 0]),
      ],
      7,
    );
    const d = decodeYoloDetections({ format: 'ultralytics', output: out }, t);
    assert.equal(d.length, 1);
    near(d[0]!.score, 0.5);
  });

  it('caps the number of detections at maxDetections, best first', () => {
    const rows = Array.from({ length: 50 }, (_, i) =>
      row(10 + (i % 10) * 60, 10 + Math.floor(i / 10) * 60, 30, 30, [0.3 + i / 100, 0, 0]),
    );
    const d = decodeYoloDetections(
      { format: 'ultralytics', output: yoloOutput('o', rows, 7) },
      ID,
      { maxDetections: 5 },
    );
    assert.equal(d.length, 5);
    assert.deepEqual(
      d.map((x) => Math.round(x.score * 100)),
      [79, 78, 77, 76, 75],
    );
  });

  it('filters on each anchor best class (Ultralytics semantics)', () => {
    const out = yoloOutput(
      'o',
      [row(100, 100, 10, 10, [0.9, 0.8, 0]), row(300, 300, 10, 10, [0, 0.7, 0])],
      7,
    );
    const d = decodeYoloDetections({ format: 'ultralytics', output: out }, ID, { classes: [1] });
    assert.equal(d.length, 1);
    near(d[0]!.score, 0.7);
    assert.equal(d[0]!.box.x1, 295);
  });

  it('reads the anchors-first layout [1, N, 4 + C]', () => {
    const rows = [row(100, 200, 40, 60, [0.1, 0.8, 0.3]), row(400, 400, 10, 10, [0.9, 0, 0])];
    const t = f32('o', [1, 2, 7], rows.flat());
    const d = decodeYoloDetections({ format: 'ultralytics', output: t, anchorsFirst: true }, ID);
    assert.deepEqual(
      d.map((x) => [x.classId, x.box.x1]),
      [
        [0, 395],
        [1, 80],
      ],
    );
  });

  it('dequantizes a uint8 output and scales normalized (TFLite) boxes by the input size', () => {
    // real = (q - 0) / 250: box 0.25, 0.5, 0.1, 0.2 of a 640 input; score 0.8
    const q = [62.5, 125, 25, 50, 200, 0, 0].map(Math.round);
    const data = new Uint8Array(q);
    const t: Tensor = {
      name: 'q',
      dims: [1, 7, 1],
      data,
      quantization: { scale: 1 / 250, zeroPoint: 0 },
    };
    const [d] = decodeYoloDetections({ format: 'ultralytics', output: t }, ID, {
      boxesNormalized: true,
    });
    near(d!.score, 0.8, 1e-6);
    near(d!.box.x1, (63 / 250 - 25 / 500) * 640, 1e-3);
    near(d!.box.y2, (125 / 250 + 50 / 500) * 640, 1e-3);
  });

  it('rejects wrong shapes and a class count that disagrees with the manifest', () => {
    throwsHead(
      () => decodeYoloDetections({ format: 'ultralytics', output: f32('o', [2, 7, 3]) }, ID),
      'BAD_SHAPE',
      /batch 2/,
    );
    throwsHead(
      () => decodeYoloDetections({ format: 'ultralytics', output: f32('o', [1, 4, 3]) }, ID),
      'BAD_SHAPE',
      /no class scores/,
    );
    throwsHead(
      () =>
        decodeYoloDetections({ format: 'ultralytics', output: f32('o', [1, 7, 3]) }, ID, {
          numClasses: 80,
        }),
      'BAD_SHAPE',
      /holds 3 class scores but the model declares 80/,
    );
    throwsHead(
      () =>
        decodeYoloDetections(
          {
            format: 'ultralytics',
            output: { name: 'o', dims: [1, 7, 3], data: new Float32Array(20) },
          },
          ID,
        ),
      'BAD_DATA_LENGTH',
      /need 21 elements/,
    );
    throwsHead(
      () =>
        decodeYoloDetections({ format: 'ultralytics', output: f32('o', [1, 7, 3]) }, ID, {
          scoreThreshold: NaN,
        }),
      'BAD_OPTION',
      /scoreThreshold/,
    );
  });
});

describe('heads/decodeYoloDetections (AI Hub layout)', () => {
  function aihub(boxes: number[][], scores: number[], classes: number[]) {
    const n = scores.length;
    return {
      format: 'aihub' as const,
      boxes: f32('boxes', [1, n, 4], boxes.flat()),
      scores: f32('scores', [1, n], scores),
      classIdx: { name: 'class_idx', dims: [1, n], data: new Uint8Array(classes) } as Tensor,
    };
  }

  it('reads xyxy boxes, scores and uint8 class indices, with NMS per class', () => {
    const out = aihub(
      [
        [10, 10, 50, 50],
        [12, 10, 52, 50],
        [11, 11, 51, 51],
        [100, 100, 120, 130],
      ],
      [0.9, 0.85, 0.6, 0.1],
      [2, 2, 5, 0],
    );
    const d = decodeYoloDetections(out, ID);
    assert.deepEqual(
      d.map((x) => x.classId),
      [2, 5],
    );
    assert.deepEqual(d[0]!.box, { x1: 10, y1: 10, x2: 50, y2: 50 });
  });

  it('handles an empty output and quantized scores', () => {
    assert.deepEqual(decodeYoloDetections(aihub([], [], []), ID), []);
    const out = aihub([[10, 10, 50, 50]], [0], [3]);
    const q: Tensor = {
      name: 'scores',
      dims: [1, 1],
      data: new Uint8Array([200]),
      quantization: { scale: 0.004, zeroPoint: 0 },
    };
    const [d] = decodeYoloDetections({ ...out, scores: q }, ID);
    near(d!.score, 0.8, 1e-6);
    assert.equal(d!.classId, 3);
  });

  it('rejects tensors whose anchor counts disagree', () => {
    const out = aihub([[10, 10, 50, 50]], [0.9], [0]);
    throwsHead(
      () => decodeYoloDetections({ ...out, scores: f32('scores', [1, 2]) }, ID),
      'BAD_SHAPE',
      /'scores' has dims \[1, 2\], expected \[1, 1\]/,
    );
    throwsHead(
      () => decodeYoloDetections({ ...out, boxes: f32('boxes', [1, 1, 5]) }, ID),
      'BAD_SHAPE',
      /expected \[1, N, 4\]/,
    );
  });
});
