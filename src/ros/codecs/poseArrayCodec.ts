/**
 * htp_perception/PersonPoseArray as plain little-endian CDR (see detectionArrayCodec.ts for why
 * we write the wire bytes ourselves: rclnodejs' object path cost the pose pipeline of a container
 * about 2 ms a frame for five people). Field order follows msg/: header; poses[]: detection
 * (vision_msgs/Detection2D), skeleton, keypoints[] {x, y, score} (float32 each).
 */
import { CdrWriter } from './cdrWriter';
import { detection2DSize, rosHeader, writeDetection2D } from './detectionArrayCodec';
import { headerSize, writeHeader } from './headerCodec';
import type { PersonPoseArrayMsg } from '../visionMessages';

/** Three float32 per keypoint. */
const KEYPOINT = 12;

export function encodePersonPoseArray(msg: PersonPoseArrayMsg): Buffer {
  return encodePoses(msg, KEYPOINT, (w, k) => {
    w.float32(k.x);
    w.float32(k.y);
    w.float32(k.score);
  });
}

type Detection2DMsg = PersonPoseArrayMsg['poses'][number]['detection'];

/** The layout PersonPoseArray and PersonPose3DArray share: only their keypoints differ. */
interface PoseArrayLike<K> {
  readonly header: PersonPoseArrayMsg['header'];
  readonly poses: readonly {
    readonly detection: Detection2DMsg;
    readonly skeleton: string;
    readonly keypoints: readonly K[];
  }[];
}

/**
 * header; poses[]: detection (Detection2D), skeleton, keypoints[] written by `writeKeypoint`,
 * each at most `keypointBytes` long (alignment included).
 */
export function encodePoses<K>(
  msg: PoseArrayLike<K>,
  keypointBytes: number,
  writeKeypoint: (w: CdrWriter, k: K) => void,
): Buffer {
  let size = headerSize(rosHeader(msg.header)) + 8;
  for (const p of msg.poses) {
    size += detection2DSize(p.detection) + CdrWriter.stringSize(p.skeleton) + 8;
    size += p.keypoints.length * keypointBytes;
  }
  const w = new CdrWriter(size);
  writeHeader(w, rosHeader(msg.header));
  w.uint32(msg.poses.length);
  for (const p of msg.poses) {
    writeDetection2D(w, p.detection);
    w.string(p.skeleton);
    w.uint32(p.keypoints.length);
    for (const k of p.keypoints) writeKeypoint(w, k);
  }
  return w.finish();
}
