import { strict as assert } from 'node:assert';
import {
  crossingScene,
  noisyScene,
  occlusionScene,
  runScene,
  Scene,
  stopAndGoScene,
} from '../../support/trackingScenes';
import type { Detection } from '../../../src/core/headResults';
import { ByteTracker } from '../../../src/tracking/byteTracker';
import { BYTETRACK_DEFAULTS } from '../../../src/tracking/trackerOptions';
import { MAX_TRACK_ID, TrackIdPool } from '../../../src/tracking/trackIdPool';

const PERSON = 0;
const CAR = 2;

function det(cx: number, score: number, classId = PERSON, cy = 100): Detection {
  return { box: { x1: cx - 25, y1: cy - 60, x2: cx + 25, y2: cy + 60 }, classId, score };
}

const ids = (out: readonly { trackId: number }[]) => out.map((d) => d.trackId);

describe('tracking/byteTracker', () => {
  it('on the first frame gives ids to detections above the new-track threshold only', () => {
    const t = new ByteTracker(BYTETRACK_DEFAULTS);
    const out = t.update([det(100, 0.9), det(300, 0.55), det(500, 0.3)]);
    assert.deepEqual(ids(out), [1]);
    assert.equal(out[0]!.score, 0.9);
  });

  it('publishes a later object from its second frame on, and never a one-frame detection', () => {
    const t = new ByteTracker(BYTETRACK_DEFAULTS);
    t.update([det(100, 0.9)]);
    // A new object (tentative) and a false positive, both high.
    assert.deepEqual(
      ids(t.update([det(100, 0.9), det(400, 0.9), det(700, 0.95, PERSON, 400)])),
      [1],
    );
    const out = t.update([det(100, 0.9), det(404, 0.9)]);
    assert.deepEqual(ids(out), [1, 2]);
    // The false positive's tentative track is gone: its id was never used.
    assert.ok(t.trackViews.every((v) => v.id <= 2));
  });

  it('counts its live tracks by state (the diagnostics tracks_* values)', () => {
    const t = new ByteTracker(BYTETRACK_DEFAULTS);
    assert.deepEqual(t.counts, { tentative: 0, tracked: 0, lost: 0 });
    t.update([det(100, 0.9)]);
    // A second object appears (tentative until its second frame).
    t.update([det(100, 0.9), det(400, 0.9)]);
    assert.deepEqual(t.counts, { tentative: 1, tracked: 1, lost: 0 });
    t.update([det(100, 0.9), det(404, 0.9)]);
    assert.deepEqual(t.counts, { tentative: 0, tracked: 2, lost: 0 });
    // Both vanish: lost, kept for the buffer.
    t.update([]);
    assert.deepEqual(t.counts, { tentative: 0, tracked: 0, lost: 2 });
  });

  it('keeps a track through low scores (second stage) but never starts one from them', () => {
    const t = new ByteTracker(BYTETRACK_DEFAULTS);
    t.update([det(100, 0.9)]);
    for (let f = 1; f <= 5; f++) {
      const out = t.update([det(100 + 3 * f, 0.3), det(600, 0.3), det(600, 0.05, CAR)]);
      assert.deepEqual(ids(out), [1], `frame ${f}`);
      assert.equal(out[0]!.score, 0.3);
    }
  });

  it('keeps a lost track for `buffer` frames, then removes it', () => {
    const gap = (frames: number, buffer: number): number[] => {
      const t = new ByteTracker({ ...BYTETRACK_DEFAULTS, buffer });
      for (let f = 0; f < 10; f++) t.update([det(100 + 4 * f, 0.9)]);
      for (let f = 10; f < 10 + frames; f++) {
        assert.deepEqual(t.update([]), []);
        assert.equal(t.trackViews[0]?.state, f - 9 <= buffer ? 'lost' : undefined);
      }
      const f = 10 + frames;
      t.update([det(100 + 4 * f, 0.9)]);
      return ids(t.update([det(100 + 4 * (f + 1), 0.9)]));
    };
    assert.deepEqual(gap(10, 30), [1]);
    assert.deepEqual(gap(30, 30), [1]);
    assert.deepEqual(gap(31, 30), [2]);
    assert.deepEqual(gap(5, 3), [2]);
  });

  it('a lost track is found again only by a high detection', () => {
    const t = new ByteTracker(BYTETRACK_DEFAULTS);
    for (let f = 0; f < 5; f++) t.update([det(100, 0.9)]);
    t.update([]);
    assert.deepEqual(ids(t.update([det(100, 0.3)])), []);
    assert.deepEqual(ids(t.update([det(100, 0.7)])), [1]);
  });

  it('tracks per class: a person is never matched to a car track', () => {
    const t = new ByteTracker(BYTETRACK_DEFAULTS);
    for (let f = 0; f < 5; f++) {
      assert.deepEqual(ids(t.update([det(100, 0.9, CAR), det(102, 0.8, PERSON)])), [1, 2]);
    }
    // The person leaves; a car-shaped detection of class person appears where the car was.
    t.update([det(100, 0.9, PERSON)]);
    assert.deepEqual(ids(t.update([det(100, 0.9, PERSON)])), [2]);
    assert.equal(t.trackViews.find((v) => v.id === 1)?.state, 'lost');
  });

  it('applies new thresholds from the next frame and keeps its tracks', () => {
    const t = new ByteTracker(BYTETRACK_DEFAULTS);
    t.update([det(100, 0.9)]);
    t.setOptions({ ...BYTETRACK_DEFAULTS, lowThreshold: 0.4 });
    // 0.3 is now below the low threshold: ignored, the track is lost.
    assert.deepEqual(ids(t.update([det(100, 0.3)])), []);
    assert.deepEqual(ids(t.update([det(100, 0.9)])), [1]);
  });

  it('ignores detections it cannot track (non-finite or empty boxes)', () => {
    const t = new ByteTracker(BYTETRACK_DEFAULTS);
    const bad: Detection[] = [
      { box: { x1: NaN, y1: 0, x2: 10, y2: 10 }, classId: PERSON, score: 0.9 },
      { box: { x1: 5, y1: 5, x2: 5, y2: 20 }, classId: PERSON, score: 0.9 },
      det(300, 0.9),
    ];
    assert.deepEqual(ids(t.update(bad)), [1]);
  });

  it('keeps extra fields of the detections it returns (masks, keypoints)', () => {
    const t = new ByteTracker(BYTETRACK_DEFAULTS);
    const [out] = t.update([{ ...det(100, 0.9), keypoints: [{ x: 1, y: 2, score: 1 }] }]);
    assert.deepEqual(out?.keypoints, [{ x: 1, y: 2, score: 1 }]);
  });

  describe('synthetic scenes (ByteTrack defaults)', () => {
    // What ByteTrack is built to do, so what we require of it:
    //  - constant-velocity motion through a crossing, an occlusion shorter than the buffer and a
    //    stop: the Kalman prediction keeps the predicted box on its object, so no ID switch;
    //  - IDF1 is bounded by recall (only detections that continue a track are output), so it
    //    loses only the frames a detector misses or a partly hidden object cannot be re-found.
    const check = (scene: Scene, minIdf1: number) => {
      const r = runScene(scene, BYTETRACK_DEFAULTS);
      assert.equal(r.score.idSwitches, 0, `${scene.name}: ${JSON.stringify(r.score)}`);
      assert.ok(r.score.idf1 >= minIdf1, `${scene.name}: ${JSON.stringify(r.score)}`);
      return r;
    };

    it('crossing paths at distinct speeds: 0 ID switches, IDF1 >= 0.9', () => {
      // The one behind reappears as a low detection: a lost track waits for a high one (as in
      // ByteTrack), which costs a few frames, so 0.9 rather than 1.
      check(crossingScene(), 0.9);
    });

    it('a 12-frame occlusion: 0 ID switches, IDF1 >= 0.95', () => {
      check(occlusionScene(), 0.95);
    });

    it('stop and go: 0 ID switches, IDF1 >= 0.95', () => {
      check(stopAndGoScene(), 0.95);
    });

    it('noisy detector with misses and false positives: 0 ID switches, IDF1 >= 0.85', () => {
      // With 10 % misses and well-separated lanes, IDF1 <= 2 * 0.9 / 1.9 = 0.947; single-frame
      // false positives never start a track, so they reach the output only by landing on a
      // tracked person whose own detection is missing.
      for (const seed of [7, 11, 23]) {
        const scene = noisyScene(seed);
        const r = check(scene, 0.85);
        assert.ok(r.falsePositivesOut <= 0.05 * scene.falsePositives.size, `seed ${seed}`);
      }
    });
  });
});

describe('tracking/trackIdPool', () => {
  it('counts up from 1, wraps after 65535 and skips ids still live', () => {
    const p = new TrackIdPool();
    assert.equal(p.take(), 1);
    assert.equal(p.take(), 2);
    for (let i = 3; i <= MAX_TRACK_ID; i++) p.take();
    assert.equal(p.take(), undefined);
    p.release(2);
    assert.equal(p.take(), 2);
    p.release(1);
    p.release(7);
    assert.equal(p.take(), 7);
    assert.equal(p.take(), 1);
  });
});
