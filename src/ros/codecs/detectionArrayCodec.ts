import { CdrWriter } from './cdrWriter';
import { headerSize, writeHeader } from './headerCodec';
import type { Detection2DArrayMsg } from '../visionMessages';

type Header = Detection2DArrayMsg['header'];
type Detection2DMsg = Detection2DArrayMsg['detections'][number];
export type HypothesisMsg = Detection2DMsg['results'][number];

/** Bytes of one ObjectHypothesisWithPose after its class_id: score, pose (7 doubles), covariance. */
const HYPOTHESIS_FIXED = 8 + 7 * 8 + 36 * 8;
/** BoundingBox2D: centre (x, y, theta) and size (x, y). */
const BBOX = 5 * 8;

/**
 * vision_msgs/Detection2DArray as plain little-endian CDR, for publishing as a serialized message.
 * rclnodejs' own path converts the JS object field by field into a native struct and serializes
 * that (two passes, one allocation per nested message, ~40 doubles of pose per detection); this
 * writes the wire bytes once into one buffer. Field order and alignment follow the message
 * definitions (vision_msgs 4.x: header; detections[]: header, results[]: hypothesis {class_id,
 * score}, pose {pose {position, orientation}, covariance[36]}; bbox {center {position, theta},
 * size_x, size_y}; id).
 */
export function encodeDetection2DArray(msg: Detection2DArrayMsg): Buffer {
  let size = headerSize(rosHeader(msg.header)) + 8;
  for (const d of msg.detections) size += detection2DSize(d);
  const w = new CdrWriter(size);
  writeHeader(w, rosHeader(msg.header));
  w.uint32(msg.detections.length);
  for (const d of msg.detections) writeDetection2D(w, d);
  return w.finish();
}

/** One Detection2D (also the detection inside our PersonPose messages). */
export function writeDetection2D(w: CdrWriter, d: Detection2DMsg): void {
  writeHeader(w, rosHeader(d.header));
  writeResults(w, d.results);
  const b = d.bbox;
  w.float64(b.center.position.x);
  w.float64(b.center.position.y);
  w.float64(b.center.theta);
  w.float64(b.size_x);
  w.float64(b.size_y);
  w.string(d.id);
}

/** Upper bound of a Detection2D's size, with worst-case alignment padding. */
export function detection2DSize(d: Detection2DMsg): number {
  return (
    headerSize(rosHeader(d.header)) + resultsSize(d.results) + 8 + BBOX + CdrWriter.stringSize(d.id)
  );
}

/** ObjectHypothesisWithPose[]: the class guesses of a 2D or 3D detection. */
export function writeResults(w: CdrWriter, results: readonly HypothesisMsg[]): void {
  w.uint32(results.length);
  for (const r of results) {
    w.string(r.hypothesis.class_id);
    w.float64(r.hypothesis.score);
    writePose(w, r.pose.pose);
    const cov = r.pose.covariance;
    if (cov.length !== 36) {
      throw new RangeError(`pose covariance has ${cov.length} values, vision_msgs needs 36`);
    }
    for (let i = 0; i < 36; i++) w.float64(cov[i]!);
  }
}

type PoseMsg = HypothesisMsg['pose']['pose'];

/** geometry_msgs/Pose: position (x, y, z), then orientation (x, y, z, w). */
export function writePose(w: CdrWriter, p: PoseMsg): void {
  w.float64(p.position.x);
  w.float64(p.position.y);
  w.float64(p.position.z);
  w.float64(p.orientation.x);
  w.float64(p.orientation.y);
  w.float64(p.orientation.z);
  w.float64(p.orientation.w);
}

export function resultsSize(results: readonly HypothesisMsg[]): number {
  let n = 8;
  for (const r of results) n += CdrWriter.stringSize(r.hypothesis.class_id) + HYPOTHESIS_FIXED + 8;
  return n;
}

export function rosHeader(h: Header): Parameters<typeof writeHeader>[1] {
  return { stamp: { sec: h.stamp.sec, nanosec: h.stamp.nanosec }, frameId: h.frame_id };
}
