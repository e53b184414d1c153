import { strict as assert } from 'node:assert';
import { buildInstanceIdImage } from '../../../../src/heads/buildInstanceIdImage';
import {
  decodeYoloSegmentation,
  YoloSegOutputs,
} from '../../../../src/families/yolov8/decodeYoloSegmentation';
import type { InstanceMask } from '../../../../src/core/headResults';
import { letterboxTransform } from '../../../../src/heads/letterboxTransform';
import type { Tensor } from '../../../../src/core/tensor';
import { f32, throwsHead, yoloOutput } from '../../heads/headTestUtils';

const MH = 160;
const MW = 160;

/** Two prototypes: channel 0 = column - 80 (a ramp), channel 1 = 1 everywhere. */
function protosNchw(): Tensor {
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

function protosNhwc(): Tensor {
  const src = protosNchw().data as Float32Array;
  const t = f32('mask_protos', [1, MH, MW, 2]);
  const d = t.data as Float32Array;
  for (let p = 0; p < MH * MW; p++) {
    d[2 * p] = src[p]!;
    d[2 * p + 1] = src[MH * MW + p]!;
  }
  return t;
}

/** Expected: mask on exactly for source columns >= onFrom inside the region. */
function assertRampMask(
  m: InstanceMask,
  x: number,
  y: number,
  w: number,
  h: number,
  onFrom: number,
): void {
  assert.deepEqual([m.x, m.y, m.width, m.height], [x, y, w, h]);
  let bad = 0;
  for (let r = 0; r < h; r++) {
    for (let c = 0; c < w; c++) {
      const want = x + c >= onFrom ? 1 : 0;
      if (m.data[r * w + c] !== want) bad++;
    }
  }
  assert.equal(bad, 0, `${bad} mask pixels differ`);
}

// 1 class + 2 coefficients: channels 4 + 1 + 2 = 7. Coefficients (1, 0.5): logit = column - 79.5.
const LB = letterboxTransform(1280, 720, 640, 640); // scale 0.5, padY 140

describe('heads/decodeYoloSegmentation', () => {
  it('builds a source-resolution mask from coefficients x prototypes, through the letterbox', () => {
    // network box x 200..500, y 240..400 -> source x 400..1000, y 200..520
    const out = yoloOutput('output0', [[350, 320, 300, 160, 0.9, 1, 0.5]], 7);
    const [d] = decodeYoloSegmentation(
      { detections: { format: 'ultralytics', output: out }, protos: protosNchw() },
      LB,
    );
    assert.deepEqual(d!.box, { x1: 400, y1: 200, x2: 1000, y2: 520 });
    // logit > 0 where proto column > 79.5, i.e. network x > 320, i.e. source x > 640
    assertRampMask(d!.mask, 400, 200, 600, 320, 640);
  });

  it('reads NHWC prototypes identically when told the layout', () => {
    const out = yoloOutput('output0', [[350, 320, 300, 160, 0.9, 1, 0.5]], 7);
    const [d] = decodeYoloSegmentation(
      {
        detections: { format: 'ultralytics', output: out },
        protos: protosNhwc(),
        protosLayout: 'NHWC',
      },
      LB,
    );
    assertRampMask(d!.mask, 400, 200, 600, 320, 640);
  });

  it('reads an anchors-first output [1, N, 4 + C + M]', () => {
    const rows = [
      [10, 10, 4, 4, 0.3, 0, 0],
      [350, 320, 300, 160, 0.9, 1, 0.5],
    ];
    const out = f32('output0', [1, 2, 7], rows.flat());
    const ds = decodeYoloSegmentation(
      {
        detections: { format: 'ultralytics', output: out, anchorsFirst: true },
        protos: protosNchw(),
      },
      LB,
    );
    assert.equal(ds.length, 1);
    assertRampMask(ds[0]!.mask, 400, 200, 600, 320, 640);
  });

  it('reads the AI Hub layout with separate mask coefficients', () => {
    const outputs: YoloSegOutputs = {
      detections: {
        format: 'aihub',
        boxes: f32('boxes', [1, 2, 4], [200, 240, 500, 400, 0, 0, 10, 10]),
        scores: f32('scores', [1, 2], [0.9, 0.1]),
        classIdx: { name: 'class_idx', dims: [1, 2], data: new Int32Array([7, 0]) },
      },
      maskCoefficients: f32('mask_coeffs', [1, 2, 2], [1, 0.5, 0, 0]),
      protos: protosNhwc(),
      protosLayout: 'NHWC',
    };
    const ds = decodeYoloSegmentation(outputs, LB);
    assert.equal(ds.length, 1);
    assert.equal(ds[0]!.classId, 7);
    assertRampMask(ds[0]!.mask, 400, 200, 600, 320, 640);
  });

  it('crops the mask to the box: a positive field fills a proto-aligned box, nothing outside is stored', () => {
    const id = letterboxTransform(640, 640, 640, 640);
    // Coefficients (0, 1): logit 1 everywhere. Box x 104..164, y 8..32 (proto 26..41, 2..8).
    const out = yoloOutput('o', [[134, 20, 60, 24, 0.9, 0, 1]], 7);
    const [d] = decodeYoloSegmentation(
      { detections: { format: 'ultralytics', output: out }, protos: protosNchw() },
      id,
    );
    const m = d!.mask;
    assert.deepEqual([m.x, m.y, m.width, m.height], [104, 8, 60, 24]);
    assert.ok(m.data.every((v) => v === 1));
  });

  it('crops in prototype space as Ultralytics does (proto column c kept when x1 <= c < x2)', () => {
    const id = letterboxTransform(640, 640, 640, 640);
    // Box x 100.2..163.7 -> proto 25.05..40.925: columns 26..40 kept. Source columns 100 and 101
    // sample only columns 24..25 (cropped to 0), so they are off; from 102 on they touch column 26.
    const out = yoloOutput('o', [[131.95, 20, 63.5, 20, 0.9, 0, 1]], 7);
    const [d] = decodeYoloSegmentation(
      { detections: { format: 'ultralytics', output: out }, protos: protosNchw() },
      id,
    );
    const m = d!.mask;
    // region = pixels whose centres lie in the box: 100.5 >= 100.2 and 163.5 < 163.7
    assert.deepEqual([m.x, m.y, m.width, m.height], [100, 10, 64, 20]);
    assertRampMask(m, 100, 10, 64, 20, 102);
  });

  it('gives negative-field instances an all-zero mask, and returns [] for empty outputs', () => {
    const id = letterboxTransform(640, 640, 640, 640);
    const out = yoloOutput('o', [[320, 320, 100, 100, 0.9, 0, -1]], 7);
    const [d] = decodeYoloSegmentation(
      { detections: { format: 'ultralytics', output: out }, protos: protosNchw() },
      id,
    );
    assert.equal(d!.mask.data.length, 100 * 100);
    assert.ok(d!.mask.data.every((v) => v === 0));
    const empty = f32('o', [1, 116, 0]);
    const protos = f32('p', [1, 32, 160, 160]);
    assert.deepEqual(
      decodeYoloSegmentation({ detections: { format: 'ultralytics', output: empty }, protos }, id),
      [],
    );
  });

  it('takes the coefficient count from the prototypes and checks it against the output', () => {
    const id = letterboxTransform(640, 640, 640, 640);
    // 80 classes + 32 coefficients = 116 channels: with 2 protos it reads as 110 classes.
    throwsHead(
      () =>
        decodeYoloSegmentation(
          {
            detections: { format: 'ultralytics', output: f32('o', [1, 116, 3]) },
            protos: protosNchw(),
          },
          id,
          { numClasses: 80 },
        ),
      'BAD_SHAPE',
      /holds 110 class scores but the model declares 80/,
    );
    throwsHead(
      () =>
        decodeYoloSegmentation(
          {
            detections: {
              format: 'aihub',
              boxes: f32('b', [1, 1, 4]),
              scores: f32('s', [1, 1]),
              classIdx: f32('c', [1, 1]),
            },
            protos: protosNchw(),
          },
          id,
        ),
      'BAD_SHAPE',
      /needs the mask_coeffs tensor/,
    );
    throwsHead(
      () =>
        decodeYoloSegmentation(
          {
            detections: { format: 'ultralytics', output: f32('o', [1, 7, 1]) },
            protos: f32('p', [2, 2, 4, 4]),
          },
          id,
        ),
      'BAD_SHAPE',
      /batch 2/,
    );
  });
});

describe('heads/buildInstanceIdImage', () => {
  it('writes id = index + 1, 0 background, the earlier instance winning overlaps', () => {
    const a: InstanceMask = { x: 1, y: 1, width: 2, height: 2, data: new Uint8Array([1, 1, 1, 0]) };
    const b: InstanceMask = { x: 2, y: 1, width: 3, height: 1, data: new Uint8Array([1, 1, 0]) };
    const img = buildInstanceIdImage([a, b], 5, 3);
    assert.deepEqual([...img], [0, 0, 0, 0, 0, 0, 1, 1, 2, 0, 0, 1, 0, 0, 0]);
  });

  it('writes the given ids (track ids) instead, and refuses ids that do not fit mono16', () => {
    const a: InstanceMask = { x: 1, y: 1, width: 2, height: 2, data: new Uint8Array([1, 1, 1, 0]) };
    const b: InstanceMask = { x: 2, y: 1, width: 3, height: 1, data: new Uint8Array([1, 1, 0]) };
    const img = buildInstanceIdImage([a, b], 5, 3, [40, 7]);
    assert.deepEqual([...img], [0, 0, 0, 0, 0, 0, 40, 40, 7, 0, 0, 40, 0, 0, 0]);
    throwsHead(() => buildInstanceIdImage([a, b], 5, 3, [1]), 'BAD_OPTION', /1 ids for 2/);
    throwsHead(
      () => buildInstanceIdImage([a], 5, 3, [65536]),
      'BAD_OPTION',
      /instance id 65536 is not in 1\.\.65535/,
    );
  });

  it('clips regions to the image, returns zeros for no instances, and rejects bad masks', () => {
    const m: InstanceMask = {
      x: 3,
      y: -1,
      width: 2,
      height: 2,
      data: new Uint8Array([1, 1, 1, 1]),
    };
    assert.deepEqual([...buildInstanceIdImage([m], 4, 2)], [0, 0, 0, 1, 0, 0, 0, 0]);
    assert.deepEqual([...buildInstanceIdImage([], 2, 2)], [0, 0, 0, 0]);
    throwsHead(
      () => buildInstanceIdImage([{ ...m, data: new Uint8Array(3) }], 4, 2),
      'BAD_DATA_LENGTH',
      /mask 0 is 2x2 but holds 3 bytes/,
    );
    throwsHead(() => buildInstanceIdImage([], -1, 2), 'BAD_OPTION', /image size/);
  });

  it('matches detection order of a decoded segmentation', () => {
    const id = letterboxTransform(640, 640, 640, 640);
    const out = yoloOutput(
      'o',
      [
        [100, 100, 40, 40, 0.6, 0, 1],
        [110, 100, 40, 40, 0.9, 0, 1],
      ],
      7,
    );
    const ds = decodeYoloSegmentation(
      { detections: { format: 'ultralytics', output: out }, protos: protosNchw() },
      id,
      {
        iouThreshold: 0.9,
      },
    );
    assert.deepEqual(
      ds.map((d) => d.score > 0.8),
      [true, false],
    );
    const img = buildInstanceIdImage(
      ds.map((d) => d.mask),
      640,
      640,
    );
    assert.equal(img[100 * 640 + 125], 1); // only the better (second anchor) box covers x 125
    assert.equal(img[100 * 640 + 85], 2); // only the weaker box covers x 85
    assert.equal(img[100 * 640 + 100], 1); // overlap: the better one
    assert.equal(img[0], 0);
  });
});
