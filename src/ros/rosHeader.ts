/** std_msgs/Header: copied whole from the input image onto every output. */
export interface RosTime {
  /** Seconds since the epoch (int32). */
  readonly sec: number;
  /** Nanoseconds within the second, 0..999999999. */
  readonly nanosec: number;
}

export interface RosHeader {
  readonly stamp: RosTime;
  readonly frameId: string;
}

/** A stamp as milliseconds since the epoch (a double: sub-microsecond for today's dates). */
export function stampMs(t: RosTime): number {
  return t.sec * 1000 + t.nanosec / 1e6;
}

/** The node's clock now, as a header stamp (honours use_sim_time like every ROS clock). */
export function stampNow(node: {
  now(): { secondsAndNanoseconds: { seconds: bigint; nanoseconds: bigint } };
}): RosTime {
  const { seconds, nanoseconds } = node.now().secondsAndNanoseconds;
  return { sec: Number(seconds), nanosec: Number(nanoseconds) };
}
