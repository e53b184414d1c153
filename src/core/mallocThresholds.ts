/**
 * The glibc mmap and trim thresholds the engine addon fixes when it loads, in bytes: what the
 * engine reports and what the rclnodejs take window must put back after each take.
 */
export interface MallocThresholds {
  readonly mmapThreshold: number;
  readonly trimThreshold: number;
}
