import { boxIou } from '../core/boxIou';
import type { Detection } from '../core/headResults';

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
