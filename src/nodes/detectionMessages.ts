import type { Detection, PersonPose } from '../heads/headResults';
import type { RosHeader } from '../ros/rosHeader';

/**
 * Plain objects in the field layout of vision_msgs (4.x), for rclnodejs publishers. Detection
 * messages are small, so rclnodejs' own serializer is fine here (unlike image pixels).
 */
interface HeaderMsg {
  stamp: { sec: number; nanosec: number };
  frame_id: string;
}

export function headerMsg(h: RosHeader): HeaderMsg {
  return { stamp: { sec: h.stamp.sec, nanosec: h.stamp.nanosec }, frame_id: h.frameId };
}

/**
 * vision_msgs/Detection2DArray. class_id is the model's class index as a string (names are on
 * the LabelInfo topic); `id` is the 1-based position, the value of its pixels in instance masks.
 */
export function detection2DArray(header: RosHeader, detections: readonly Detection[]): object {
  const h = headerMsg(header);
  return {
    header: h,
    detections: detections.map((d, i) => ({
      header: h,
      results: [{ hypothesis: { class_id: String(d.classId), score: d.score } }],
      bbox: {
        center: {
          position: { x: (d.box.x1 + d.box.x2) / 2, y: (d.box.y1 + d.box.y2) / 2 },
          theta: 0,
        },
        size_x: d.box.x2 - d.box.x1,
        size_y: d.box.y2 - d.box.y1,
      },
      id: String(i + 1),
    })),
  };
}

/** vision_msgs/LabelInfo: the class map, published once with transient-local durability. */
export function labelInfo(
  header: RosHeader,
  classNames: readonly string[],
  threshold: number,
): object {
  return {
    header: headerMsg(header),
    class_map: classNames.map((name, i) => ({ class_id: i, class_name: name })),
    threshold,
  };
}

/** htp_perception/PersonPoseArray: keypoints in the model's (COCO-17) order, source pixels. */
export function personPoseArray(header: RosHeader, poses: readonly PersonPose[]): object {
  const h = headerMsg(header);
  return {
    header: h,
    poses: poses.map((p) => ({
      detection: (detection2DArray(header, [p]) as { detections: object[] }).detections[0],
      skeleton: 'coco17',
      keypoints: p.keypoints.map((k) => ({ x: k.x, y: k.y, score: k.score })),
    })),
  };
}
