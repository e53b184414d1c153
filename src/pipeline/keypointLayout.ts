import type { ModelManifest } from '../config/modelManifest';
import type { KeypointSet } from '../config/keypointSets';
import type { Skeleton } from '../core/pipelineResult';
import { BLAZEPOSE_KEYPOINT_NAMES } from '../families/blazepose/blazeposeKeypoints';
import { COCO17, COCO_KEYPOINT_NAMES } from '../heads/cocoKeypoints';

/** The keypoints a pose pipeline publishes: their skeleton, and which model outputs they are. */
export interface KeypointLayout {
  readonly skeleton: Skeleton;
  readonly names: readonly string[];
  /** Model keypoint index of each published keypoint; undefined: all, in the model's order. */
  readonly pick?: readonly number[];
  /** Why `coco17` was asked for and the model's own order is published (logged once). */
  readonly note?: string;
}

function sameNames(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((n, i) => n === b[i]);
}

/** The name PersonPose.skeleton carries for a model's own keypoint order. */
function ownSkeletonName(m: ModelManifest, names: readonly string[]): string {
  if (sameNames(names, COCO_KEYPOINT_NAMES)) return 'coco17';
  if (sameNames(names, BLAZEPOSE_KEYPOINT_NAMES)) return 'blazepose33';
  return m.name;
}

/**
 * What a pose model's keypoints become on the wire. `coco17` (the default) keeps consumers of
 * COCO-17 poses (HRNet, YOLOv8-pose, rviz and Foxglove layouts) working with any model that has
 * the 17 COCO points among its own, found by name (BlazePose's 33 include them); a model lacking
 * some publishes its own order, with a note saying so. `model` publishes the model's own order.
 */
export function keypointLayout(m: ModelManifest, set: KeypointSet): KeypointLayout {
  const names = m.keypoints?.names ?? [];
  const own: KeypointLayout = {
    skeleton: { name: ownSkeletonName(m, names), limbs: m.keypoints?.skeleton ?? [] },
    names,
  };
  // Only pose models have keypoints to publish.
  if (m.task !== 'pose' || set === 'model' || sameNames(names, COCO_KEYPOINT_NAMES)) return own;
  const pick = COCO_KEYPOINT_NAMES.map((n) => names.indexOf(n));
  const missing = COCO_KEYPOINT_NAMES.filter((_, i) => pick[i]! < 0);
  if (missing.length > 0) {
    return {
      ...own,
      note: `keypoint_set coco17: ${m.name} has no keypoint named ${missing.join(', ')}; publishing its own ${names.length} keypoints as skeleton '${own.skeleton.name}'`,
    };
  }
  return {
    skeleton: COCO17,
    names: COCO_KEYPOINT_NAMES,
    pick,
  };
}
