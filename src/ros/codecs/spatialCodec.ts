/**
 * Detection3DArray and PersonPose3DArray as plain little-endian CDR (see detectionArrayCodec.ts
 * for why we write the wire bytes ourselves). Field order follows vision_msgs 4.x
 * (Detection3D: header, results[], bbox {center: Pose {position, orientation}, size: Vector3}, id)
 * and our msg/ (PersonPose3D: detection, skeleton, keypoints[] {position: Point, score, valid}).
 */
import { CdrWriter } from './cdrWriter';
import { resultsSize, rosHeader, writePose, writeResults } from './detectionArrayCodec';
import { headerSize, writeHeader } from './headerCodec';
import { encodePoses } from './poseArrayCodec';
import type { Detection3DArrayMsg, PersonPose3DArrayMsg } from '../spatialMessages';

/** Pose (7 doubles) and Vector3 (3 doubles). */
const BBOX3D = 10 * 8;
/** Point (3 doubles), float32 score, bool valid, with worst-case alignment. */
const KEYPOINT3D = 3 * 8 + 4 + 1 + 7;

export function encodeDetection3DArray(msg: Detection3DArrayMsg): Buffer {
  let size = headerSize(rosHeader(msg.header)) + 8;
  for (const d of msg.detections) {
    size += headerSize(rosHeader(d.header)) + resultsSize(d.results) + 8 + BBOX3D;
    size += CdrWriter.stringSize(d.id);
  }
  const w = new CdrWriter(size);
  writeHeader(w, rosHeader(msg.header));
  w.uint32(msg.detections.length);
  for (const d of msg.detections) {
    writeHeader(w, rosHeader(d.header));
    writeResults(w, d.results);
    writePose(w, d.bbox.center);
    w.float64(d.bbox.size.x);
    w.float64(d.bbox.size.y);
    w.float64(d.bbox.size.z);
    w.string(d.id);
  }
  return w.finish();
}

export function encodePersonPose3DArray(msg: PersonPose3DArrayMsg): Buffer {
  return encodePoses(msg, KEYPOINT3D, (w, k) => {
    w.float64(k.position.x);
    w.float64(k.position.y);
    w.float64(k.position.z);
    w.float32(k.score);
    w.uint8(k.valid ? 1 : 0);
  });
}
