/**
 * A perception node's frame path, apart from its lifecycle and parameters: take the newest frame
 * from the mailbox, run the pipeline, publish the result messages, time every stage, place the
 * result in space when depth is on, hand detections to the pipelines that follow this one, then
 * feed the operator views. A frame that fails is counted and reported; the loop carries on. Runs
 * that fail in the engine or pass run_deadline_ms go to the node's AcceleratorRecovery.
 */
import type * as Rclnodejs from 'rclnodejs';
import type { DepthSettings, PerceptionConfig } from '../../config/perceptionConfig';
import type {
  FrameOutcome,
  PerceptionPipeline,
  PersonInput,
} from '../../pipeline/perceptionPipeline';
import type { Frame } from '../../core/frame';
import type { CameraFrame } from '../../ros/cameraFrame';
import type { DepthLease } from '../../ros/depthHub';
import { KEYPOINT_MIN_SCORE } from '../../ros/imageAnnotations';
import type { LatencyClock } from '../../ros/latencyClock';
import type { ThrottledLog } from '../../ros/throttledLog';
import { EngineError } from '../../core/engineError';
import { withDeadline } from '../../util/withDeadline';
import { type AcceleratorRecovery, isEngineFailure } from './acceleratorRecovery';
import type { CameraChannel } from './cameraChannel';
import type { CameraMailboxes, TakenFrame } from './cameraMailboxes';
import type { BatchedRuns } from './batchedRuns';
import type { FormatChange } from './nodeStats';
import type { PipelineRegistry } from './pipelineRegistry';
import type { TargetFrame } from './spatialOutputs';

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
  /** Each camera's outputs and counters, by camera ('' for a node's single camera). */
  readonly channels: ReadonlyMap<string, CameraChannel>;
}

/** The node's side of the frame path: its clock, counters, registry and live depth settings. */
export interface FrameRunnerHost {
  readonly node: Rclnodejs.Node;
  /** The node's clock for the latency figures (read once a second, see latencyClock.ts). */
  readonly clock: LatencyClock;
  readonly name: string;
  readonly warnings: ThrottledLog;
  /** INFO lines that a misbehaving input could repeat per frame (a format that keeps changing). */
  readonly notices: ThrottledLog;
  readonly pipelines: PipelineRegistry;
  /** `camera`'s depth lease of the current activation and the depth_* values now. */
  depth(camera: string):
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
  /** batch_window_ms now. */
  batchWindowMs(): number;
  /** The batched runs of this activation, counted for the diagnostics. */
  readonly batches: BatchedRuns;
}

/**
 * Runs frames until the mailboxes close and the run in flight is done, on the node's one session,
 * the camera waiting longest first (CameraMailboxes): one frame per run, or with a batch-N model
 * the frames of up to N cameras in one run (waiting up to batch_window_ms for them).
 */
export async function runFrames(
  mailboxes: CameraMailboxes<FrameWork>,
  c: FrameOutputs,
  host: FrameRunnerHost,
): Promise<void> {
  for (;;) {
    // Read per round: after an accelerator failure the pipeline's models are reloaded.
    const batch = c.pipeline.batch;
    if (batch > 1) {
      const taken = await mailboxes.takeBatch(batch, host.batchWindowMs());
      if (taken.length === 0) return;
      await processBatch(taken, c, host);
      continue;
    }
    const taken = await mailboxes.take();
    if (!taken) return;
    const channel = c.channels.get(taken.camera);
    if (channel) await processFrame(taken.item, channel, c, host);
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

/** A frame decoded and checked, ready for the engine. */
interface Prepared {
  readonly work: FrameWork;
  readonly ch: CameraChannel;
  readonly frame: Frame;
  readonly taken: number;
  readonly decoded: number;
}

async function processFrame(
  work: FrameWork,
  ch: CameraChannel,
  c: FrameOutputs,
  host: FrameRunnerHost,
): Promise<void> {
  // A broken engine takes no frame until its sessions are re-created (acceleratorRecovery.ts).
  if (!host.recovery.admit()) return;
  const p = await prepare(work, ch, c, host);
  if (!p) return;
  try {
    const outcome = await withRunDeadline(c.pipeline.run(p.frame, work.persons, ch.camera), host);
    host.recovery.succeeded();
    publish(p, outcome, c, host);
  } catch (e) {
    failed(ch, e, host);
  }
}

/**
 * Frames of several cameras as one batched run: each decoded and checked on its own (a camera's
 * bad frame stays its own fault), the good ones run together, each result published by its own
 * camera. An engine failure is the shared session's: handled once, counted by every camera in
 * the run.
 */
async function processBatch(
  taken: readonly TakenFrame<FrameWork>[],
  c: FrameOutputs,
  host: FrameRunnerHost,
): Promise<void> {
  if (!host.recovery.admit()) return;
  const ready: Prepared[] = [];
  for (const t of taken) {
    const ch = c.channels.get(t.camera);
    const p = ch ? await prepare(t.item, ch, c, host) : undefined;
    if (p) ready.push(p);
  }
  if (ready.length === 0) return;
  let outcomes: FrameOutcome[];
  try {
    outcomes = await withRunDeadline(
      c.pipeline.runBatch(ready.map((p) => ({ frame: p.frame, camera: p.ch.camera }))),
      host,
    );
    host.recovery.succeeded();
  } catch (e) {
    for (const p of ready) failed(p.ch, e, host, p !== ready[0]);
    return;
  }
  host.batches.count(ready.length);
  ready.forEach((p, i) => {
    try {
      publish(p, outcomes[i]!, c, host);
    } catch (e) {
      failed(p.ch, e, host);
    }
  });
}

/** Decodes the frame and notes a change of format; a frame that cannot be decoded is counted. */
async function prepare(
  work: FrameWork,
  ch: CameraChannel,
  c: FrameOutputs,
  host: FrameRunnerHost,
): Promise<Prepared | undefined> {
  const camera = ch.camera;
  try {
    const taken = performance.now();
    const frame = await work.frame.pixels();
    const decoded = performance.now();
    // The engine plans each frame's resize from the frame itself (native PlanResize, the padding
    // compared per call), so a camera that changed size needs nothing here but new tracks: the
    // tracks' boxes are in the old size's pixels and would match nothing for track_buffer frames.
    const before = ch.stats.inputFormat;
    const change = ch.stats.noteFormat(frame.width, frame.height, frame.encoding);
    if (change === 'resized') c.pipeline.resetTracking(camera);
    if (change !== 'same') {
      const notice = formatNotice(ch.stats.inputFormat, before, change, work.frame);
      host.notices.report(
        `input_format ${camera}`,
        camera ? `camera ${camera}: ${notice}` : notice,
      );
    }
    return { work, ch, frame, taken, decoded };
  } catch (e) {
    failed(ch, e, host);
    return undefined;
  }
}

function withRunDeadline<T>(run: Promise<T>, host: FrameRunnerHost): Promise<T> {
  const deadlineMs = host.runDeadlineMs();
  return withDeadline(
    run,
    deadlineMs,
    () =>
      new EngineError(
        'ERR_DEADLINE',
        `the frame's runs took longer than run_deadline_ms (${deadlineMs} ms)`,
      ),
  );
}

/** A frame's result out: messages, stage timings, 3D, the pipelines that follow, the views. */
function publish(p: Prepared, outcome: FrameOutcome, c: FrameOutputs, host: FrameRunnerHost): void {
  const { work, ch, frame, taken, decoded } = p;
  const camera = ch.camera;
  const { result, timings } = outcome;
  const header = work.frame.header;
  const built = performance.now();
  const out = ch.outputs.build(result, header, frame.width, frame.height);
  const sending = performance.now();
  out.send();
  const published = performance.now();
  const latency = host.clock.msSince(header.stamp);
  ch.view.annotate(out.sent, frame.width, frame.height);
  const s = ch.stats;
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
  const depth = host.depth(camera);
  if (ch.spatial && depth) {
    const started = performance.now();
    ch.spatial.publish(
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
      camera,
      frame: work.frame,
      persons: {
        detections: result.detections,
        classNames: c.pipeline.model.manifest.classNames,
        detector: c.pipeline.name,
      },
    });
  }
  ch.view.show(frame, result, header, latency);
}

/**
 * A frame the engine or a head refuses is counted and reported; the node carries on. An engine
 * failure goes to the recovery (once per batch: `sameRun` for the batch's other frames).
 */
function failed(ch: CameraChannel, e: unknown, host: FrameRunnerHost, sameRun = false): void {
  const kind =
    (e as { code?: unknown }).code !== undefined
      ? String((e as { code: unknown }).code)
      : e instanceof Error
        ? e.name
        : 'Error';
  const message = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
  ch.stats.fail(kind, message);
  if (sameRun) return;
  // The recovery says it once per episode; per frame would flood the log.
  if (isEngineFailure(e)) host.recovery.failed(e);
  else host.warnings.report(kind, `frame not processed: ${message}`);
}
