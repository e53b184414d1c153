import type * as Rclnodejs from 'rclnodejs';
import type { PerceptionConfig } from '../../config/perceptionConfig';
import type { PerceptionPipeline } from '../../pipeline/perceptionPipeline';
import { type CameraInputTopics, cameraInputTopics } from '../../ros/cameraInputTopics';
import type { CameraLease } from '../../ros/cameraHub';
import type { DepthLease } from '../../ros/depthHub';
import { outputTopics } from '../../ros/outputTopics';
import type { TransformLease } from '../../ros/transformListener';
import { OperatorView } from '../operator/operatorView';
import { NodeStats } from './nodeStats';
import type { RobotFrameDetections } from './robotFrameDetections';
import { SpatialOutputs } from './spatialOutputs';
import type { StaleInputs } from './staleInputs';
import { TaskPublishers } from './taskPublishers';

/** What one camera holds while the node is active: its subscriptions and their silence. */
export interface ChannelInputs {
  /** Undefined for a pipeline that follows a person_source's frames. */
  readonly lease: CameraLease | undefined;
  readonly depth: DepthLease | undefined;
  readonly transforms: TransformLease | undefined;
  readonly stale: StaleInputs;
}

/**
 * One camera of a perception node, from configure to cleanup: its input topic names, its result
 * publishers, operator views and 3D outputs, under `~/<camera>/` (or `~/` for the node's single
 * camera), and its own counters. The model, its session and power vote are the node's, shared by
 * every camera; what a camera sees, drops and fails at stays its own.
 */
export class CameraChannel {
  readonly inputTopics: CameraInputTopics;
  readonly outputs: TaskPublishers;
  readonly view: OperatorView;
  readonly spatial: SpatialOutputs | undefined;
  readonly stats = new NodeStats();
  /** Frames replaced in the mailbox in earlier activations. */
  droppedBefore = 0;
  /** Set while the node is active. */
  inputs: ChannelInputs | undefined;

  constructor(
    rcl: typeof Rclnodejs,
    node: Rclnodejs.Node,
    /** '' for a node's single camera. */
    readonly camera: string,
    config: PerceptionConfig,
    pipeline: PerceptionPipeline,
    ns: string,
    log: { warn(line: string): void; undrawable(encoding: string): void },
    /** The node's ~/detections_3d of every camera in target_frame, if it has one. */
    robotFrame?: RobotFrameDetections,
  ) {
    const topics = outputTopics(camera);
    this.inputTopics = cameraInputTopics(camera, config.input_transport);
    this.outputs = new TaskPublishers(rcl, node, pipeline.task, topics);
    try {
      this.view = new OperatorView(
        rcl,
        node,
        pipeline,
        (encoding) => log.undrawable(encoding),
        (line) => log.warn(line),
        topics,
      );
    } catch (e) {
      this.outputs.destroy();
      throw e;
    }
    const manifest = pipeline.model.manifest;
    // LabelInfo.threshold: the least score published; while tracking, a low detection that
    // continues a track is.
    this.outputs.publishLabels(
      manifest.classNames,
      config.tracking ? config.track_low_threshold : config.score_threshold,
    );
    this.spatial = config.depth
      ? new SpatialOutputs(
          rcl,
          node,
          pipeline.task === 'pose',
          {
            classNames: manifest.classNames,
            skeleton: pipeline.model.keypoints.skeleton.limbs,
            lifetimeS: 0.5,
            ns: camera ? `${ns}/${camera}` : ns,
          },
          topics,
          robotFrame && ((det) => robotFrame.publish(camera, det)),
        )
      : undefined;
  }

  /** Frees the publishers (cleanup); the inputs were released at deactivate. */
  async destroy(): Promise<void> {
    this.outputs.destroy();
    await this.view.destroy();
    this.spatial?.destroy();
  }
}
