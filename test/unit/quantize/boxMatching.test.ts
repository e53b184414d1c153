import { strict as assert } from 'node:assert';
import { boxIou } from '../../../src/core/boxIou';
import { matchDetections } from '../../../src/quantize/boxMatching';
import type { Detection } from '../../../src/core/headResults';

const det = (
  x1: number,
  y1: number,
  x2: number,
  y2: number,
  classId = 0,
  score = 0.9,
): Detection => ({
  box: { x1, y1, x2, y2 },
  classId,
  score,
});

describe('box matching for INT8 vs FP32', () => {
  it('computes IoU of corner boxes (known answers)', () => {
    assert.equal(boxIou(det(0, 0, 10, 10).box, det(0, 0, 10, 10).box), 1);
    // 10x10 vs the same shifted by 5 in x: overlap 50, union 150.
    assert.equal(boxIou(det(0, 0, 10, 10).box, det(5, 0, 15, 10).box), 1 / 3);
    assert.equal(boxIou(det(0, 0, 10, 10).box, det(10, 0, 20, 10).box), 0, 'touching edges');
    assert.equal(boxIou(det(0, 0, 0, 10).box, det(0, 0, 0, 10).box), 0, 'no area');
  });

  it('matches one to one at IoU >= 0.5 and same class, best IoU first', () => {
    const ref = [det(0, 0, 10, 10), det(100, 100, 110, 110)];
    // Candidate 0 overlaps ref 0 at IoU 0.81 (9x9 inside 10x10), candidate 1 exactly.
    const cand = [det(0, 0, 9, 9), det(0, 0, 10, 10)];
    assert.deepEqual(matchDetections(ref, cand), [{ reference: 0, candidate: 1, iou: 1 }]);
  });

  it('does not match across classes or below IoU 0.5', () => {
    assert.deepEqual(matchDetections([det(0, 0, 10, 10, 0)], [det(0, 0, 10, 10, 1)]), []);
    // IoU 1/3.
    assert.deepEqual(matchDetections([det(0, 0, 10, 10)], [det(5, 0, 15, 10)]), []);
    // IoU exactly 0.5 counts (the criterion is >=): 10x10 vs 10x20 containing it.
    assert.equal(matchDetections([det(0, 0, 10, 10)], [det(0, 0, 10, 20)]).length, 1);
  });
});
