import type { Box, Detection } from '../core/headResults';

/** Intersection over union of two corner boxes; 0 when either has no area. */
export function boxIou(a: Box, b: Box): number {
  const w = Math.min(a.x2, b.x2) - Math.max(a.x1, b.x1);
  const h = Math.min(a.y2, b.y2) - Math.max(a.y1, b.y1);
  if (w <= 0 || h <= 0) return 0;
  const inter = w * h;
  const union = (a.x2 - a.x1) * (a.y2 - a.y1) + (b.x2 - b.x1) * (b.y2 - b.y1) - inter;
  return union > 0 ? inter / union : 0;
}

export interface BoxMatch {
  /** Index into the reference (FP32) list. */
  readonly reference: number;
  /** Index into the candidate (INT8) list. */
  readonly candidate: number;
  readonly iou: number;
}

/** The IoU a pair needs to count as the same object (the COCO AP50 criterion). */
export const MATCH_IOU = 0.5;

/**
 * One-to-one matching of candidate to reference detections of the same class with IoU >= minIou,
 * best IoU first (greedy on the IoU-sorted pairs; ties keep reference order, so it is
 * deterministic). Each detection is in at most one match.
 */
export function matchDetections(
  reference: readonly Detection[],
  candidate: readonly Detection[],
  minIou = MATCH_IOU,
): BoxMatch[] {
  const pairs: BoxMatch[] = [];
  reference.forEach((r, i) =>
    candidate.forEach((c, j) => {
      if (r.classId !== c.classId) return;
      const iou = boxIou(r.box, c.box);
      if (iou >= minIou) pairs.push({ reference: i, candidate: j, iou });
    }),
  );
  pairs.sort((a, b) => b.iou - a.iou || a.reference - b.reference || a.candidate - b.candidate);
  const usedRef = new Set<number>();
  const usedCand = new Set<number>();
  const matches: BoxMatch[] = [];
  for (const p of pairs) {
    if (usedRef.has(p.reference) || usedCand.has(p.candidate)) continue;
    usedRef.add(p.reference);
    usedCand.add(p.candidate);
    matches.push(p);
  }
  return matches.sort((a, b) => a.reference - b.reference);
}
