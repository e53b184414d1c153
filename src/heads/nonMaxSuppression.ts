import { HeadError } from './headError';

export interface NmsOptions {
  /** A box is suppressed when its IoU with a kept, higher-scoring box is above this (0..1). */
  readonly iouThreshold: number;
  /** At most this many boxes are kept (the highest-scoring survivors). */
  readonly maxDetections: number;
  /** Only boxes of the same class suppress each other (Ultralytics default); else any box does. */
  readonly classAware: boolean;
}

/** Rejects an IoU threshold outside 0..1 or a detection cap that is not an integer >= 0. */
export function checkNmsLimits(iouThreshold: number, maxDetections: number): void {
  if (!(iouThreshold >= 0 && iouThreshold <= 1)) {
    throw new HeadError('BAD_OPTION', `iouThreshold must be in 0..1, got ${iouThreshold}`);
  }
  if (!Number.isInteger(maxDetections) || maxDetections < 0) {
    throw new HeadError(
      'BAD_OPTION',
      `maxDetections must be an integer >= 0, got ${maxDetections}`,
    );
  }
}

/**
 * Greedy non-maximum suppression. `boxes` holds x1, y1, x2, y2 per candidate (any one coordinate
 * system), `scores` one score per candidate, `classIds` one class per candidate (ignored when not
 * class-aware). Returns the indices of kept candidates, best score first; equal scores keep their
 * input order so results are deterministic. NaN scores are never kept.
 */
export function nonMaxSuppression(
  boxes: Float32Array,
  scores: Float32Array,
  classIds: Int32Array,
  options: NmsOptions,
): Int32Array {
  const n = scores.length;
  if (boxes.length !== 4 * n || classIds.length !== n) {
    throw new HeadError(
      'BAD_DATA_LENGTH',
      `NMS needs 4 box values and one class per score: ${boxes.length} box values, ${classIds.length} classes, ${n} scores`,
    );
  }
  const { iouThreshold, maxDetections, classAware } = options;
  checkNmsLimits(iouThreshold, maxDetections);

  const order: number[] = [];
  for (let i = 0; i < n; i++) if (!Number.isNaN(scores[i]!)) order.push(i);
  order.sort((a, b) => scores[b]! - scores[a]! || a - b);

  const kept: number[] = [];
  for (const i of order) {
    if (kept.length >= maxDetections) break;
    const ax1 = boxes[4 * i]!;
    const ay1 = boxes[4 * i + 1]!;
    const ax2 = boxes[4 * i + 2]!;
    const ay2 = boxes[4 * i + 3]!;
    const areaA = Math.max(0, ax2 - ax1) * Math.max(0, ay2 - ay1);
    let suppressed = false;
    for (const k of kept) {
      if (classAware && classIds[k] !== classIds[i]) continue;
      const bx1 = boxes[4 * k]!;
      const by1 = boxes[4 * k + 1]!;
      const bx2 = boxes[4 * k + 2]!;
      const by2 = boxes[4 * k + 3]!;
      const iw = Math.min(ax2, bx2) - Math.max(ax1, bx1);
      const ih = Math.min(ay2, by2) - Math.max(ay1, by1);
      if (iw <= 0 || ih <= 0) continue;
      const inter = iw * ih;
      const union = areaA + Math.max(0, bx2 - bx1) * Math.max(0, by2 - by1) - inter;
      if (union > 0 && inter / union > iouThreshold) {
        suppressed = true;
        break;
      }
    }
    if (!suppressed) kept.push(i);
  }
  return Int32Array.from(kept);
}
