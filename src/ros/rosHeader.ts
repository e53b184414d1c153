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
