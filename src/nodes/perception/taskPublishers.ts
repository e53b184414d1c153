import type * as Rclnodejs from 'rclnodejs';
import { NODE_TOPICS, type OutputTopics } from '../../ros/outputTopics';
import { buildInstanceIdImage } from '../../heads/buildInstanceIdImage';
import type { PipelineResult } from '../../core/pipelineResult';
import type { Task } from '../../pipeline/perceptionPipeline';
import type { PublishedResult } from '../../ros/imageAnnotations';
import { encodeDetection2DArray } from '../../ros/codecs/detectionArrayCodec';
import { encodePersonPoseArray } from '../../ros/codecs/poseArrayCodec';
import { MessageScratch } from '../../ros/codecs/cdrWriter';
import { encodeImage } from '../../ros/codecs/imageCodec';
import { createOutputPublisher, IMAGE_QOS, LATCHED_QOS, RESULT_QOS } from '../../ros/publisherQos';
import type { RosHeader } from '../../ros/rosHeader';
import { stampNow } from '../../ros/rosHeader';
import { detectionId } from '../../core/detectionId';
import { detection2DArray, labelInfo, personPoseArray } from '../../ros/visionMessages';

// Typed arrays use the machine's byte order; mono16 messages say which one that is.
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** A result's messages, built and ready to go out. */
export interface OutgoingResult {
  /** The detections or poses message, for ~/annotations (none for semantic maps). */
  readonly sent: PublishedResult | undefined;
  send(): void;
}

/**
 * The result topics of one node, by its model's task, each message carrying the image's header:
 *  - detect:   ~/detections (vision_msgs/Detection2DArray), ~/labels (LabelInfo, transient local)
 *  - segment:  the same plus ~/instances (mono16, pixel = Detection2D.id, 0 = background)
 *  - pose:     ~/poses (htp_perception/PersonPoseArray), and each person's box on ~/detections
 *              (class 0 = person, the pose's id) with ~/labels
 *  - semantic: ~/segmentation (mono8 class index per pixel) and ~/labels
 * Detection2D.id is the track id when the node tracks, else the position in the array.
 */
export class TaskPublishers {
  private readonly detections: Rclnodejs.Publisher<'vision_msgs/msg/Detection2DArray'> | undefined;
  private readonly labels: Rclnodejs.Publisher<'vision_msgs/msg/LabelInfo'>;
  private readonly poses: Rclnodejs.Publisher<'htp_perception/msg/PersonPoseArray'> | undefined;
  private readonly mask: Rclnodejs.Publisher<'sensor_msgs/msg/Image'> | undefined;
  /** The label images' bytes, reused frame after frame (built, then published before the next). */
  private readonly imageScratch = new MessageScratch();

  constructor(
    rcl: typeof Rclnodejs,
    private readonly node: Rclnodejs.Node,
    task: Task,
    topics: OutputTopics = NODE_TOPICS,
  ) {
    // Pose models publish their people's boxes too (one per pose, same id), so a bottom-up pose
    // model (MoveNet MultiPose) serves what a detector's subscribers expect.
    if (task === 'detect' || task === 'segment' || task === 'pose') {
      this.detections = createOutputPublisher(
        rcl,
        node,
        'vision_msgs/msg/Detection2DArray',
        topics('detections'),
        RESULT_QOS,
      );
    }
    this.labels = createOutputPublisher(
      rcl,
      node,
      'vision_msgs/msg/LabelInfo',
      topics('labels'),
      LATCHED_QOS,
    );
    if (task === 'pose') {
      this.poses = createOutputPublisher(
        rcl,
        node,
        'htp_perception/msg/PersonPoseArray',
        topics('poses'),
        RESULT_QOS,
      );
    }
    if (task === 'segment' || task === 'semantic') {
      this.mask = createOutputPublisher(
        rcl,
        node,
        'sensor_msgs/msg/Image',
        topics(task === 'segment' ? 'instances' : 'segmentation'),
        IMAGE_QOS,
      );
    }
  }

  /** The class map, once per configure: late subscribers get it from the transient-local QoS. */
  publishLabels(classNames: readonly string[], threshold: number): void {
    this.labels.publish(
      labelInfo({ stamp: stampNow(this.node), frameId: '' }, classNames, threshold),
    );
  }

  /**
   * Builds a result's messages without publishing them, so the node can time building apart from
   * rclnodejs' serialization and the DDS write (send).
   */
  build(r: PipelineResult, header: RosHeader, width: number, height: number): OutgoingResult {
    switch (r.task) {
      case 'detect': {
        const msg = detection2DArray(header, r.detections);
        // Our own CDR: rclnodejs' object path costs milliseconds per message (bench:e2e).
        const bytes = encodeDetection2DArray(msg);
        return { sent: { kind: 'detections', msg }, send: () => this.detections?.publish(bytes) };
      }
      case 'segment': {
        const msg = detection2DArray(header, r.instances);
        const bytes = encodeDetection2DArray(msg);
        const ids = buildInstanceIdImage(
          r.instances.map((i) => i.mask),
          width,
          height,
          r.instances.map(detectionId),
        );
        const image = encodeImage(
          {
            header,
            height,
            width,
            encoding: 'mono16',
            isBigEndian: !LITTLE_ENDIAN,
            step: width * 2,
            data: new Uint8Array(ids.buffer, ids.byteOffset, ids.byteLength),
          },
          this.imageScratch,
        );
        return {
          sent: { kind: 'instances', msg },
          send: () => {
            this.detections?.publish(bytes);
            this.mask?.publish(image);
          },
        };
      }
      case 'pose': {
        const msg = personPoseArray(header, r.poses, r.skeleton.name);
        const bytes = encodePersonPoseArray(msg);
        const boxes = encodeDetection2DArray(detection2DArray(header, r.poses));
        return {
          sent: { kind: 'poses', msg },
          send: () => {
            this.detections?.publish(boxes);
            this.poses?.publish(bytes);
          },
        };
      }
      case 'semantic': {
        const image = encodeImage(
          {
            header,
            height: r.map.height,
            width: r.map.width,
            encoding: 'mono8',
            step: r.map.width,
            data: r.map.data,
          },
          this.imageScratch,
        );
        return { sent: undefined, send: () => this.mask?.publish(image) };
      }
    }
  }

  destroy(): void {
    for (const p of [this.detections, this.labels, this.poses, this.mask]) {
      if (p) this.node.destroyPublisher(p);
    }
  }
}
