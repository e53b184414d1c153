import type { Box, Keypoint } from '../core/headResults';

/**
 * COCO's per-keypoint OKS constants (the published sigmas of the 17 person keypoints, nose to
 * ankles): how far annotators disagree on each joint, relative to the person's size.
 */
// prettier-ignore
export const COCO_OKS_SIGMAS: readonly number[] = Object.freeze([
  0.026, 0.025, 0.025, 0.035, 0.035, 0.079, 0.079, 0.072, 0.072, 0.062, 0.062, 0.107, 0.107,
  0.087, 0.087, 0.089, 0.089,
]);

/** For keypoint sets other than COCO's 17: one middle-of-the-range sigma for every keypoint. */
export const DEFAULT_OKS_SIGMA = 0.07;

export interface KeypointAgreement {
  /** Mean Euclidean distance between corresponding keypoints, source pixels. */
  readonly meanDistancePx: number;
  /** Object keypoint similarity of the candidate against the reference, 0..1. */
  readonly oks: number;
}

/**
 * Compares two predictions of one person's keypoints (same order). OKS follows COCO:
 * mean over keypoints of exp(-d^2 / (2 s^2 k^2)), with s^2 the object's area, here the reference
 * box area (no segment area exists for a prediction), and k = 2 sigma. Every keypoint counts:
 * both sides are predictions, so there is no ground-truth visibility to filter on.
 */
export function keypointAgreement(
  reference: readonly Keypoint[],
  candidate: readonly Keypoint[],
  referenceBox: Box,
): KeypointAgreement {
  const n = Math.min(reference.length, candidate.length);
  if (n === 0) return { meanDistancePx: 0, oks: 1 };
  const sigmas = n === COCO_OKS_SIGMAS.length ? COCO_OKS_SIGMAS : undefined;
  // A degenerate box would make every distance infinitely large: floor the area at one pixel.
  const area = Math.max(
    1,
    (referenceBox.x2 - referenceBox.x1) * (referenceBox.y2 - referenceBox.y1),
  );
  let distSum = 0;
  let oksSum = 0;
  for (let i = 0; i < n; i++) {
    const dx = candidate[i]!.x - reference[i]!.x;
    const dy = candidate[i]!.y - reference[i]!.y;
    const d2 = dx * dx + dy * dy;
    const k = 2 * (sigmas?.[i] ?? DEFAULT_OKS_SIGMA);
    distSum += Math.sqrt(d2);
    oksSum += Math.exp(-d2 / (2 * area * k * k));
  }
  return { meanDistancePx: distSum / n, oks: oksSum / n };
}
