import { COCO_KEYPOINT_NAMES, COCO_SKELETON } from '../heads/cocoKeypoints';

/** COCO's 17 keypoints and skeleton, as a manifest's `keypoints`. */
export function cocoManifestKeypoints(): { names: string[]; skeleton: [number, number][] } {
  return {
    names: [...COCO_KEYPOINT_NAMES],
    skeleton: COCO_SKELETON.map(([a, b]): [number, number] => [a, b]),
  };
}
