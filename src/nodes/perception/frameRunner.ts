/**
 * A perception node's frame path, apart from its lifecycle and parameters: take the newest frame
 * from the mailbox, run the pipeline, publish the result messages, time every stage, place the
 * result in space when depth is on, hand detections to the pipelines that follow this one, then
 * feed the operator views. A frame that fails is counted and reported; the loop carries on. Runs
 * that fail in the engine or pass run_deadline_ms go to the node's AcceleratorRecovery.
 */
import type * as Rclnodejs from 'rclnodejs';
import type { DepthSettings, PerceptionConfig } from '../../config/perceptionConfig';
import type { PerceptionPipeline, PersonInput } from '../../pipeline/perceptionPipeline';
import type { CameraFrame } from '../../ros/cameraFrame';
import type { DepthLease } from '../../ros/depthHub';
import { KEYPOINT_MIN_SCORE } from '../../ros/imageAnnotations';
import type { LatencyClock } from '../../ros/latencyClock';
import type { ThrottledLog } from '../../ros/throttledLog';
import { EngineError } from '../../core/engineError';
import { withDeadline } from '../../util/withDeadline';
import { type AcceleratorRecovery, isEngineFailure } from './acceleratorRecovery';
import type { LatestFrameMailbox } from './latestFrameMailbox';
import type { FormatChange, NodeStats } from './nodeStats';
import type { OperatorView } from '../operator/operatorView';
import type { PipelineRegistry } from './pipelineRegistry';
import type { SpatialOutputs, TargetFrame } from './spatialOutputs';
import type { TaskPublishers } from './taskPublishers';

export interface FrameWork {
  readonly frame: CameraFrame;
  readonly persons?: PersonInput;
  /** performance.now() when the frame entered the mailbox. */
  readonly postedAt: number;
}

/** What configure made and the frame path uses (config: the values it used). */
export interface FrameOutputs {
  readonly config: PerceptionConfig;
  readonly pipeline: PerceptionPipeline;
  readonly outputs: TaskPublishers;
  readonly view: OperatorView;
  /** With `depth: true`: the 3D outputs. */
  readonly spatial: SpatialOutputs | undefined;
}

/** The node's side of the frame path: its clock, counters, registry and live depth settings. */
export interface FrameRunnerHost {
  readonly node: Rclnodejs.Node;
  /** The node's clock for the latency figures (read once a second, see latencyClock.ts). */
  readonly clock: LatencyClock;
  readonly name: string;
  readonly stats: NodeStats;
  readonly warnings: ThrottledLog;
  /** INFO lines that a misbehaving input could repeat per frame (a format that keeps changing). */
  readonly notices: ThrottledLog;
  readonly pipelines: PipelineRegistry;
  /** The depth lease of the current activation and the depth_* values now. */
  depth():
    | {
        readonly lease: DepthLease;
        readonly settings: DepthSettings;
        /** target_frame and the transforms to reach it (undefined: the optical frame). */
        readonly target: TargetFrame | undefined;
      }
    | undefined;
  /** What the node does when its engine fails (on_accelerator_failure). */
  readonly recovery: AcceleratorRecovery;
  /** run_deadline_ms now. */
  runDeadlineMs(): number;
}

/** Runs frames until the mailbox closes and the frame in flight is done. */
export async function runFrames(
  mailbox: LatestFrameMailbox<FrameWork>,
  c: FrameOutputs,
  host: FrameRunnerHost,
): Promise<void> {
  for (;;) {
    const work = await mailbox.take();
    if (!work) return;
    await processFrame(work, c, host);
  }
}

/**
 * Says which frame brought the input's size or encoding (its delivery number and stamp): an
 * operator matches it with the camera's own log, and a resize also restarted the tracks.
 */
export function formatNotice(
  now: string,
  before: string,
  change: Exclude<FormatChange, 'same'>,
  frame: Pick<CameraFrame, 'header' | 'sequence'>,
): string {
  const { sec, nanosec } = frame.header.stamp;
  const from = `from frame ${frame.sequence} stamped ${sec}.${String(nanosec).padStart(9, '0')}`;
  if (change === 'first') return `input ${now}, ${from}`;
  const tracks = change === 'resized' ? '; tracks restarted' : '';
  return `input now ${now} (was ${before}${tracks}), ${from}`;
}

async function processFrame(
  work: FrameWork,
  c: FrameOutputs,
  host: FrameRunnerHost,
): Promise<void> {
  // A broken engine takes no frame until its sessions are re-created (acceleratorRecovery.ts).
  if (!host.recovery.admit()) return;
  try {
    const taken = performance.now();
    const frame = await work.frame.pixels();
    const decoded = performance.now();
    // The engine plans each frame's resize from the frame itself (native PlanResize, the padding
    // compared per call), so a camera that changed size needs nothing here but new tracks: the
    // tracks' boxes are in the old size's pixels and would match nothing for track_buffer frames.
    const before = host.stats.inputFormat;
    const change = host.stats.noteFormat(frame.width, frame.height, frame.encoding);
    if (change === 'resized') c.pipeline.resetTracking();
    if (change !== 'same') {
      host.notices.report(
        'input_format',
        formatNotice(host.stats.inputFormat, before, change, work.frame),
      );
    }
    const deadlineMs = host.runDeadlineMs();
    const { result, timings } = await withDeadline(
      c.pipeline.run(frame, work.persons),
      deadlineMs,
      () =>
        new EngineError(
          'ERR_DEADLINE',
          `the frame's runs took longer than run_deadline_ms (${deadlineMs} ms)`,
        ),
    );
    host.recovery.succeeded();
    const header = work.frame.header;
    const built = performance.now();
    const out = c.outputs.build(result, header, frame.width, frame.height);
    const sending = performance.now();
    out.send();
    const published = performance.now();
    const latency = host.clock.msSince(header.stamp);
    c.view.annotate(out.sent, frame.width, frame.height);
    const s = host.stats;
    s.processed++;
    s.published++;
    // From here on the frame only feeds the 3D outputs and the views: its 2D timings are complete.
    s.sample('dds_in', latency - (published - work.frame.receivedAt));
    s.sample('intake', work.postedAt - work.frame.receivedAt);
    s.sample('mailbox_wait', taken - work.postedAt);
    s.sample('decode', decoded - taken);
    s.sample('engine_queue', timings.queueMs);
    s.sample('preprocess', timings.preprocessMs);
    s.sample('inference', timings.inferenceMs);
    s.sample(
      'engine_return',
      timings.engineMs - timings.queueMs - timings.preprocessMs - timings.inferenceMs,
    );
    s.sample('head', timings.headMs);
    s.sample('message_build', sending - built);
    s.sample('publish', published - sending);
    s.sample('stamp_to_publish', latency);
    s.sample('callback_to_publish', published - work.frame.receivedAt);
    const depth = host.depth();
    if (c.spatial && depth) {
      const started = performance.now();
      c.spatial.publish(
        result,
        header,
        frame.width,
        frame.height,
        depth.lease,
        depth.settings.slopMs,
        { range: depth.settings.range, keypointMinScore: KEYPOINT_MIN_SCORE },
        c.config.tracking,
        depth.target,
      );
      s.sample('depth', performance.now() - started);
    }
    if (result.task === 'detect' && host.pipelines.followed(host.name)) {
      host.pipelines.handOver(host.name, {
        frame: work.frame,
        persons: {
          detections: result.detections,
          classNames: c.pipeline.model.manifest.classNames,
          detector: c.pipeline.name,
        },
      });
    }
    c.view.show(frame, result, header, latency);
  } catch (e) {
    // A frame the engine or a head refuses is counted and reported; the node carries on.
    const kind =
      (e as { code?: unknown }).code !== undefined
        ? String((e as { code: unknown }).code)
        : e instanceof Error
          ? e.name
          : 'Error';
    const message = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
    host.stats.fail(kind, message);
    // The recovery says it once per episode; per frame would flood the log.
    if (isEngineFailure(e)) host.recovery.failed(e);
    else host.warnings.report(kind, `frame not processed: ${message}`);
  }
}
