/**
 * What a pose pipeline's keypoints are on the wire (parameter keypoint_set): coco17, the COCO
 * keypoints picked by name from a model that has more; model, the model's own order.
 */
export const KEYPOINT_SETS = ['coco17', 'model'] as const;
export type KeypointSet = (typeof KEYPOINT_SETS)[number];
