import * as assert from 'node:assert/strict';
import { LatencyClock, RESYNC_MS, type ClockNode } from '../../../src/ros/latencyClock';

/** A node whose ROS clock is `rosNs`, counting its reads; performance.now() is `mono`. */
function fakeNode(rosNs: () => bigint, simulated: () => boolean): ClockNode & { reads: number } {
  const node = {
    reads: 0,
    now() {
      node.reads++;
      const ns = rosNs();
      return {
        secondsAndNanoseconds: { seconds: ns / 1_000_000_000n, nanoseconds: ns % 1_000_000_000n },
      };
    },
    getClock: () => ({ isRosTimeActive: simulated() }),
  };
  return node;
}

describe('LatencyClock: the node clock read once a second, extrapolated between', () => {
  let mono = 0;
  before(() => {
    Object.defineProperty(performance, 'now', { value: () => mono, configurable: true });
  });
  after(() => {
    delete (performance as { now?: unknown }).now; // the prototype's own again
  });

  it('extrapolates with the monotonic clock and reads the node clock again after RESYNC_MS', () => {
    mono = 5000;
    let ros = 1_700_000_000_123_456_789n;
    const node = fakeNode(
      () => ros,
      () => false,
    );
    const clock = new LatencyClock(node);
    assert.ok(Math.abs(clock.nowMs() - (1_700_000_000_123 + 0.456789)) < 1e-3);
    mono += 250.5;
    ros += 999_999_999n; // the ROS clock moved on its own; not read again yet
    assert.equal(node.reads, 1);
    assert.ok(Math.abs(clock.nowMs() - (1_700_000_000_373 + 0.956789)) < 1e-3);
    assert.equal(node.reads, 1);
    // Latency of a stamp 12.5 ms before the first read.
    const stamp = { sec: 1_700_000_000, nanosec: 111_000_000 };
    assert.ok(Math.abs(clock.msSince(stamp) - (12.456789 + 250.5)) < 1e-3);
    mono += RESYNC_MS;
    assert.ok(Math.abs(clock.nowMs() - (1_700_000_001_123 + 0.456788)) < 1e-3); // read again
    assert.equal(node.reads, 2);
  });

  it('reads the node clock on every call under simulated time', () => {
    mono = 0;
    let ros = 42_000_000_000n;
    let simulated = false;
    const node = fakeNode(
      () => ros,
      () => simulated,
    );
    const clock = new LatencyClock(node);
    clock.nowMs();
    simulated = true;
    ros = 43_500_000_000n; // /clock jumped 1.5 s while wall time stood still
    assert.equal(clock.nowMs(), 43_500);
    assert.equal(clock.nowMs(), 43_500);
    assert.equal(node.reads, 3);
  });
});
