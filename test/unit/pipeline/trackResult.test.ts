import { strict as assert } from 'node:assert';
import type { Detection, PersonPose } from '../../../src/core/headResults';
import type { PipelineResult } from '../../../src/core/pipelineResult';
import { NO_TIMINGS } from '../../support/stageTimings';
import { carryPersonIds, trackPersons, trackResult } from '../../../src/pipeline/trackResult';
import { ByteTracker } from '../../../src/tracking/byteTracker';
import { BYTETRACK_DEFAULTS } from '../../../src/tracking/trackerOptions';
import { COCO17 } from '../../../src/heads/cocoKeypoints';

const timings = NO_TIMINGS;
const person = (x: number, score = 0.9, trackId?: number): Detection => ({
  box: { x1: x, y1: 0, x2: x + 40, y2: 100 },
  classId: 0,
  score,
  ...(trackId !== undefined ? { trackId } : {}),
});
const poseOf = (d: Detection): PersonPose => ({
  box: d.box,
  classId: 0,
  score: 0.4,
  keypoints: [],
});

describe('pipeline/trackResult', () => {
  it('tracks detections and keeps only those continuing a track', () => {
    const t = new ByteTracker(BYTETRACK_DEFAULTS);
    const r: PipelineResult = {
      task: 'detect',
      detections: [person(0), person(200, 0.3)],
      timings,
    };
    const out = trackResult(r, t);
    assert.equal(out.task, 'detect');
    assert.deepEqual(out.task === 'detect' ? out.detections.map((d) => d.trackId) : [], [1]);
  });

  it('leaves a semantic map alone', () => {
    const r: PipelineResult = {
      task: 'semantic',
      map: { width: 1, height: 1, data: new Uint8Array(1) },
      timings,
    };
    assert.equal(trackResult(r, new ByteTracker(BYTETRACK_DEFAULTS)), r);
  });

  it("keeps a tracking detector's ids for the people, else tracks them itself", () => {
    const t = new ByteTracker(BYTETRACK_DEFAULTS);
    const fromDetector = [person(0, 0.9, 12), person(100, 0.35, 5)];
    assert.deepEqual(
      trackPersons(t, fromDetector).map((p) => p.trackId),
      [12, 5],
    );
    assert.deepEqual(
      trackPersons(t, [person(0), person(100)]).map((p) => p.trackId),
      [1, 2],
    );
  });

  it('gives each top-down pose the id of the person it was cropped from', () => {
    const people = [person(0, 0.9, 12), person(100, 0.9, 5)];
    // The pose model skipped the first person (no crop) and returns poses on the very boxes.
    const r: PipelineResult = {
      task: 'pose',
      poses: [poseOf(people[1]!)],
      skeleton: COCO17,
      timings,
    };
    const out = carryPersonIds(r, people);
    assert.deepEqual(out.task === 'pose' ? out.poses.map((p) => [p.trackId, p.score]) : [], [
      [5, 0.4],
    ]);
  });
});
