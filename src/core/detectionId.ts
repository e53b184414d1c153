import type { Detection } from './headResults';

/**
 * The id a detection goes out with (Detection2D.id, and its pixels in the instance image): its
 * track id when the node tracks, else its 1-based position in the frame's list.
 */
export function detectionId(d: Detection, index: number): number {
  return d.trackId ?? index + 1;
}
