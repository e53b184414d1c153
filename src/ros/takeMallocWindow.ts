/**
 * The take window of our rclnodejs patch (scripts/setup/patches/rclnodejs-2.2.0-take-malloc-window
 * .patch): while rmw copies a camera frame out of DDS, glibc may serve its frame-sized scratch
 * buffer from the heap instead of a fresh mapping, then the thresholds the engine addon fixed are
 * put back. Without it every 640x480 frame cost ~230 page faults and a munmap (bench:e2e, HTP
 * stand-in: 0.7 ms of CPU per frame, the largest single item). Only a process whose thresholds
 * are fixed and known needs it, so it is opened with exactly those.
 */
import type { MallocThresholds } from '../core/mallocThresholds';
import { rclnodejsBinding } from './rosEnvironment';

type SetTakeMallocWindow = (mmapThreshold?: number, trimThreshold?: number) => boolean;

/**
 * Opens the window restoring `restore` after each take; closes it for null (thresholds not fixed,
 * e.g. chosen by the user through MALLOC_* variables). Returns whether it is open: false also for
 * an rclnodejs built without our patch, which then takes as before.
 */
export function setTakeMallocWindow(restore: MallocThresholds | null): boolean {
  const set = rclnodejsBinding().setTakeMallocWindow as SetTakeMallocWindow | undefined;
  if (typeof set !== 'function') return false;
  return restore === null ? set() : set(restore.mmapThreshold, restore.trimThreshold);
}
