import type * as Rclnodejs from 'rclnodejs';
import { buildInstanceIdImage } from '../heads/buildInstanceIdImage';
import type { PipelineResult } from '../pipeline/modelPipeline';
import type { Task } from '../pipeline/perceptionPipeline';
import { encodeImage } from '../ros/imageCodec';
import { makeQos } from '../ros/qosProfile';
import type { RosHeader } from '../ros/rosHeader';
import { stampNow } from '../ros/rosHeader';
import { detectionId } from '../heads/detectionId';
import { detection2DArray, labelInfo, personPoseArray } from '../ros/visionMessages';

// Typed arrays use the machine's byte order; mono16 messages say which one that is.
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/**
 * The result topics of one node, by its model's task, each message carrying the image's header:
 *  - detect:   ~/detections (vision_msgs/Detection2DArray), ~/labels (LabelInfo, transient local)
 *  - segment:  the same plus ~/instances (mono16, pixel = Detection2D.id, 0 = background)
 * Detection2D.id is the track id when the node tracks, else the position in the array.
 *  - pose:     ~/poses (htp_perception/PersonPoseArray)
 *  - semantic: ~/segmentation (mono8 class index per pixel) and ~/labels
 */
export class TaskPublishers {
  private readonly detections: Rclnodejs.Publisher<'vision_msgs/msg/Detection2DArray'> | undefined;
  private readonly labels: Rclnodejs.Publisher<'vision_msgs/msg/LabelInfo'> | undefined;
  private readonly poses: Rclnodejs.Publisher<'htp_perception/msg/PersonPoseArray'> | undefined;
  private readonly mask: Rclnodejs.Publisher<'sensor_msgs/msg/Image'> | undefined;

  constructor(
    rcl: typeof Rclnodejs,
    private readonly node: Rclnodejs.Node,
    task: Task,
  ) {
    const out = { qos: makeQos(rcl, 'reliable', 5) };
    if (task === 'detect' || task === 'segment') {
      this.detections = node.createPublisher(
        'vision_msgs/msg/Detection2DArray',
        '~/detections',
        out,
      );
    }
    if (task !== 'pose') {
      const latched = makeQos(rcl, 'reliable', 1);
      latched.durability = rcl.QoS.DurabilityPolicy.RMW_QOS_POLICY_DURABILITY_TRANSIENT_LOCAL;
      this.labels = node.createPublisher('vision_msgs/msg/LabelInfo', '~/labels', {
        qos: latched,
      });
    }
    if (task === 'pose') {
      this.poses = node.createPublisher('htp_perception/msg/PersonPoseArray', '~/poses', out);
    }
    if (task === 'segment' || task === 'semantic') {
      this.mask = node.createPublisher(
        'sensor_msgs/msg/Image',
        task === 'segment' ? '~/instances' : '~/segmentation',
        out,
      );
    }
  }

  /** The class map, once per configure: late subscribers get it from the transient-local QoS. */
  publishLabels(classNames: readonly string[], threshold: number): void {
    this.labels?.publish(
      labelInfo({ stamp: stampNow(this.node), frameId: '' }, classNames, threshold),
    );
  }

  publish(r: PipelineResult, header: RosHeader, width: number, height: number): void {
    switch (r.task) {
      case 'detect':
        this.detections?.publish(detection2DArray(header, r.detections));
        return;
      case 'segment': {
        this.detections?.publish(detection2DArray(header, r.instances));
        const ids = buildInstanceIdImage(
          r.instances.map((i) => i.mask),
          width,
          height,
          r.instances.map(detectionId),
        );
        this.mask?.publish(
          encodeImage({
            header,
            height,
            width,
            encoding: 'mono16',
            isBigEndian: !LITTLE_ENDIAN,
            step: width * 2,
            data: new Uint8Array(ids.buffer, ids.byteOffset, ids.byteLength),
          }),
        );
        return;
      }
      case 'pose':
        this.poses?.publish(personPoseArray(header, r.poses));
        return;
      case 'semantic':
        this.mask?.publish(
          encodeImage({
            header,
            height: r.map.height,
            width: r.map.width,
            encoding: 'mono8',
            step: r.map.width,
            data: r.map.data,
          }),
        );
        return;
    }
  }

  destroy(): void {
    for (const p of [this.detections, this.labels, this.poses, this.mask]) {
      if (p) this.node.destroyPublisher(p);
    }
  }
}
