import { stampMs, stampNow, type RosTime } from './rosHeader';

/** What a LatencyClock reads: an rclnodejs node (its clock, and whether that clock is simulated). */
export interface ClockNode {
  now(): { secondsAndNanoseconds: { seconds: bigint; nanoseconds: bigint } };
  getClock(): object;
}

/** How long the node clock is extrapolated with the monotonic clock between two reads. */
export const RESYNC_MS = 1000;

/**
 * A node's ROS time in milliseconds for per-frame latency figures (image stamp -> publish), read
 * every frame of every pipeline. rclnodejs' clock read is a native call, a BigInt and two BigInt
 * divisions (~20 us here, ~1 % of a pipeline's CPU at 30 Hz), so the node clock is read at most
 * once a second and extrapolated with performance.now() in between: system and ROS time advance
 * at the same rate, apart from NTP's slewing, microseconds a second. Under simulated time (ROS time
 * active: the clock follows /clock, which wall time says nothing about) every call reads it.
 */
export class LatencyClock {
  private baseMs = 0;
  private readAt = -Infinity;

  constructor(private readonly node: ClockNode) {}

  nowMs(): number {
    const t = performance.now();
    if (t - this.readAt >= RESYNC_MS || this.simulated()) {
      this.baseMs = stampMs(stampNow(this.node));
      this.readAt = t;
      return this.baseMs;
    }
    return this.baseMs + (t - this.readAt);
  }

  /** Milliseconds from `stamp` to now on the node's clock. */
  msSince(stamp: RosTime): number {
    return this.nowMs() - stampMs(stamp);
  }

  private simulated(): boolean {
    return (this.node.getClock() as { isRosTimeActive?: boolean }).isRosTimeActive === true;
  }
}
