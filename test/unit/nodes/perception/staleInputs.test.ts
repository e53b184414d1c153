import * as assert from 'node:assert/strict';
import { StaleInputs, WatchedInput } from '../../../../src/nodes/perception/staleInputs';

/** An input whose newest message time the test sets. */
function input(what: string, topic: string): WatchedInput & { at: number | undefined } {
  const i = {
    what,
    topic,
    at: undefined as number | undefined,
    lastReceivedAt: () => i.at,
  };
  return i;
}

describe('nodes/staleInputs', () => {
  it('a topic never heard goes stale a timeout after activation, once, and recovers with a message', () => {
    const image = input('image', '/cam/image');
    const w = new StaleInputs([image], 1000);
    assert.deepEqual(w.update(2999, 2), { stale: [], wentStale: [], resumed: [] });
    const first = w.update(3000, 2);
    assert.deepEqual(first.stale, [{ what: 'image', topic: '/cam/image', silentS: 2 }]);
    assert.deepEqual(first.wentStale, first.stale);
    // Still silent: stale, but no second "went stale".
    const later = w.update(5500, 2);
    assert.deepEqual(later.stale, [{ what: 'image', topic: '/cam/image', silentS: 4.5 }]);
    assert.deepEqual(later.wentStale, []);
    assert.equal(StaleInputs.message(later.stale[0]!), 'no image on /cam/image for 4.5 s');
    // A message: resumed once (the gap at most: from activation to this update), then quiet.
    image.at = 5600;
    const back = w.update(6000, 2);
    assert.deepEqual(back, {
      stale: [],
      wentStale: [],
      resumed: [{ what: 'image', topic: '/cam/image', silentS: 5 }],
    });
    assert.deepEqual(w.update(6500, 2), { stale: [], wentStale: [], resumed: [] });
  });

  it('measures silence from the newest message, per topic', () => {
    const image = input('image', '/cam/image');
    const depth = input('depth image', '/cam/depth');
    const info = input('CameraInfo', '/cam/camera_info');
    const w = new StaleInputs([image, depth, info], 0);
    image.at = 10_000;
    depth.at = 9_000;
    info.at = 10_000;
    const r = w.update(11_500, 2);
    assert.deepEqual(r.stale, [{ what: 'depth image', topic: '/cam/depth', silentS: 2.5 }]);
    // A message older than activation counts from activation (another pipeline's, or an earlier
    // activation's, on a shared subscription).
    const late = new StaleInputs([input('image', '/x')], 20_000);
    const old = input('image', '/y');
    old.at = 1;
    const both = new StaleInputs([old], 20_000);
    assert.deepEqual(late.update(21_000, 2).stale, []);
    assert.deepEqual(both.update(21_000, 2).stale, []);
    assert.equal(both.update(22_000, 2).stale.length, 1);
  });

  it('a timeout changed live applies at the next update; 0 turns the check off without a "resumed"', () => {
    const image = input('image', '/cam/image');
    const w = new StaleInputs([image], 0);
    image.at = 0;
    assert.equal(w.update(1500, 2).stale.length, 0);
    assert.equal(w.update(1500, 1).wentStale.length, 1);
    assert.deepEqual(w.update(1600, 0), { stale: [], wentStale: [], resumed: [] });
    // On again: stale again, reported again.
    assert.equal(w.update(1700, 1).wentStale.length, 1);
  });
});
