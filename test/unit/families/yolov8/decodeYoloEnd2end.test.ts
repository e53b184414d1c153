import { strict as assert } from 'node:assert';
import { decodeYoloDetections } from '../../../../src/families/yolov8/decodeYoloDetections';
import { decodeYoloPose } from '../../../../src/families/yolov8/decodeYoloPose';
import { decodeYoloSegmentation } from '../../../../src/families/yolov8/decodeYoloSegmentation';
import { letterboxTransform } from '../../../../src/heads/letterboxTransform';
import type { Tensor } from '../../../../src/core/tensor';
import { f32, near, throwsHead, yoloOutput } from '../../heads/headTestUtils';

// Ultralytics end-to-end exports (NMS inside the graph): [1, N, 6 + extra] rows of x1, y1, x2, y2
// in network pixels, score, class id as a float, then mask coefficients or keypoints; zero rows
// pad the tensor to N (the export's max_det, 300).

const ID = letterboxTransform(640, 640, 640, 640);
const LB = letterboxTransform(1280, 720, 640, 640); // scale 0.5, padY 140

/** [1, n, width] from rows, zero-padded to n rows as the export pads to max_det. */
function rows(name: string, values: number[][], width: number, n = values.length + 3): Tensor {
  const t = f32(name, [1, n, width]);
  values.forEach((r, i) => {
    assert.equal(r.length, width, 'row width');
    (t.data as Float32Array).set(r, i * width);
  });
  return t;
}

const e2e = (output: Tensor) => ({ format: 'end2end' as const, output });

describe('heads: Ultralytics end-to-end rows (detect)', () => {
  it('reads x1, y1, x2, y2, score and a float class id, skipping the zero padding rows', () => {
    const out = rows('output0', [[80, 170, 120, 230, 0.8, 2]], 6, 300);
    const d = decodeYoloDetections(e2e(out), ID, { numClasses: 3 });
    assert.equal(d.length, 1);
    assert.deepEqual(d[0]!.box, { x1: 80, y1: 170, x2: 120, y2: 230 });
    assert.equal(d[0]!.classId, 2);
    near(d[0]!.score, 0.8);
  });

  it('keeps scores strictly above the threshold, as the packed layout does', () => {
    const out = rows(
      'o',
      [
        [0, 0, 10, 10, 0.9, 0],
        [20, 0, 30, 10, 0.25, 0],
        [40, 0, 50, 10, 0.2500001, 1],
      ],
      6,
    );
    assert.deepEqual(
      decodeYoloDetections(e2e(out), ID).map((x) => x.classId),
      [0, 1],
    );
    assert.equal(decodeYoloDetections(e2e(out), ID, { scoreThreshold: 0.95 }).length, 0);
    // A threshold below zero still never returns the padding (its boxes have no extent).
    assert.equal(decodeYoloDetections(e2e(out), ID, { scoreThreshold: -1 }).length, 3);
  });

  it('runs no NMS of its own: overlapping rows of one class both survive, whatever the IoU', () => {
    const out = rows(
      'o',
      [
        [100, 100, 150, 150, 0.9, 0],
        [101, 100, 151, 150, 0.8, 0],
      ],
      6,
    );
    assert.equal(decodeYoloDetections(e2e(out), ID, { iouThreshold: 0.1 }).length, 2);
    assert.equal(decodeYoloDetections(e2e(out), ID, { agnostic: true }).length, 2);
  });

  it('filters classes, caps at maxDetections and orders best first', () => {
    const out = rows(
      'o',
      [
        [0, 0, 10, 10, 0.5, 0],
        [20, 0, 30, 10, 0.9, 1],
        [40, 0, 50, 10, 0.7, 0],
        [60, 0, 70, 10, 0.6, 2],
      ],
      6,
    );
    const all = decodeYoloDetections(e2e(out), ID);
    assert.deepEqual(
      all.map((x) => x.score),
      [0.9, 0.7, 0.6, 0.5].map(Math.fround),
    );
    assert.deepEqual(
      decodeYoloDetections(e2e(out), ID, { classes: [0, 2] }).map((x) => x.classId),
      [0, 2, 0],
    );
    assert.deepEqual(
      decodeYoloDetections(e2e(out), ID, { maxDetections: 2 }).map((x) => x.classId),
      [1, 0],
    );
  });

  it('maps boxes back through the letterbox and drops boxes wholly in the padding', () => {
    const out = rows(
      'o',
      [
        [270, 295, 370, 345, 0.9, 0],
        [10, 10, 50, 100, 0.8, 0], // y 10..100 lies in the top padding (padY 140)
      ],
      6,
    );
    const d = decodeYoloDetections(e2e(out), LB);
    assert.equal(d.length, 1);
    assert.deepEqual(d[0]!.box, { x1: 540, y1: 310, x2: 740, y2: 410 });
  });

  it('reads class ids that arrive a little off a whole number, and dequantizes integer outputs', () => {
    const out = rows('o', [[0, 0, 10, 10, 0.9, 15.99999]], 6);
    assert.equal(decodeYoloDetections(e2e(out), ID)[0]!.classId, 16);
    const q: Tensor = {
      name: 'q',
      dims: [1, 2, 6],
      data: new Uint8Array([0, 0, 20, 20, 90, 4, 0, 0, 0, 0, 0, 0]),
      quantization: { scale: 0.5, zeroPoint: 0 },
    };
    const [d] = decodeYoloDetections(e2e(q), ID);
    assert.deepEqual(d!.box, { x1: 0, y1: 0, x2: 10, y2: 10 });
    near(d!.score, 45);
    assert.equal(d!.classId, 2);
  });

  it('refuses a class id the model does not have, and rows of the wrong width', () => {
    const out = rows('o', [[0, 0, 10, 10, 0.9, 80]], 6);
    throwsHead(
      () => decodeYoloDetections(e2e(out), ID, { numClasses: 80 }),
      'BAD_VALUE',
      /row 0 has class id 80, the model has 80 classes/,
    );
    throwsHead(
      () => decodeYoloDetections(e2e(rows('o', [[0, 0, 10, 10, 0.9, -1]], 6)), ID),
      'BAD_VALUE',
      /class id -1/,
    );
    throwsHead(
      () => decodeYoloDetections(e2e(f32('o', [1, 300, 7])), ID),
      'BAD_SHAPE',
      /'o' has dims \[1, 300, 7\], expected \[1, N, 6\]/,
    );
    throwsHead(
      () => decodeYoloDetections(e2e(f32('o', [2, 300, 6])), ID),
      'BAD_SHAPE',
      /expected \[1, N, 6\]/,
    );
  });

  it('gives what the packed layout gives for the same surviving boxes', () => {
    // One box per class, far apart, so the packed layout's NMS removes nothing.
    const boxes = [
      [100, 100, 60, 40, 0],
      [400, 300, 80, 120, 1],
    ];
    const packed = yoloOutput(
      'p',
      boxes.map(([cx, cy, w, h, c]) => [cx!, cy!, w!, h!, c === 0 ? 0.8 : 0, c === 1 ? 0.7 : 0]),
      6,
    );
    const end2end = rows(
      'e',
      boxes.map(([cx, cy, w, h, c]) => [
        cx! - w! / 2,
        cy! - h! / 2,
        cx! + w! / 2,
        cy! + h! / 2,
        c === 0 ? 0.8 : 0.7,
        c!,
      ]),
      6,
    );
    assert.deepEqual(
      decodeYoloDetections(e2e(end2end), LB),
      decodeYoloDetections({ format: 'ultralytics', output: packed }, LB),
    );
  });
});

describe('heads: Ultralytics end-to-end rows (segment)', () => {
  const MH = 160;
  const MW = 160;
  /** Two prototypes: channel 0 = column - 80 (a ramp), channel 1 = 1 everywhere. */
  function protos(): Tensor {
    const t = f32('output1', [1, 2, MH, MW]);
    const d = t.data as Float32Array;
    for (let r = 0; r < MH; r++) {
      for (let c = 0; c < MW; c++) {
        d[r * MW + c] = c - 80;
        d[MH * MW + r * MW + c] = 1;
      }
    }
    return t;
  }

  it('builds the same masks as the packed layout from the coefficients after the class', () => {
    // network box x 200..500, y 240..400 -> source x 400..1000, y 200..520; coefficients (1, 0.5)
    const end2end = rows('output0', [[200, 240, 500, 400, 0.9, 0, 1, 0.5]], 8, 300);
    const [got] = decodeYoloSegmentation({ detections: e2e(end2end), protos: protos() }, LB, {
      numClasses: 1,
    });
    const packed = yoloOutput('output0', [[350, 320, 300, 160, 0.9, 1, 0.5]], 7);
    const [want] = decodeYoloSegmentation(
      { detections: { format: 'ultralytics', output: packed }, protos: protos() },
      LB,
    );
    assert.ok(got && want);
    assert.deepEqual(got.box, { x1: 400, y1: 200, x2: 1000, y2: 520 });
    assert.deepEqual(got, want);
    // The ramp: on where the network x > 320, i.e. source x > 640.
    const m = got.mask;
    assert.equal(m.data[m.width - 1], 1);
    assert.equal(m.data[0], 0);
    assert.equal(m.data[639 - m.x], 0);
    assert.equal(m.data[641 - m.x], 1);
  });

  it('takes the coefficient count from the prototypes and checks the rows against it', () => {
    throwsHead(
      () =>
        decodeYoloSegmentation(
          { detections: e2e(f32('output0', [1, 300, 38])), protos: protos() },
          ID,
        ),
      'BAD_SHAPE',
      /expected \[1, N, 8\] \(x1, y1, x2, y2, score, class and 2 mask coefficients\)/,
    );
  });
});

describe('heads: Ultralytics end-to-end rows (pose)', () => {
  it('reads box, score, class 0 and K keypoints (K from the width) into source pixels', () => {
    // K = 2: width 6 + 6 = 12
    const out = rows(
      'output0',
      [[270, 220, 370, 420, 0.9, 0, 300, 240, 0.95, 340, 400, 0.2]],
      12,
      300,
    );
    const poses = decodeYoloPose(out, LB, { endToEnd: true, numKeypoints: 2 });
    assert.equal(poses.length, 1);
    const p = poses[0]!;
    assert.deepEqual(p.box, { x1: 540, y1: 160, x2: 740, y2: 560 });
    assert.equal(p.classId, 0);
    near(p.score, 0.9);
    assert.deepEqual(
      p.keypoints.map((k) => [k.x, k.y, Math.round(k.score * 100)]),
      [
        [600, 200, 95],
        [680, 520, 20],
      ],
    );
  });

  it('gives the packed layout its results for the COCO [1, N, 57] rows, threshold and cap included', () => {
    const kp = (k: number, i: number) => [300 + k + i, 300 - k, 0.5 + k / 100];
    const packedRows: number[][] = [];
    const e2eRows: number[][] = [];
    [
      [320, 320, 100, 200, 0.8],
      [100, 300, 50, 50, 0.6],
      [500, 300, 50, 80, 0.2],
    ].forEach(([cx, cy, w, h, s], i) => {
      const k = Array.from({ length: 17 }, (_, j) => kp(j, i)).flat();
      packedRows.push([cx!, cy!, w!, h!, s!, ...k]);
      e2eRows.push([cx! - w! / 2, cy! - h! / 2, cx! + w! / 2, cy! + h! / 2, s!, 0, ...k]);
    });
    const want = decodeYoloPose(yoloOutput('p', packedRows, 56), LB, { maxDetections: 1 });
    const got = decodeYoloPose(rows('e', e2eRows, 57), LB, {
      endToEnd: true,
      maxDetections: 1,
    });
    assert.equal(got.length, 1);
    assert.deepEqual(got, want);
    assert.equal(decodeYoloPose(rows('e', e2eRows, 57), LB, { endToEnd: true }).length, 2);
  });

  it('refuses rows that are not 6 + K x 3 wide, a keypoint count the model does not declare, and anchorsFirst', () => {
    throwsHead(
      () => decodeYoloPose(f32('o', [1, 300, 56]), ID, { endToEnd: true }),
      'BAD_SHAPE',
      /56 channels are not 6 \+ K x 3/,
    );
    throwsHead(
      () => decodeYoloPose(f32('o', [1, 300, 57]), ID, { endToEnd: true, numKeypoints: 16 }),
      'BAD_SHAPE',
      /holds 17 keypoints but the model declares 16/,
    );
    throwsHead(
      () => decodeYoloPose(f32('o', [1, 300, 57]), ID, { endToEnd: true, anchorsFirst: true }),
      'BAD_OPTION',
      /drop anchorsFirst/,
    );
    throwsHead(
      () => decodeYoloPose(rows('o', [[0, 0, 10, 10, 0.9, 1, 5, 5, 1]], 9), ID, { endToEnd: true }),
      'BAD_VALUE',
      /class id 1, the model has 1 classes/,
    );
  });
});
