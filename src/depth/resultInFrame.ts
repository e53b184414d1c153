import { type RigidTransform, transformPoint } from '../transforms/rigidTransform';
import type { Vec3 } from './placeInSpace';
import type { SpatialResult } from './placeResult';

function moved(t: RigidTransform, v: Vec3): Vec3 {
  const p = transformPoint(t, { x: v[0], y: v[1], z: v[2] });
  return [p.x, p.y, p.z];
}

/**
 * A frame's result placed in space, moved from the camera's optical frame into another frame
 * (`opticalToTarget`: the optical frame's pose in the target, from the transform tree at the
 * image's stamp). Box centres and placed keypoints move; a box keeps its size and takes the
 * camera's rotation as its orientation (its axes are the camera's); keypoints that were not placed
 * stay unplaced at the origin.
 */
export function resultInFrame(r: SpatialResult, opticalToTarget: RigidTransform): SpatialResult {
  return {
    withoutDepth: r.withoutDepth,
    detections: r.detections.map((d) => ({
      ...d,
      centre: moved(opticalToTarget, d.centre),
      orientation: opticalToTarget.rotation,
    })),
    poses: r.poses.map((p) => ({
      ...p,
      keypoints: p.keypoints.map((k) =>
        k.valid ? { ...k, position: moved(opticalToTarget, k.position) } : k,
      ),
    })),
  };
}
