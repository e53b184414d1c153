/**
 * 2D results placed in space: a detection's box becomes a 3D box (centre back-projected at the
 * object's depth, extent from the box edges at that depth and the depth spread), a keypoint a
 * point. All in the camera's optical frame (x right, y down, z forward), metres.
 */
import type { Box, Keypoint } from '../core/headResults';
import type { CameraModel } from './cameraModel';
import { ColourToDepth, DepthRange, ObjectDepth, pointDepth, rectSamples } from './objectDepth';

export type Vec3 = readonly [number, number, number];

export interface PlacedBox {
  readonly centre: Vec3;
  /** Full extent along x, y, z, metres. */
  readonly size: Vec3;
}

/**
 * The 3D box of a 2D box at depth `d`. `camera` is the colour camera at the colour image's size.
 * The centre is the back-projection of the box centre at the surface's median depth (what the
 * camera sees of the object, not a guess at its hidden back half); width and height are the
 * distances between the back-projected edge midpoints at that depth (distortion included); the
 * depth extent is the surface's 10th-90th percentile spread.
 */
export function placeBox(camera: CameraModel, box: Box, d: ObjectDepth): PlacedBox {
  const u = (box.x1 + box.x2) / 2;
  const v = (box.y1 + box.y2) / 2;
  const z = d.depth;
  const centre = camera.backProject(u, v, z);
  const left = camera.backProject(box.x1, v, z);
  const right = camera.backProject(box.x2, v, z);
  const top = camera.backProject(u, box.y1, z);
  const bottom = camera.backProject(u, box.y2, z);
  return {
    centre,
    size: [Math.abs(right[0] - left[0]), Math.abs(bottom[1] - top[1]), Math.max(0, d.far - d.near)],
  };
}

export interface PlacedKeypoint {
  readonly position: Vec3;
  readonly score: number;
  readonly valid: boolean;
}

const ORIGIN: Vec3 = [0, 0, 0];
/** Half the side of a keypoint's depth neighbourhood, in depth pixels (5 x 5). */
const KEYPOINT_RADIUS = 2;
/** At least this many valid depth samples around a keypoint to place it. */
const KEYPOINT_MIN_SAMPLES = 4;

/**
 * A keypoint in space from the depth around its pixel; not placed (valid false, at the origin)
 * when it was not found in 2D (score below `minScore`) or too little depth lies around it.
 */
export function placeKeypoint(
  camera: CameraModel,
  map: ColourToDepth,
  kp: Keypoint,
  range: DepthRange,
  minScore: number,
): PlacedKeypoint {
  if (!(kp.score >= minScore) || !Number.isFinite(kp.x) || !Number.isFinite(kp.y)) {
    return { position: ORIGIN, score: kp.score, valid: false };
  }
  const rx = (KEYPOINT_RADIUS + 0.5) / map.sx;
  const ry = (KEYPOINT_RADIUS + 0.5) / map.sy;
  const samples = rectSamples(map, kp.x - rx, kp.y - ry, kp.x + rx, kp.y + ry, range);
  const d = samples.length >= KEYPOINT_MIN_SAMPLES ? pointDepth(samples, 0.3) : undefined;
  if (!d) return { position: ORIGIN, score: kp.score, valid: false };
  const position = camera.backProject(kp.x, kp.y, d.depth);
  // Not placed rather than NaN: see placeResult.
  if (!position.every(Number.isFinite)) return { position: ORIGIN, score: kp.score, valid: false };
  return { position, score: kp.score, valid: true };
}
