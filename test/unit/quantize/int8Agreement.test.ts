import { strict as assert } from 'node:assert';
import { Int8Agreement } from '../../../src/quantize/int8Agreement';
import {
  inapplicableThresholds,
  thresholdFailures,
} from '../../../src/quantize/agreementThresholds';
import { reportRows } from '../../../src/quantize/validationReport';
import type { PipelineResult } from '../../../src/core/pipelineResult';
import { NO_TIMINGS } from '../../support/stageTimings';
import type { Detection, PersonPose } from '../../../src/core/headResults';
import { COCO17 } from '../../../src/heads/cocoKeypoints';

const timings = NO_TIMINGS;
const det = (x: number, score: number, classId = 0): Detection => ({
  box: { x1: x, y1: 0, x2: x + 10, y2: 10 },
  classId,
  score,
});
const detect = (...detections: Detection[]): PipelineResult => ({
  task: 'detect',
  detections,
  timings,
});

describe('INT8 vs FP32 agreement', () => {
  it('detect: match rate over max(fp32, int8) per image, IoU and score drift of matches', () => {
    const a = new Int8Agreement('detect');
    // Image 1: both boxes found, one score moved by 0.2, the other by 0.1.
    a.add(detect(det(0, 0.9), det(50, 0.5)), detect(det(0, 0.7), det(50, 0.6)));
    // Image 2: INT8 adds a box of another class and misses nothing.
    a.add(detect(det(0, 0.8)), detect(det(0, 0.8), det(0, 0.4, 1)));
    // Image 3: INT8 misses the only box.
    a.add(detect(det(0, 0.3)), detect());
    const r = a.report();
    assert.equal(r.images, 3);
    const d = r.detections!;
    assert.deepEqual([d.fp32, d.int8, d.matched], [4, 4, 3]);
    assert.equal(d.matchRate, 3 / (2 + 2 + 1));
    assert.equal(d.meanIou, 1);
    assert.ok(Math.abs(d.maxScoreDrift! - 0.2) < 1e-12);
    assert.ok(Math.abs(d.meanScoreDrift! - 0.1) < 1e-12);
  });

  it('nothing found by either precision: rate 1, matched metrics n/a', () => {
    const a = new Int8Agreement('detect');
    a.add(detect(), detect());
    const r = a.report();
    assert.equal(r.detections!.matchRate, 1);
    assert.equal(r.detections!.meanIou, null);
    assert.deepEqual(thresholdFailures(r, { minMeanIou: 0.5 }), [
      '--min-box-iou 0.5: nothing matched to measure',
    ]);
  });

  it('pose: keypoints of matched persons; semantic: mIoU of label maps', () => {
    const person = (dx: number): PersonPose => ({
      ...det(0, 0.9),
      keypoints: Array.from({ length: 17 }, () => ({ x: 5 + dx, y: 5, score: 1 })),
    });
    const p = new Int8Agreement('pose');
    p.add(
      { task: 'pose', poses: [person(0)], skeleton: COCO17, timings },
      { task: 'pose', poses: [person(2)], skeleton: COCO17, timings },
    );
    const pr = p.report();
    assert.equal(pr.keypoints!.persons, 1);
    assert.equal(pr.keypoints!.meanDistancePx, 2);
    assert.ok(pr.keypoints!.meanOks! < 1);

    const s = new Int8Agreement('semantic');
    const map = (...l: number[]) => ({ width: l.length, height: 1, data: Uint8Array.from(l) });
    s.add(
      { task: 'semantic', map: map(0, 0, 1, 1), timings },
      { task: 'semantic', map: map(0, 0, 1, 0), timings },
    );
    // Class 0: inter 2, union 3; class 1: inter 1, union 2.
    assert.ok(Math.abs(s.report().semantic!.meanIou - (2 / 3 + 1 / 2) / 2) < 1e-12);
    assert.throws(() => s.add(detect(), detect()), /expected semantic results/);
  });

  it('thresholds: each miss is one line naming the flag; flags of other tasks are found', () => {
    const a = new Int8Agreement('detect');
    a.add(detect(det(0, 0.9), det(50, 0.5)), detect(det(0, 0.5)));
    const r = a.report();
    assert.deepEqual(thresholdFailures(r, { minMatchRate: 0.4, maxScoreDrift: 0.5 }), []);
    assert.deepEqual(thresholdFailures(r, { minMatchRate: 0.9, maxScoreDrift: 0.1 }), [
      '--min-match-rate 0.9: got 0.500',
      '--max-score-drift 0.1: got 0.400',
    ]);
    assert.deepEqual(inapplicableThresholds({ minMiou: 0.9, minMatchRate: 0.5 }, 'detect'), [
      '--min-miou',
    ]);
    assert.deepEqual(inapplicableThresholds({ minOks: 0.5 }, 'pose'), []);
    const rows = reportRows(r, { minMatchRate: 0.9 });
    const match = rows.find((row) => row.metric.startsWith('matched'));
    assert.deepEqual(match, {
      metric: 'matched (IoU >= 0.5, same class)',
      value: '1, rate 0.500',
      limit: '>= 0.9 (--min-match-rate)',
    });
  });
});
