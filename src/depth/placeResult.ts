/**
 * A frame's 2D result placed in space with its paired depth image: every detection with valid
 * depth gets a 3D box (instance masks give the depth where the model has them), every pose its
 * keypoints in space. What has no valid depth is left out (detections) or marked (keypoints),
 * and counted: nothing is invented.
 */
import type { Detection, PersonPose } from '../core/headResults';
import type { PipelineResult } from '../core/pipelineResult';
import type { Quaternion } from '../transforms/rigidTransform';
import type { CameraModel } from './cameraModel';
import type { DepthImage } from './depthImage';
import { ColourToDepth, DepthRange, detectionSamples, objectDepth } from './objectDepth';
import { placeBox, placeKeypoint, PlacedKeypoint, Vec3 } from './placeInSpace';

export interface SpatialOptions {
  readonly range: DepthRange;
  /** Keypoints below this 2D score are not placed (as drawn keypoints are not). */
  readonly keypointMinScore: number;
}

export interface PlacedDetection3D {
  readonly detection: Detection;
  /** Position in the frame's 2D list (its id when not tracking). */
  readonly index: number;
  readonly centre: Vec3;
  readonly size: Vec3;
  /**
   * The box's axes in the result's frame: absent in the camera's optical frame (axis-aligned
   * there), the camera's rotation once placed in another frame (resultInFrame.ts).
   */
  readonly orientation?: Quaternion;
}

export interface PlacedPose3D {
  readonly pose: PersonPose;
  readonly index: number;
  readonly keypoints: readonly PlacedKeypoint[];
}

export interface SpatialResult {
  readonly detections: readonly PlacedDetection3D[];
  readonly poses: readonly PlacedPose3D[];
  /** Detections of the 2D result left out for want of valid depth. */
  readonly withoutDepth: number;
}

/**
 * `camera` is the colour camera (from CameraInfo), used at the colour image's size; the depth
 * image, aligned to it, may have another resolution.
 */
export function placeResult(
  result: PipelineResult,
  colourWidth: number,
  colourHeight: number,
  depth: DepthImage,
  camera: CameraModel,
  options: SpatialOptions,
): SpatialResult {
  const cam = camera.scaledTo(colourWidth, colourHeight);
  const map = new ColourToDepth(depth, colourWidth, colourHeight);
  const detections: PlacedDetection3D[] = [];
  let withoutDepth = 0;
  const place = (d: Detection, index: number, mask?: Parameters<typeof detectionSamples>[2]) => {
    const z = objectDepth(detectionSamples(map, d.box, mask, options.range));
    if (!z) {
      withoutDepth++;
      return;
    }
    const b = placeBox(cam, d.box, z);
    // A camera the CameraInfo checks let through can still overflow once scaled to the colour
    // size (a huge cx times 640): such a box has no place, not a NaN one.
    if (!b.centre.every(Number.isFinite) || !b.size.every(Number.isFinite)) {
      withoutDepth++;
      return;
    }
    detections.push({ detection: d, index, centre: b.centre, size: b.size });
  };
  const poses: PlacedPose3D[] = [];
  switch (result.task) {
    case 'detect':
      result.detections.forEach((d, i) => place(d, i));
      break;
    case 'segment':
      result.instances.forEach((d, i) => place(d, i, d.mask));
      break;
    case 'pose':
      result.poses.forEach((p, i) => {
        place(p, i);
        poses.push({
          pose: p,
          index: i,
          keypoints: p.keypoints.map((k) =>
            placeKeypoint(cam, map, k, options.range, options.keypointMinScore),
          ),
        });
      });
      break;
    case 'semantic':
      break;
  }
  return { detections, poses, withoutDepth };
}
