import { strict as assert } from 'node:assert';
import { decodeHrnetHeatmaps } from '../../../../src/families/hrnet/decodeHrnetHeatmaps';
import { planHrnetCrop } from '../../../../src/heads/planHrnetCrop';
import { mapPointToSource } from '../../../../src/heads/mapBoxToSource';
import type { ImageTransform, Tensor } from '../../../../src/core/tensor';
import { f32, near, throwsHead } from '../../heads/headTestUtils';

const WH = 48;
const HH = 64;

/** Network = source (192x256, scale 1), so heatmap cell (x, y) lands on source (4x, 4y). */
const UNIT: ImageTransform = {
  srcWidth: 192,
  srcHeight: 256,
  crop: { x: 0, y: 0, width: 192, height: 256 },
  dstWidth: 192,
  dstHeight: 256,
  scaleX: 1,
  scaleY: 1,
  padX: 0,
  padY: 0,
};

function heatmaps(
  b: number,
  k: number,
  fill: (b: number, k: number, x: number, y: number) => number,
): Tensor {
  const t = f32('heatmaps', [b, k, HH, WH]);
  const d = t.data as Float32Array;
  for (let i = 0; i < b; i++)
    for (let j = 0; j < k; j++)
      for (let y = 0; y < HH; y++)
        for (let x = 0; x < WH; x++) d[((i * k + j) * HH + y) * WH + x] = fill(i, j, x, y);
  return t;
}

function toNhwc(t: Tensor): Tensor {
  const [b, k, h, w] = t.dims as [number, number, number, number];
  const src = t.data as Float32Array;
  const out = f32('heatmaps', [b, h, w, k]);
  const d = out.data as Float32Array;
  for (let i = 0; i < b; i++)
    for (let j = 0; j < k; j++)
      for (let p = 0; p < h * w; p++) d[(i * h * w + p) * k + j] = src[(i * k + j) * h * w + p]!;
  return out;
}

const peaks: Record<string, number> = {
  // joint 0: peak (10, 20), larger neighbour right and below -> +0.25, +0.25
  '0,10,20': 0.9,
  '0,11,20': 0.5,
  '0,9,20': 0.2,
  '0,10,19': 0.3,
  '0,10,21': 0.6,
  // joint 1: peak at x = 1 (too close to the edge for the shift)
  '1,1,30': 0.8,
  '1,2,30': 0.7,
  // joint 2: everything <= 0
  // joint 3: equal neighbours -> no shift; larger neighbour left and above -> -0.25
  '3,20,40': 0.7,
  '3,19,40': 0.4,
  '3,21,40': 0.4,
  '3,20,39': 0.5,
  '3,20,41': 0.1,
};
const fillPeaks = (_b: number, k: number, x: number, y: number): number =>
  peaks[`${k},${x},${y}`] ?? (k === 2 ? -0.1 : 0);

describe('heads/planHrnetCrop', () => {
  it('widens a tall box to aspect 0.75, pads by 1.25 and maps its centre to the input centre', () => {
    const c = planHrnetCrop({ x1: 100, y1: 100, x2: 160, y2: 300 }, 640, 480);
    assert.equal(c.centerX, 130);
    assert.equal(c.centerY, 200);
    near(c.width, 150 * 1.25);
    near(c.height, 250);
    const [a, b, cc, d, e, f] = c.affine;
    assert.equal(b, 0);
    assert.equal(d, 0);
    near(a * 130 + cc, 96);
    near(e * 200 + f, 128);
    near(a, 192 / 187.5);
    // region lies inside the image: no padding, crop = region
    assert.deepEqual(c.transform.crop, { x: 36.25, y: 75, width: 187.5, height: 250 });
    assert.equal(c.transform.padX, 0);
    assert.equal(c.transform.padY, 0);
  });

  it('heightens a wide box and honours custom input size and padding', () => {
    const c = planHrnetCrop({ x1: 0, y1: 0, x2: 400, y2: 100 }, 1000, 1000, {
      inputWidth: 288,
      inputHeight: 384,
      padding: 1,
    });
    near(c.width, 400);
    near(c.height, 400 / 0.75);
  });

  // Boxes touching each edge of a 320x240 image (and a corner, and one wider than the image).
  const EDGE_BOXES = {
    left: { x1: 0, y1: 60, x2: 40, y2: 200 },
    right: { x1: 290, y1: 50, x2: 320, y2: 180 },
    top: { x1: 120, y1: 0, x2: 180, y2: 90 },
    bottom: { x1: 100, y1: 150, x2: 170, y2: 240 },
    corner: { x1: 0, y1: 10, x2: 50, y2: 200 },
    wide: { x1: 0, y1: 100, x2: 320, y2: 140 },
  };

  it('keeps the network aspect at every image edge: the region extends past the image, never clamped or stretched', () => {
    for (const [edge, box] of Object.entries(EDGE_BOXES)) {
      const c = planHrnetCrop(box, 320, 240);
      const r = c.region;
      near(r.width / r.height, 192 / 256, 1e-12, edge);
      near(r.x + r.width / 2, (box.x1 + box.x2) / 2, 1e-9, edge);
      near(r.y + r.height / 2, (box.y1 + box.y2) / 2, 1e-9, edge);
      // widened to the aspect, then padded by 1.25: both sides cover the box with margin
      assert.ok(r.width >= 1.25 * (box.x2 - box.x1) - 1e-9, edge);
      assert.ok(r.height >= 1.25 * (box.y2 - box.y1) - 1e-9, edge);
      const past = {
        left: r.x < 0,
        right: r.x + r.width > 320,
        top: r.y < 0,
        bottom: r.y + r.height > 240,
      };
      if (edge === 'corner') assert.ok(past.left && past.top, edge);
      else if (edge === 'wide') assert.ok(past.left && past.right, edge);
      else assert.ok(past[edge as keyof typeof past], `${edge}: ${JSON.stringify(r)}`);
      const t = c.transform;
      assert.deepEqual(
        t.crop,
        r,
        `${edge}: the transform is the region's (what the engine reports)`,
      );
      assert.deepEqual([t.padX, t.padY, t.dstWidth, t.dstHeight], [0, 0, 192, 256]);
      near(t.scaleX, t.scaleY, 1e-12, edge);
    }
  });

  it('maps keypoints back exactly: affine forward, transform back, at every edge', () => {
    for (const [edge, box] of Object.entries(EDGE_BOXES)) {
      const c = planHrnetCrop(box, 320, 240);
      const [a, b, cc, d, e, f] = c.affine;
      assert.deepEqual([b, d], [0, 0]);
      // the region's corners land on the input's corners
      near(a * c.region.x + cc, 0, 1e-9, edge);
      near(e * (c.region.y + c.region.height) + f, 256, 1e-9, edge);
      for (const [u, v] of [
        [box.x1, box.y1],
        [box.x2, box.y2],
        [(box.x1 + box.x2) / 2, box.y1 + 0.37],
        [0, 0],
        [319.5, 239.25],
      ] as const) {
        const p = mapPointToSource(c.transform, a * u + cc, e * v + f);
        near(p.x, u, 1e-9, `${edge} x`);
        near(p.y, v, 1e-9, `${edge} y`);
      }
    }
  });

  it('accepts a zero-width box (widened by aspect) but rejects a point or NaN box', () => {
    const c = planHrnetCrop({ x1: 50, y1: 10, x2: 50, y2: 90 }, 320, 240);
    near(c.width, 80 * 0.75 * 1.25);
    throwsHead(
      () => planHrnetCrop({ x1: 5, y1: 5, x2: 5, y2: 5 }, 320, 240),
      'BAD_OPTION',
      /has no area/,
    );
    throwsHead(
      () => planHrnetCrop({ x1: NaN, y1: 5, x2: 9, y2: 9 }, 320, 240),
      'BAD_OPTION',
      /non-finite/,
    );
    throwsHead(
      () => planHrnetCrop({ x1: 0, y1: 0, x2: 9, y2: 9 }, 320, 240, { padding: 0 }),
      'BAD_OPTION',
      /padding/,
    );
  });
});

describe('heads/decodeHrnetHeatmaps', () => {
  it('takes the argmax with a quarter-pixel shift toward the larger neighbour, score = peak', () => {
    const [kps] = decodeHrnetHeatmaps(heatmaps(1, 4, fillPeaks), [UNIT]);
    assert.equal(kps!.length, 4);
    assert.deepEqual(kps![0], { x: 10.25 * 4, y: 20.25 * 4, score: kps![0]!.score });
    near(kps![0]!.score, 0.9);
    // x = 1 is on HRNet's border (needs 1 < x < W - 1): no shift
    assert.equal(kps![1]!.x, 4);
    assert.equal(kps![1]!.y, 120);
    // peak <= 0: HRNet zeroes the heatmap coordinates; score is the (negative) peak
    assert.equal(kps![2]!.x, 0);
    assert.equal(kps![2]!.y, 0);
    near(kps![2]!.score, -0.1);
    // equal neighbours in x: no x shift; larger neighbour above: -0.25 in y
    assert.equal(kps![3]!.x, 80);
    assert.equal(kps![3]!.y, 39.75 * 4);
  });

  it('reads NHWC heatmaps identically', () => {
    const t = heatmaps(1, 4, fillPeaks);
    assert.deepEqual(
      decodeHrnetHeatmaps(toNhwc(t), [UNIT], { layout: 'NHWC' }),
      decodeHrnetHeatmaps(t, [UNIT]),
    );
  });

  it('decodes a batch through each crop back to source pixels', () => {
    const boxes = [
      { x1: 100, y1: 100, x2: 160, y2: 300 },
      { x1: 400, y1: 50, x2: 500, y2: 150 },
    ];
    const crops = boxes.map((b) => planHrnetCrop(b, 640, 480));
    // one joint per item, peaked at the heatmap centre cell (24, 32) with symmetric neighbours
    const t = heatmaps(3, 1, (_b, _k, x, y) => (x === 24 && y === 32 ? 1 : 0));
    const res = decodeHrnetHeatmaps(
      t,
      crops.map((c) => c.transform),
    );
    assert.equal(res.length, 2); // the third batch item is padding
    res.forEach((kps, i) => {
      const b = boxes[i]!;
      near(kps[0]!.x, (b.x1 + b.x2) / 2, 1e-6, 'x');
      near(kps[0]!.y, (b.y1 + b.y2) / 2, 1e-6, 'y');
    });
    // the same joint one heatmap cell right moves by crop.width / 48 source pixels
    const t2 = heatmaps(1, 1, (_b, _k, x, y) => (x === 25 && y === 32 ? 1 : 0));
    const [k2] = decodeHrnetHeatmaps(t2, [crops[0]!.transform]);
    near(k2![0]!.x - 130, crops[0]!.width / 48, 1e-6);
  });

  it('treats NaN as never the maximum, and an all-NaN heatmap as score 0 at the corner', () => {
    const t = heatmaps(1, 2, (_b, k, x, y) => (k === 0 ? NaN : x === 5 && y === 5 ? 0.5 : NaN));
    const [kps] = decodeHrnetHeatmaps(t, [UNIT]);
    assert.deepEqual(kps![0], { x: 0, y: 0, score: 0 });
    assert.equal(kps![1]!.x, 20);
    assert.equal(kps![1]!.score, 0.5);
  });

  it('decodes from peaks found elsewhere (the engine), and rejects peaks of another shape', () => {
    const t = heatmaps(1, 2, (_b, k, x, y) => (x === 10 + k && y === 20 ? 0.75 : 0.1));
    // Peaks that disagree with the values: the decoder must take them, not rescan.
    const given = Float64Array.from([0.5, 30 * WH + 7, 0.25, 0]);
    const [kps] = decodeHrnetHeatmaps(t, [UNIT], { peaks: given });
    assert.equal(kps![0]!.score, 0.5);
    assert.equal(kps![0]!.y, 4 * 30);
    assert.deepEqual(kps![1], { x: 0, y: 0, score: 0.25 });
    throwsHead(
      () => decodeHrnetHeatmaps(t, [UNIT], { peaks: new Float64Array(6) }),
      'BAD_SHAPE',
      /3 peaks given for HRNet heatmaps of 1 x 2 joints/,
    );
  });

  it('returns no poses for no crops, and rejects mismatched inputs', () => {
    assert.deepEqual(
      decodeHrnetHeatmaps(
        heatmaps(1, 17, () => 0),
        [],
      ),
      [],
    );
    throwsHead(
      () =>
        decodeHrnetHeatmaps(
          heatmaps(1, 17, () => 0),
          [UNIT, UNIT],
        ),
      'BAD_SHAPE',
      /2 crops but the heatmap batch is 1/,
    );
    throwsHead(
      () =>
        decodeHrnetHeatmaps(
          heatmaps(1, 17, () => 0),
          [UNIT],
          { numKeypoints: 16 },
        ),
      'BAD_SHAPE',
      /hold 17 joints but the model declares 16/,
    );
    throwsHead(
      () => decodeHrnetHeatmaps(f32('h', [1, 17, 0, 48]), [UNIT]),
      'BAD_SHAPE',
      /empty spatial dims/,
    );
    throwsHead(
      () => decodeHrnetHeatmaps(f32('h', [17, 64]), [UNIT]),
      'BAD_SHAPE',
      /expected rank 3 or 4/,
    );
  });
});
