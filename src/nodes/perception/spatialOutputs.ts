import type * as Rclnodejs from 'rclnodejs';
import { NODE_TOPICS, type OutputTopics } from '../../ros/outputTopics';
import type { PipelineResult } from '../../core/pipelineResult';
import { placeResult, SpatialOptions } from '../../depth/placeResult';
import { resultInFrame } from '../../depth/resultInFrame';
import type { LookupFailure } from '../../transforms/transformBuffer';
import type { TransformLease } from '../../ros/transformListener';
import type { DepthLease } from '../../ros/depthHub';
import type { NoDepthReason } from '../../ros/depthIntake';
import { createOutputPublisher, RESULT_QOS } from '../../ros/publisherQos';
import type { RosHeader } from '../../ros/rosHeader';
import { encodeDetection3DArray, encodePersonPose3DArray } from '../../ros/codecs/spatialCodec';
import { MarkerStyle, spatialMarkers } from '../../ros/spatialMarkers';
import {
  type Detection3DArrayMsg,
  detection3DArray,
  personPose3DArray,
} from '../../ros/spatialMessages';
import { WatchedPublisher, WatchedPublisherStats } from '../../ros/watchedPublisher';

export interface SpatialStats {
  readonly framesWithDepth: number;
  readonly framesWithoutDepth: Readonly<Partial<Record<NoDepthReason, number>>>;
  /** 2D detections left out of ~/detections_3d for want of valid depth. */
  readonly detectionsWithoutDepth: number;
  readonly markers: WatchedPublisherStats;
  /** Why the latest frame got no 3D result; undefined when it got one. */
  readonly lastMissing: NoDepthReason | undefined;
  /** target_frame: frames with depth whose 3D results had no transform, by why. */
  readonly framesWithoutTransform: Readonly<Partial<Record<LookupFailure, number>>>;
  /** Why the latest frame with depth could not be put in target_frame; '' when it could. */
  readonly lastTransformError: string;
}

/** target_frame and the process's transform tree to reach it. */
export interface TargetFrame {
  readonly frame: string;
  readonly transforms: TransformLease;
}

/**
 * The 3D outputs of a node with `depth: true`, each message carrying the colour image's header:
 *  - ~/detections_3d (vision_msgs/Detection3DArray) for detection, segmentation and pose models;
 *  - ~/poses_3d (htp_perception/PersonPose3DArray) for pose models;
 *  - ~/markers (visualization_msgs/MarkerArray), only while subscribed.
 * In the camera's optical frame, or with target_frame in that frame (the process's /tf tree at the
 * image's stamp). A frame without paired depth or CameraInfo, or without the transform, gets no
 * 3D messages (its 2D ones already went out) and is counted by reason.
 */
export class SpatialOutputs {
  private readonly detections: Rclnodejs.Publisher<'vision_msgs/msg/Detection3DArray'>;
  private readonly poses: Rclnodejs.Publisher<'htp_perception/msg/PersonPose3DArray'> | undefined;
  private readonly markers: WatchedPublisher<'visualization_msgs/msg/MarkerArray'>;
  private withDepth = 0;
  private readonly without: Partial<Record<NoDepthReason, number>> = {};
  private detectionsWithoutDepth = 0;
  private lastMissing: NoDepthReason | undefined;
  private readonly withoutTransform: Partial<Record<LookupFailure, number>> = {};
  private lastTransformError = '';

  constructor(
    rcl: typeof Rclnodejs,
    private readonly node: Rclnodejs.Node,
    withPoses: boolean,
    private readonly style: MarkerStyle,
    topics: OutputTopics = NODE_TOPICS,
    /** Also given each frame's detections once they are in target_frame (several cameras). */
    private readonly inTargetFrame?: (det: Detection3DArrayMsg) => void,
  ) {
    this.detections = createOutputPublisher(
      rcl,
      node,
      'vision_msgs/msg/Detection3DArray',
      topics('detections_3d'),
      RESULT_QOS,
    );
    this.poses = withPoses
      ? createOutputPublisher(
          rcl,
          node,
          'htp_perception/msg/PersonPose3DArray',
          topics('poses_3d'),
          RESULT_QOS,
        )
      : undefined;
    this.markers = WatchedPublisher.create(
      rcl,
      node,
      'visualization_msgs/msg/MarkerArray',
      topics('markers'),
      RESULT_QOS,
    );
  }

  /** Places a published 2D result in space with the depth paired to its stamp, and publishes it. */
  publish(
    result: PipelineResult,
    header: RosHeader,
    width: number,
    height: number,
    lease: DepthLease,
    slopMs: number,
    options: SpatialOptions,
    tracking: boolean,
    target: TargetFrame | undefined,
  ): void {
    if (result.task === 'semantic') return;
    const m = lease.match(header.stamp, slopMs);
    if ('reason' in m) {
      this.without[m.reason] = (this.without[m.reason] ?? 0) + 1;
      this.lastMissing = m.reason;
      return;
    }
    this.withDepth++;
    this.lastMissing = undefined;
    // The camera's optical frame: CameraInfo and the colour image share it; the colour image's
    // header is the one results carry.
    let placed = placeResult(result, width, height, m.depth.image, m.camera, options);
    let out = header;
    if (target) {
      // At the image's stamp, as tf2 would give it; a transform that is not there (yet) or would
      // be extrapolated leaves the frame in 2D only, counted: a guessed pose is worse than none.
      const t = target.transforms.lookup(target.frame, header.frameId, header.stamp);
      if (!t.ok) {
        this.withoutTransform[t.reason] = (this.withoutTransform[t.reason] ?? 0) + 1;
        this.lastTransformError = `no transform from '${header.frameId}' to '${target.frame}': ${t.message}`;
        return;
      }
      this.lastTransformError = '';
      placed = resultInFrame(placed, t.transform);
      out = { ...header, frameId: target.frame };
    }
    this.detectionsWithoutDepth += placed.withoutDepth;
    const det = detection3DArray(out, placed.detections);
    this.detections.publish(encodeDetection3DArray(det));
    if (target) this.inTargetFrame?.(det);
    const poses = this.poses
      ? personPose3DArray(
          out,
          placed.poses,
          result.task === 'pose' ? result.skeleton.name : 'coco17',
        )
      : undefined;
    if (poses) this.poses?.publish(encodePersonPose3DArray(poses));
    if (this.markers.watched()) {
      this.markers.publish(spatialMarkers(det, poses, this.style, tracking));
    }
  }

  get stats(): SpatialStats {
    return {
      framesWithDepth: this.withDepth,
      framesWithoutDepth: { ...this.without },
      detectionsWithoutDepth: this.detectionsWithoutDepth,
      markers: this.markers.stats,
      lastMissing: this.lastMissing,
      framesWithoutTransform: { ...this.withoutTransform },
      lastTransformError: this.lastTransformError,
    };
  }

  destroy(): void {
    this.node.destroyPublisher(this.detections);
    if (this.poses) this.node.destroyPublisher(this.poses);
    this.markers.destroy();
  }
}
