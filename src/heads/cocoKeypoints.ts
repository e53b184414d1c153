import type { Skeleton } from '../core/pipelineResult';

/** The 17 COCO person keypoints, in model output order. */
// prettier-ignore
export const COCO_KEYPOINT_NAMES: readonly string[] = Object.freeze([
  'nose', 'left_eye', 'right_eye', 'left_ear', 'right_ear', 'left_shoulder', 'right_shoulder',
  'left_elbow', 'right_elbow', 'left_wrist', 'right_wrist', 'left_hip', 'right_hip', 'left_knee',
  'right_knee', 'left_ankle', 'right_ankle',
]);

// COCO's own limb list, 1-based keypoint numbers.
// prettier-ignore
const SKELETON_ONE_BASED = [
  [16, 14], [14, 12], [17, 15], [15, 13], [12, 13], [6, 12], [7, 13], [6, 7], [6, 8], [7, 9],
  [8, 10], [9, 11], [2, 3], [1, 2], [1, 3], [2, 4], [3, 5], [4, 6], [5, 7],
] as const;

/**
 * The 19 COCO skeleton limbs as pairs of keypoint indices, 0-BASED (16-14 in COCO's list is
 * [15, 13] here). Legs, hips, torso, arms, then face.
 */
export const COCO_SKELETON: readonly (readonly [number, number])[] = Object.freeze(
  SKELETON_ONE_BASED.map(([a, b]) => Object.freeze([a - 1, b - 1] as const)),
);

/** COCO-17 as a pose result's skeleton: PersonPose.skeleton 'coco17' and its limbs. */
export const COCO17: Skeleton = Object.freeze({ name: 'coco17', limbs: COCO_SKELETON });
