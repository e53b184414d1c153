import { strict as assert } from 'node:assert';
import { COCO_OKS_SIGMAS, keypointAgreement } from '../../../src/quantize/keypointAgreement';
import type { Keypoint } from '../../../src/core/headResults';

const kp = (x: number, y: number): Keypoint => ({ x, y, score: 1 });
const box = { x1: 0, y1: 0, x2: 100, y2: 100 };

describe('keypoint agreement (distance and OKS)', () => {
  it('identical keypoints: distance 0, OKS 1', () => {
    const a = Array.from({ length: 17 }, (_, i) => kp(i, 2 * i));
    assert.deepEqual(keypointAgreement(a, a, box), { meanDistancePx: 0, oks: 1 });
  });

  it('a 3-4-5 shift of every keypoint: distance 5, OKS from the COCO formula', () => {
    const a = Array.from({ length: 17 }, () => kp(50, 50));
    const b = Array.from({ length: 17 }, () => kp(53, 54));
    const r = keypointAgreement(a, b, box);
    assert.equal(r.meanDistancePx, 5);
    // exp(-d^2 / (2 * area * (2 sigma)^2)), area 100 * 100.
    const expected =
      COCO_OKS_SIGMAS.reduce((s, sigma) => s + Math.exp(-25 / (2 * 10_000 * (2 * sigma) ** 2)), 0) /
      17;
    assert.ok(Math.abs(r.oks - expected) < 1e-12, `${r.oks} vs ${expected}`);
    assert.ok(r.oks > 0 && r.oks < 1);
  });

  it('the same error counts less on a bigger person', () => {
    const a = Array.from({ length: 17 }, () => kp(50, 50));
    const b = Array.from({ length: 17 }, () => kp(60, 50));
    const small = keypointAgreement(a, b, box).oks;
    const big = keypointAgreement(a, b, { x1: 0, y1: 0, x2: 400, y2: 400 }).oks;
    assert.ok(big > small, `${big} > ${small}`);
  });

  it('non-COCO keypoint sets use one sigma; no keypoints agree trivially', () => {
    const r = keypointAgreement([kp(0, 0), kp(0, 0)], [kp(3, 4), kp(0, 0)], box);
    assert.equal(r.meanDistancePx, 2.5);
    assert.deepEqual(keypointAgreement([], [], box), { meanDistancePx: 0, oks: 1 });
  });
});
