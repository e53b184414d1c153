import type { ArenaUsage, MallocUsage } from '../../core/memoryUsage';
import type { PerceptionPipeline } from '../../pipeline/perceptionPipeline';
import type { RecoveryStats } from './acceleratorRecovery';
import { DIAG_ERROR, DIAG_OK, DIAG_WARN, DiagnosticReport } from '../../ros/diagnosticsPublisher';
import type { DepthCounters } from '../../ros/depthIntake';
import type { IntakeCounters } from '../../ros/imageIntake';
import type { TransformCounters } from '../../ros/transformListener';
import type { PrimaryState } from '../../ros/managedNode';
import { type NodeStats, STAGES } from './nodeStats';
import type { OperatorViewStats } from '../operator/operatorView';
import type { SpatialStats } from './spatialOutputs';
import { type StaleInput, StaleInputs } from './staleInputs';

/** A node with `depth: true`: its depth input and what its 3D outputs did. */
export interface DepthDiagnostics {
  readonly depthTopic: string;
  readonly cameraInfoTopic: string;
  readonly counters: DepthCounters | undefined;
  readonly spatial: SpatialStats;
  /** '' = the camera's optical frame. */
  readonly targetFrame: string;
  readonly transforms: TransformCounters | undefined;
}

export interface NodeDiagnosticsInput {
  /** The camera reported on ('' for a node's single camera). */
  readonly camera: string;
  readonly state: PrimaryState;
  readonly transition: string | undefined;
  /** Reason of the last failed configure, shown while unconfigured. */
  readonly configureError: string;
  readonly model: string;
  readonly requestedProvider: 'cpu' | 'htp' | 'gpu';
  /** Where frames come from: a topic, or `pipeline <name>` for a person source. */
  readonly input: string;
  readonly pipeline: PerceptionPipeline | undefined;
  /** The engine's health and what on_accelerator_failure did (configured nodes). */
  readonly engine: RecoveryStats | undefined;
  readonly onAcceleratorFailure: string;
  readonly intake: IntakeCounters | undefined;
  readonly droppedStale: number;
  readonly stats: NodeStats;
  readonly view: OperatorViewStats | undefined;
  readonly depth: DepthDiagnostics | undefined;
  /** input_timeout_s now (0: the check is off). */
  readonly inputTimeoutS: number;
  /** Input topics silent for input_timeout_s (StaleInputs), image first. */
  readonly staleInputs: readonly StaleInput[];
  /** The process's memory (process.memoryUsage()): shared by the nodes of a container. */
  readonly memory: NodeJS.MemoryUsage;
  /** What glibc's malloc holds for the process (the addon's mallocUsage()); null off glibc. */
  readonly malloc: MallocUsage | null;
}

/** Summed over the node's models; empty until every model has run once. */
export function arenaValues(arenas: readonly (ArenaUsage | null)[]): Record<string, string> {
  const known = arenas.filter((a): a is ArenaUsage => a !== null);
  if (known.length === 0 || known.length < arenas.length) {
    return { engine_arena_reserved_mb: '', engine_arena_peak_mb: '', engine_arena_extensions: '' };
  }
  const sum = (f: (a: ArenaUsage) => number): number => known.reduce((t, a) => t + f(a), 0);
  return {
    engine_arena_reserved_mb: mb(sum((a) => a.reservedBytes)),
    engine_arena_peak_mb: mb(sum((a) => a.peakInUseBytes)),
    engine_arena_extensions: String(sum((a) => a.extensions)),
  };
}

const ms = (v: number): string => (Number.isFinite(v) ? v.toFixed(2) : '');
const mb = (bytes: number): string => (bytes / (1024 * 1024)).toFixed(1);

/**
 * One DiagnosticStatus per node, at 1 Hz: what a teleop operator or a health monitor needs to know
 * without a shell: lifecycle state, rates, drops, bad frames by reason, stage latencies, where each
 * model runs (node counts from ONNX Runtime), the power vote and errors by kind.
 */
export function nodeDiagnostics(d: NodeDiagnosticsInput): DiagnosticReport {
  const { stats, pipeline } = d;
  const { inputHz, outputHz } = stats.rates();
  const models = pipeline?.models ?? [];
  const power = pipeline?.model.session.power;
  const placement = Object.fromEntries(
    models.map((m) => [m.name, m.providerReport.nodesByProvider]),
  );
  const values: Record<string, string | number> = {
    lifecycle_state: d.transition ? `${d.state} (${d.transition} in progress)` : d.state,
    model: pipeline?.name ?? d.model,
    requested_provider: d.requestedProvider,
    // Where the models run now: the CPU after on_accelerator_failure cpu took over.
    running_provider: pipeline?.provider ?? '',
    // What the annotated image's badge says: the same words for the operator and the monitor.
    processor: d.view?.processor ?? '',
    engine_state: d.engine?.state ?? '',
    engine_failures: d.engine?.failures ?? 0,
    engine_recoveries: d.engine?.recoveries ?? 0,
    last_engine_failure: d.engine?.lastFailure ?? '',
    dropped_engine_down: d.engine?.droppedWhileBroken ?? 0,
    on_accelerator_failure: d.onAcceleratorFailure,
    nodes_by_provider: JSON.stringify(placement),
    // onnxruntime, or executorch for a program (.pte), per model.
    runtime: JSON.stringify(
      Object.fromEntries(models.map((m) => [m.name, m.providerReport.runtime])),
    ),
    // onnx (graph compiled at configure), context_cache (an ahead-of-time compiled binary) or
    // pte (an ExecuTorch program).
    model_source: JSON.stringify(
      Object.fromEntries(models.map((m) => [m.name, m.providerReport.modelSource])),
    ),
    cpu_int8_kernels: pipeline?.model.providerReport.cpuInt8Kernels ?? '',
    input: d.input,
    input_hz: inputHz.toFixed(2),
    output_hz: outputHz.toFixed(2),
    received: stats.received,
    processed: stats.processed,
    published: stats.published,
    dropped_stale: d.droppedStale,
    // The newest frame's size and encoding, and how often they changed (each change re-plans the
    // preprocessing on that frame and restarts tracking).
    input_format: stats.inputFormat,
    input_format_changes: stats.inputFormatChanges,
    input_timeout_s: d.inputTimeoutS,
    stale_inputs: d.staleInputs.map((s) => s.topic).join(', '),
    // Live tracks (tracking on): tracked = matched this frame, lost = kept for `track_buffer`
    // frames, tentative = seen once, not yet published. Empty when tracking is off.
    tracks_tracked: pipeline?.trackCounts(d.camera)?.tracked ?? '',
    tracks_lost: pipeline?.trackCounts(d.camera)?.lost ?? '',
    tracks_tentative: pipeline?.trackCounts(d.camera)?.tentative ?? '',
    // direct: each frame copied once out of DDS (our rclnodejs patch); serialized: rmw's two.
    intake_take: d.intake?.take ?? '',
    bad_frames: d.intake?.rejected ?? 0,
    bad_frames_by_reason: JSON.stringify(d.intake?.rejectedByCode ?? {}),
    // Lost by DDS before the take (empty where the RMW does not say): received + lost is what
    // reached this reader.
    lost: d.intake?.lost ?? '',
    errors: stats.failed,
    errors_by_kind: JSON.stringify(Object.fromEntries(stats.errorsByKind)),
    last_error: stats.lastFailure,
    power_state: power?.state ?? 'released',
    power_votes_up: power?.votesUp ?? 0,
    power_vote_failures: power?.voteFailures ?? 0,
    annotated_rendered: d.view?.annotated.rendered ?? 0,
    annotated_skipped: d.view?.annotated.skipped ?? 0,
    annotated_unwatched: d.view?.annotated.unwatched ?? 0,
    annotated_rate_limited: d.view?.annotated.rateLimited ?? 0,
    annotated_failed: d.view?.annotated.failed ?? 0,
    segmentation_color_published: d.view?.segmentationColor?.published ?? 0,
    segmentation_color_unwatched: d.view?.segmentationColor?.unwatched ?? 0,
    annotations_published: d.view?.annotations?.published ?? 0,
    annotations_unwatched: d.view?.annotations?.unwatched ?? 0,
    ...videoValues(d.view),
    ...(d.depth ? depthValues(d.depth) : {}),
    // Whole process: RSS, V8's heap, and buffers outside it (camera frames, tensors handed to JS).
    process_rss_mb: mb(d.memory.rss),
    process_js_heap_mb: mb(d.memory.heapTotal),
    process_array_buffers_mb: mb(d.memory.arrayBuffers),
    // Native memory by what holds it: in use, freed but kept by malloc, large blocks in mappings
    // of their own; and this node's ONNX Runtime arenas (reserved, most ever in use at once).
    process_malloc_in_use_mb: d.malloc ? mb(d.malloc.inUseBytes) : '',
    process_malloc_free_mb: d.malloc ? mb(d.malloc.freeBytes) : '',
    process_malloc_mmapped_mb: d.malloc ? mb(d.malloc.mmappedBytes) : '',
    ...arenaValues(models.map((m) => m.session.arenaUsage)),
  };
  // Over the last frames (NodeStats' window): what `npm run bench:e2e` reads per stage.
  for (const stage of STAGES) {
    values[`${stage}_ms_p50`] = ms(stats.percentile(stage, 50));
    values[`${stage}_ms_p95`] = ms(stats.percentile(stage, 95));
  }

  let level = DIAG_OK;
  let message = `${outputHz.toFixed(1)} fps`;
  if (d.state === 'unconfigured') {
    level = d.configureError ? DIAG_ERROR : DIAG_WARN;
    message = d.configureError ? `configure failed: ${d.configureError}` : 'unconfigured';
  } else if (d.engine?.state === 'stopped') {
    level = DIAG_ERROR;
    message = `${d.state}: ${d.engine.failedProvider} failed (${d.engine.lastFailure}); on_accelerator_failure stop`;
  } else if (d.state !== 'active') {
    message = d.state;
  } else if (d.engine && d.engine.state !== 'ok' && d.engine.state !== 'probing') {
    level = DIAG_ERROR;
    message = engineDownMessage(d.engine, d.onAcceleratorFailure);
  } else {
    const warnings = activeWarnings(d);
    if (warnings.length > 0) {
      level = DIAG_WARN;
      message = warnings.join('; ');
    }
  }
  return { level, message, values };
}

/**
 * Why an active node is not OK, most urgent first, every reason (a silent camera must not hide
 * behind the HTP fallback every board with a CPU decode tail reports, nor the reverse).
 */
function activeWarnings(d: NodeDiagnosticsInput): string[] {
  const out: string[] = [];
  const models = d.pipeline?.models ?? [];
  const fallback = models.find(
    (m) => d.requestedProvider === 'htp' && !m.providerReport.fullyAccelerated,
  );
  if (d.intake && d.intake.incompatiblePublishers.length > 0) {
    out.push(`incompatible publisher: ${d.intake.incompatiblePublishers[0]}`);
  }
  if (d.staleInputs.length > 0) {
    const stale = d.staleInputs.map(StaleInputs.message).join('; ');
    // Colour frames still come, without depth or CameraInfo: say what that costs. (With the
    // camera silent, the last frame's reason for no depth is old news.)
    const colourFlows = !d.staleInputs.some((s) => s.topic === d.input);
    out.push(
      d.depth?.spatial.lastMissing && colourFlows ? `${stale}: results go out in 2D only` : stale,
    );
  } else if (d.depth?.spatial.lastMissing) {
    out.push(
      `${NO_DEPTH_MESSAGE[d.depth.spatial.lastMissing](d.depth)}: results go out in 2D only`,
    );
  } else if (d.depth?.spatial.lastTransformError) {
    out.push(`${d.depth.spatial.lastTransformError}: results go out in 2D only`);
  }
  const onCpu = d.requestedProvider === 'htp' && d.pipeline?.provider === 'cpu';
  if (onCpu) out.push(cpuFallbackMessage(d.engine));
  if (fallback && !onCpu) {
    out.push(
      `HTP requested but ${fallback.providerReport.cpuNodes.length} graph nodes of ${fallback.name} run on the CPU`,
    );
  }
  if (models.some((m) => m.providerReport.cpuInt8Saturates)) {
    out.push('INT8 runs on CPU kernels that saturate on this CPU (no VNNI): accuracy suffers');
  }
  return out;
}

/** ERROR while the engine is broken: the provider, the failure, what happens next. */
function engineDownMessage(e: RecoveryStats, policy: string): string {
  const next =
    e.state === 'reloading'
      ? 're-creating the sessions'
      : e.nextAttemptInS !== undefined
        ? `re-creating the sessions in ${e.nextAttemptInS.toFixed(1)} s`
        : 'waiting';
  return `engine failed on ${e.failedProvider}: ${e.lastFailure}; on_accelerator_failure ${policy}: ${next}`;
}

/** WARN while the CPU runs what the accelerator failed at (on_accelerator_failure cpu). */
function cpuFallbackMessage(e: RecoveryStats | undefined): string {
  return `running on the CPU since the htp failed (on_accelerator_failure cpu; last failure: ${e?.lastFailure ?? ''})`;
}

const NO_DEPTH_MESSAGE: Readonly<
  Record<NonNullable<SpatialStats['lastMissing']>, (d: DepthDiagnostics) => string>
> = {
  no_camera_info: (d) => `no CameraInfo on ${d.cameraInfoTopic}`,
  bad_camera_info: (d) =>
    `unusable CameraInfo on ${d.cameraInfoTopic} (${d.counters?.lastError ?? ''})`,
  no_depth_yet: (d) => `no depth image on ${d.depthTopic}`,
  no_depth_in_slop: (d) =>
    `no depth image on ${d.depthTopic} within depth_slop_ms of the colour frames`,
};

function depthValues(d: DepthDiagnostics): Record<string, string | number> {
  return {
    depth_input: d.depthTopic,
    camera_info_input: d.cameraInfoTopic,
    depth_received: d.counters?.depthReceived ?? 0,
    depth_bad_frames: d.counters?.depthRejected ?? 0,
    depth_bad_frames_by_reason: JSON.stringify(d.counters?.depthRejectedByCode ?? {}),
    depth_lost: d.counters?.depthLost ?? '',
    camera_info_received: d.counters?.cameraInfoReceived ?? 0,
    camera_info_bad: d.counters?.cameraInfoRejected ?? 0,
    camera_info_bad_by_reason: JSON.stringify(d.counters?.cameraInfoRejectedByCode ?? {}),
    camera_info_lost: d.counters?.cameraInfoLost ?? '',
    frames_with_depth: d.spatial.framesWithDepth,
    frames_without_depth: Object.values(d.spatial.framesWithoutDepth).reduce((a, b) => a + b, 0),
    frames_without_depth_by_reason: JSON.stringify(d.spatial.framesWithoutDepth),
    detections_without_depth: d.spatial.detectionsWithoutDepth,
    markers_published: d.spatial.markers.published,
    markers_unwatched: d.spatial.markers.unwatched,
    // The frame of the 3D results, and what reaching it took: transforms taken from /tf and
    // /tf_static (process-wide) and frames left in 2D for want of one.
    target_frame: d.targetFrame,
    transforms_received: d.transforms?.received ?? '',
    transforms_refused: d.transforms?.refused ?? '',
    last_transform_refused: d.transforms?.refusedLast ?? '',
    frames_without_transform: Object.values(d.spatial.framesWithoutTransform).reduce(
      (a, b) => a + b,
      0,
    ),
    frames_without_transform_by_reason: JSON.stringify(d.spatial.framesWithoutTransform),
    last_transform_error: d.spatial.lastTransformError,
  };
}

/**
 * ~/annotated/foxglove: which encoder makes it (as the badge names the processor), what came
 * out, and what did not: pictures dropped while the encoder was busy (never a detection), failures
 * and hardware-to-software fallbacks. `video_encoder` says why there is no video where there is none.
 */
function videoValues(view: OperatorViewStats | undefined): Record<string, string | number> {
  const v = view?.video;
  if (!v) return { video_encoder: view ? `none: ${view.videoProblem}` : '' };
  return {
    video_encoder: v.encoder,
    video_encoder_library: v.encoderLibrary,
    video_hardware: v.hardware ? 'true' : 'false',
    video_frames: v.frames,
    video_keyframes: v.keyframes,
    video_bytes: v.bytes,
    video_dropped: v.dropped,
    video_unwatched: v.unwatched,
    video_joins: v.joins,
    video_held_for_join: v.heldForJoin,
    video_failures: v.failures,
    video_fallbacks: v.fallbacks,
    video_encoders_opened: v.opened,
    video_last_error: v.lastError,
    video_encode_cpu_ms_p50: v.cpuMsP50.toFixed(2),
    video_encode_cpu_ms_p95: v.cpuMsP95.toFixed(2),
  };
}

/** What a node-level status of a multi-camera node keeps: the shared session's, not a camera's. */
const SESSION_KEYS = [
  'lifecycle_state',
  'model',
  'requested_provider',
  'running_provider',
  'processor',
  'engine_state',
  'engine_failures',
  'engine_recoveries',
  'last_engine_failure',
  'dropped_engine_down',
  'on_accelerator_failure',
  'nodes_by_provider',
  'runtime',
  'model_source',
  'cpu_int8_kernels',
  'power_state',
  'power_votes_up',
  'power_vote_failures',
  'process_rss_mb',
  'process_js_heap_mb',
  'process_array_buffers_mb',
  'process_malloc_in_use_mb',
  'process_malloc_free_mb',
  'process_malloc_mmapped_mb',
  'engine_arena_reserved_mb',
  'engine_arena_peak_mb',
  'engine_arena_extensions',
];

/**
 * The node-level status of a node with `cameras`: its one session (model, where it runs, engine
 * health, power vote, memory: from `session`, a report built without a camera), how many model
 * sessions serve the cameras, whether their frames run batched (and the batched runs so far), and
 * each camera's rate; the worst camera's level, its reasons named
 * by camera. Each camera's own status (its input, drops, faults, tracks) is published beside it.
 */
export function sessionDiagnostics(
  session: DiagnosticReport,
  cameras: readonly { readonly camera: string; readonly report: DiagnosticReport }[],
  modelSessions: number,
  batching?: { readonly statement: string; readonly runs: number; readonly frames: number },
): DiagnosticReport {
  const values: Record<string, string | number | boolean> = {};
  for (const k of SESSION_KEYS) if (k in session.values) values[k] = session.values[k]!;
  values.cameras = cameras.map((c) => c.camera).join(', ');
  // One per model file loaded (the model, and a top-down model's own detector): not per camera.
  values.model_sessions = modelSessions;
  if (batching) {
    values.batching = batching.statement;
    values.batched_runs = batching.runs;
    values.frames_per_batched_run =
      batching.runs > 0 ? (batching.frames / batching.runs).toFixed(2) : '';
  }
  let inputHz = 0;
  let outputHz = 0;
  for (const c of cameras) {
    inputHz += Number(c.report.values.input_hz ?? 0);
    outputHz += Number(c.report.values.output_hz ?? 0);
    values[`${c.camera}_output_hz`] = c.report.values.output_hz ?? '';
  }
  values.input_hz = inputHz.toFixed(2);
  values.output_hz = outputHz.toFixed(2);
  const worst = Math.max(session.level, ...cameras.map((c) => c.report.level));
  const problems = cameras
    .filter((c) => c.report.level > DIAG_OK)
    .map((c) => `${c.camera}: ${c.report.message}`);
  let message = `${outputHz.toFixed(1)} fps over ${cameras.length} cameras`;
  if (session.level > DIAG_OK || session.values.lifecycle_state !== 'active') {
    message = session.message;
  } else if (problems.length > 0) {
    message = problems.join('; ');
  }
  return { level: worst, message, values };
}
