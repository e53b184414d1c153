import type * as Rclnodejs from 'rclnodejs';
import { detectionId } from '../core/detectionId';
import type { Detection, PersonPose } from '../core/headResults';
import type { RosHeader } from './rosHeader';

type Header = Rclnodejs.std_msgs.msg.Header;
type Detection2D = Rclnodejs.vision_msgs.msg.Detection2D;
export type Detection2DArrayMsg = Rclnodejs.vision_msgs.msg.Detection2DArray;
export type LabelInfoMsg = Rclnodejs.vision_msgs.msg.LabelInfo;
export type PersonPoseArrayMsg = Rclnodejs.htp_perception.msg.PersonPoseArray;

/*
 * Messages in the field layout of vision_msgs 4.x and our msg/, typed by rclnodejs' generated
 * interfaces. Detections and poses are published as our own CDR (detectionArrayCodec,
 * poseArrayCodec: rclnodejs' object path cost milliseconds per message); labels (once per
 * configure) still go through rclnodejs' serializer.
 */

export function headerMsg(h: RosHeader): Header {
  return { stamp: { sec: h.stamp.sec, nanosec: h.stamp.nanosec }, frame_id: h.frameId };
}

/** A 2D detector says nothing about 3D pose: identity pose, zero covariance. */
function noPose(): Rclnodejs.geometry_msgs.msg.PoseWithCovariance {
  return {
    pose: { position: { x: 0, y: 0, z: 0 }, orientation: { x: 0, y: 0, z: 0, w: 1 } },
    covariance: new Float64Array(36),
  };
}

/**
 * One Detection2D in source-image pixels. class_id is the model's class index as a string (names
 * are on the LabelInfo topic).
 */
function detection2D(header: Header, d: Detection, id: string): Detection2D {
  return {
    header,
    results: [{ hypothesis: { class_id: String(d.classId), score: d.score }, pose: noPose() }],
    bbox: {
      center: {
        position: { x: (d.box.x1 + d.box.x2) / 2, y: (d.box.y1 + d.box.y2) / 2 },
        theta: 0,
      },
      size_x: d.box.x2 - d.box.x1,
      size_y: d.box.y2 - d.box.y1,
    },
    id,
  };
}

/** vision_msgs/Detection2DArray, ids as detectionId says. */
export function detection2DArray(
  header: RosHeader,
  detections: readonly Detection[],
): Detection2DArrayMsg {
  const h = headerMsg(header);
  return {
    header: h,
    detections: detections.map((d, i) => detection2D(h, d, String(detectionId(d, i)))),
  };
}

/** vision_msgs/LabelInfo: the class map, published once with transient-local durability. */
export function labelInfo(
  header: RosHeader,
  classNames: readonly string[],
  threshold: number,
): LabelInfoMsg {
  return {
    header: headerMsg(header),
    class_map: classNames.map((name, i) => ({ class_id: i, class_name: name })),
    threshold,
  };
}

/** htp_perception/PersonPoseArray: keypoints in the order `skeleton` names, source pixels. */
export function personPoseArray(
  header: RosHeader,
  poses: readonly PersonPose[],
  skeleton: string,
): PersonPoseArrayMsg {
  const h = headerMsg(header);
  return {
    header: h,
    poses: poses.map((p, i) => ({
      detection: detection2D(h, p, String(detectionId(p, i))),
      skeleton,
      keypoints: p.keypoints.map((k) => ({ x: k.x, y: k.y, score: k.score })),
    })),
  };
}
