import type * as Rclnodejs from 'rclnodejs';
import { encodeDetection3DArray } from '../../ros/codecs/spatialCodec';
import { NODE_TOPICS } from '../../ros/outputTopics';
import { createOutputPublisher, RESULT_QOS } from '../../ros/publisherQos';
import type { Detection3DArrayMsg } from '../../ros/spatialMessages';

/**
 * The node's own `~/detections_3d` when it serves several cameras with a target_frame: every
 * camera's 3D detections, already in that one frame, so a planner subscribes once for all around
 * the robot. One message per camera frame, as it comes (header: that image's stamp, the target
 * frame); no waiting to pair frames of different cameras, whose stamps never match. Track ids are
 * a camera's own (each camera has its tracker), so here they carry the camera: `front/7`.
 */
export class RobotFrameDetections {
  private readonly publisher: Rclnodejs.Publisher<'vision_msgs/msg/Detection3DArray'>;

  constructor(
    rcl: typeof Rclnodejs,
    private readonly node: Rclnodejs.Node,
  ) {
    this.publisher = createOutputPublisher(
      rcl,
      node,
      'vision_msgs/msg/Detection3DArray',
      NODE_TOPICS('detections_3d'),
      RESULT_QOS,
    );
  }

  publish(camera: string, det: Detection3DArrayMsg): void {
    this.publisher.publish(
      encodeDetection3DArray({
        header: det.header,
        detections: det.detections.map((d) => ({ ...d, id: `${camera}/${d.id}` })),
      }),
    );
  }

  destroy(): void {
    this.node.destroyPublisher(this.publisher);
  }
}
