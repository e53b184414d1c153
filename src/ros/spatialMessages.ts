/**
 * The 3D result messages, in the field layout of vision_msgs 4.x (Detection3DArray) and our msg/
 * (PersonPose3DArray), built from 2D results placed in space. Ids and class guesses are those of
 * the 2D messages of the same frame (detectionId), so a consumer joins the two by id.
 * Published as our own CDR (spatialCodec.ts), like the 2D detections.
 */
import { detectionId } from '../core/detectionId';
import type { PlacedDetection3D, PlacedPose3D } from '../depth/placeResult';
import type { RosHeader } from './rosHeader';
import { detection2DArray, headerMsg } from './visionMessages';
import type { Detection2DArrayMsg } from './visionMessages';

type Header = Detection2DArrayMsg['header'];
type Detection2DMsg = Detection2DArrayMsg['detections'][number];
type HypothesisMsg = Detection2DMsg['results'][number];
type Vec3 = readonly [number, number, number];

export interface Detection3DMsg {
  readonly header: Header;
  readonly results: readonly HypothesisMsg[];
  readonly bbox: {
    readonly center: {
      readonly position: { readonly x: number; readonly y: number; readonly z: number };
      readonly orientation: {
        readonly x: number;
        readonly y: number;
        readonly z: number;
        readonly w: number;
      };
    };
    readonly size: { readonly x: number; readonly y: number; readonly z: number };
  };
  readonly id: string;
}

export interface Detection3DArrayMsg {
  readonly header: Header;
  readonly detections: readonly Detection3DMsg[];
}

export interface Keypoint3DMsg {
  readonly position: { readonly x: number; readonly y: number; readonly z: number };
  readonly score: number;
  readonly valid: boolean;
}

export interface PersonPose3DMsg {
  readonly detection: Detection2DMsg;
  readonly skeleton: string;
  readonly keypoints: readonly Keypoint3DMsg[];
}

export interface PersonPose3DArrayMsg {
  readonly header: Header;
  readonly poses: readonly PersonPose3DMsg[];
}

const xyz = (v: Vec3) => ({ x: v[0], y: v[1], z: v[2] });
const IDENTITY_ROTATION = { x: 0, y: 0, z: 0, w: 1 } as const;

/**
 * vision_msgs/Detection3DArray: boxes axis-aligned in the optical frame (identity orientation:
 * a box from one view has no measured yaw), or in target_frame with the camera's rotation; header
 * = the colour image's (its frame_id the target frame's then).
 */
export function detection3DArray(
  header: RosHeader,
  placed: readonly PlacedDetection3D[],
): Detection3DArrayMsg {
  const h = headerMsg(header);
  const twoD = detection2DArray(
    header,
    placed.map((p) => p.detection),
  ).detections;
  return {
    header: h,
    detections: placed.map((p, i) => ({
      header: h,
      results: twoD[i]!.results,
      bbox: {
        center: { position: xyz(p.centre), orientation: p.orientation ?? IDENTITY_ROTATION },
        size: xyz(p.size),
      },
      id: String(detectionId(p.detection, p.index)),
    })),
  };
}

/** htp_perception/PersonPose3DArray: every person of the 2D message, keypoints in metres. */
export function personPose3DArray(
  header: RosHeader,
  placed: readonly PlacedPose3D[],
  /** PersonPose.skeleton: the keypoint order (PipelineResult's skeleton name). */
  skeleton: string,
): PersonPose3DArrayMsg {
  const h = headerMsg(header);
  const twoD = detection2DArray(
    header,
    placed.map((p) => p.pose),
  ).detections;
  return {
    header: h,
    poses: placed.map((p, i) => ({
      detection: { ...twoD[i]!, id: String(detectionId(p.pose, p.index)) },
      skeleton,
      keypoints: p.keypoints.map((k) => ({
        position: xyz(k.position),
        score: k.score,
        valid: k.valid,
      })),
    })),
  };
}
