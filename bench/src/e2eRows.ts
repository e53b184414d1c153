import { STAGES, percentile, type Stage } from '../../src/index';

/**
 * The node's stages as diagnostics name them (`<stage>_ms_p50`), in the order a frame meets them:
 * all of NodeStats' but the two spans (stamp_to_publish, callback_to_publish), which cover the
 * others, and `depth`, which comes after the 2D publish (bench:depth measures it).
 */
export type NodeStage = Exclude<Stage, NodeSpan | 'depth'>;
export type NodeSpan = 'stamp_to_publish' | 'callback_to_publish';
const NOT_ON_THE_2D_PATH: readonly Stage[] = ['stamp_to_publish', 'callback_to_publish', 'depth'];
export const NODE_STAGES: readonly NodeStage[] = STAGES.filter(
  (s): s is NodeStage => !NOT_ON_THE_2D_PATH.includes(s),
);

/**
 * fp32 / int8: the real detector on the CPU provider. htp-standin: a graph with the detector's
 * input and output that computes nothing (bench/src/htpStandinModel.ts), so inference costs ~0 as
 * on the HTP and the row shows what the node itself costs. htp-standin-container: three stand-in
 * pipelines in one perception_container on one camera (detector, top-down pose on its five people,
 * segmentation); its CPU is the whole process's per camera frame.
 */
export type E2ePrecision = 'fp32' | 'int8' | 'htp-standin' | 'htp-standin-container';

/**
 * The floor at one resolution: a bare rclnodejs node (bench/src/floorProbe.ts) that takes the
 * camera topic raw and publishes a detections-sized message at once, paced like the node's rows.
 */
export interface FloorRun {
  /** Image stamp -> the probe's publish (stamp -> callback, a header read, the encoding), ms. */
  readonly inMs: readonly number[];
  /** The probe's publish -> the receiver's callback, ms. */
  readonly outMs: readonly number[];
  /** Image stamp -> the receiver's callback, per frame, ms. */
  readonly totalMs: readonly number[];
  /** The probe process's user + system CPU at 30 Hz after the warm-up, ms, and its messages. */
  readonly cpuMs: number;
  readonly cpuFrames: number;
  /** Where in the 30 Hz phase that reading started and ended, s. */
  readonly cpuWindowS: readonly [number, number];
  /** The same CPU by thread name, as NodeRun.rateThreadCpuMs. */
  readonly threadCpuMs: ReadonlyArray<readonly [string, number]>;
}

export interface FloorFigures {
  readonly floor_ms_p50: number;
  readonly floor_in_ms_p50: number;
  readonly floor_out_ms_p50: number;
  /** The bare node's CPU per frame at 30 Hz: what any rclnodejs node's process pays. */
  readonly floor_cpu_ms_per_frame: number | null;
  readonly floor_cpu_ms_per_frame_by_thread: Readonly<Record<string, number>>;
  /** As node_cpu_window_s, for the floor's reading. */
  readonly floor_cpu_window_s: readonly [number, number];
}

/** What one resolution x precision of the node gave. */
export interface NodeRun {
  readonly width: number;
  readonly height: number;
  readonly precision: E2ePrecision;
  /** Paced: image stamp -> detections received, per frame, ms. */
  readonly pacedE2eMs: readonly number[];
  /** Paced frames whose detections never came (DDS loss; best-effort input). */
  readonly pacedLost: number;
  /** 30 Hz phase. */
  readonly rateSent: number;
  readonly rateReceived: number;
  readonly rateSeconds: number;
  readonly rateE2eMs: readonly number[];
  /** The node's diagnostics right after the paced phase: `<stage>_ms_p50` values. */
  readonly nodeP50: Readonly<Record<NodeStage | NodeSpan, number>>;
  /** The node process's user + system CPU in the 30 Hz phase after its warm-up, ms ... */
  readonly rateCpuMs: number;
  /** ... and the detections received over the same span ... */
  readonly rateCpuFrames: number;
  /** ... which started and ended this far into the phase, s. */
  readonly rateCpuWindowS: readonly [number, number];
  /** The same CPU split by thread name (main, DDS, engine worker, V8 helpers), largest first. */
  readonly rateThreadCpuMs: ReadonlyArray<readonly [string, number]>;
  /** The node process's minor page faults over the span of rateCpuMs. */
  readonly rateMinorFaults: number;
  /** The node process's RSS at the end of the 30 Hz phase, MB. */
  readonly rssMb: number;
  /** 1-minute load average when the row started (the machine is shared). */
  readonly loadAvg: number;
}

/** Ultralytics predict(), one image per call: wall time and its own per-stage speed, ms. */
export interface UltralyticsRun {
  readonly total_ms: readonly number[];
  readonly preprocess_ms: readonly number[];
  readonly inference_ms: readonly number[];
  readonly postprocess_ms: readonly number[];
}

export interface UltralyticsFigures {
  readonly total_ms_p50: number;
  readonly preprocess_ms_p50: number;
  readonly inference_ms_p50: number;
  readonly postprocess_ms_p50: number;
}

export interface E2eRow {
  readonly resolution: string;
  readonly precision: E2ePrecision;
  readonly paced_frames: number;
  readonly paced_lost: number;
  readonly e2e_ms_p50: number;
  readonly e2e_ms_p95: number;
  /** The engine's inference p50 (ONNX Runtime Run), from the node's diagnostics, same frames. */
  readonly engine_ms_p50: number;
  /** e2e_ms_p50 - engine_ms_p50: everything around the model. */
  readonly overhead_ms_p50: number;
  /** overhead_ms_p50 / engine_ms_p50. */
  readonly overhead_ratio: number;
  /** Detections received per second while the camera publishes at 30 Hz. */
  readonly fps_30hz: number;
  readonly sent_hz_30hz: number;
  readonly e2e_30hz_ms_p50: number;
  readonly stages_ms_p50: Readonly<Record<NodeStage, number>>;
  /** The node's own span per frame, DDS callback -> publish returned (one sample per frame). */
  readonly node_stages_ms_p50: number;
  /** The node process's user + system CPU per frame published, 30 Hz phase after its warm-up. */
  readonly node_cpu_ms_per_frame: number | null;
  /** The span of the 30 Hz phase that reading covers, [from, to] s. */
  readonly node_cpu_window_s: readonly [number, number];
  /** node_cpu_ms_per_frame split by thread name: where the CPU goes besides the main thread. */
  readonly node_cpu_ms_per_frame_by_thread: Readonly<Record<string, number>>;
  /** The node process's minor page faults per frame published, same span as its CPU. */
  readonly node_minor_faults_per_frame: number | null;
  /** The node process's RSS at the end of the 30 Hz phase, MB. */
  readonly node_rss_mb: number;
  /** What any rclnodejs node pays at this resolution (FloorRun), measured in the same run. */
  readonly floor_ms_p50: number | null;
  readonly floor_in_ms_p50: number | null;
  readonly floor_out_ms_p50: number | null;
  /** overhead_ms_p50 - floor_ms_p50: what only our node costs above that floor. */
  readonly overhead_above_floor_ms_p50: number | null;
  readonly floor_cpu_ms_per_frame: number | null;
  readonly floor_cpu_ms_per_frame_by_thread: Readonly<Record<string, number>>;
  readonly floor_cpu_window_s: readonly [number, number] | null;
  /** e2e minus the node's stages summed (p50s): the detections' way out (DDS, the receiver). */
  readonly dds_out_ms_p50: number;
  /** Ultralytics predict() with the .pt (FP32 weights in both precisions' rows). */
  readonly ultralytics_pt_ms_p50: number | null;
  /** Ultralytics predict() with the same ONNX file the node runs (the INT8 QDQ file on int8 rows). */
  readonly ultralytics_onnx_ms_p50: number | null;
  readonly ultralytics_pt_stages_ms_p50: UltralyticsFigures | null;
  readonly ultralytics_onnx_stages_ms_p50: UltralyticsFigures | null;
  /** Only on the FP32 640x480 row: the .pt figure, the runtime most YOLO ROS nodes use. */
  readonly ultralytics_ms_p50?: number | null;
  readonly load_avg_1m: number;
}

const r2 = (v: number): number => Math.round(v * 100) / 100;

export function ultralyticsFigures(u: UltralyticsRun | undefined): UltralyticsFigures | null {
  if (!u || u.total_ms.length === 0) return null;
  return {
    total_ms_p50: r2(percentile(u.total_ms, 50)),
    preprocess_ms_p50: r2(percentile(u.preprocess_ms, 50)),
    inference_ms_p50: r2(percentile(u.inference_ms, 50)),
    postprocess_ms_p50: r2(percentile(u.postprocess_ms, 50)),
  };
}

/** CPU ms per thread name over `frames`, as a record (empty without frames). */
function perFrameByThread(
  threadCpuMs: ReadonlyArray<readonly [string, number]>,
  frames: number,
): Record<string, number> {
  return Object.fromEntries(frames > 0 ? threadCpuMs.map(([n, ms]) => [n, r2(ms / frames)]) : []);
}

export function floorFigures(f: FloorRun | undefined): FloorFigures | null {
  if (!f || f.totalMs.length === 0) return null;
  return {
    floor_ms_p50: r2(percentile(f.totalMs, 50)),
    floor_in_ms_p50: r2(percentile(f.inMs, 50)),
    floor_out_ms_p50: r2(percentile(f.outMs, 50)),
    floor_cpu_ms_per_frame: f.cpuFrames > 0 ? r2(f.cpuMs / f.cpuFrames) : null,
    floor_cpu_ms_per_frame_by_thread: perFrameByThread(f.threadCpuMs, f.cpuFrames),
    floor_cpu_window_s: [r2(f.cpuWindowS[0]), r2(f.cpuWindowS[1])],
  };
}

export function e2eRow(
  run: NodeRun,
  pt: UltralyticsRun | undefined,
  onnx: UltralyticsRun | undefined,
  floor?: FloorRun,
): E2eRow {
  if (run.pacedE2eMs.length === 0) {
    throw new Error(`${run.width}x${run.height} ${run.precision}: no paced frame came back`);
  }
  const e2e = percentile(run.pacedE2eMs, 50);
  const engine = run.nodeP50.inference;
  const stagesSum = NODE_STAGES.reduce((a, s) => a + run.nodeP50[s], 0);
  const ptF = ultralyticsFigures(pt);
  const onnxF = ultralyticsFigures(onnx);
  const resolution = `${run.width}x${run.height}`;
  const fl = floorFigures(floor);
  const overhead = e2e - engine;
  return {
    resolution,
    precision: run.precision,
    paced_frames: run.pacedE2eMs.length,
    paced_lost: run.pacedLost,
    e2e_ms_p50: r2(e2e),
    e2e_ms_p95: r2(percentile(run.pacedE2eMs, 95)),
    engine_ms_p50: r2(engine),
    overhead_ms_p50: r2(overhead),
    // The stand-in's inference is ~0: a ratio to it says nothing.
    overhead_ratio: run.precision.startsWith('htp-standin') ? 0 : r2(overhead / engine),
    fps_30hz: r2(run.rateReceived / run.rateSeconds),
    sent_hz_30hz: r2(run.rateSent / run.rateSeconds),
    e2e_30hz_ms_p50: r2(percentile(run.rateE2eMs, 50)),
    stages_ms_p50: Object.fromEntries(NODE_STAGES.map((s) => [s, r2(run.nodeP50[s])])) as Record<
      NodeStage,
      number
    >,
    dds_out_ms_p50: r2(e2e - stagesSum),
    node_stages_ms_p50: r2(run.nodeP50.callback_to_publish),
    node_cpu_ms_per_frame: run.rateCpuFrames > 0 ? r2(run.rateCpuMs / run.rateCpuFrames) : null,
    node_cpu_ms_per_frame_by_thread: perFrameByThread(run.rateThreadCpuMs, run.rateCpuFrames),
    node_cpu_window_s: [r2(run.rateCpuWindowS[0]), r2(run.rateCpuWindowS[1])],
    node_minor_faults_per_frame:
      run.rateCpuFrames > 0 ? r2(run.rateMinorFaults / run.rateCpuFrames) : null,
    node_rss_mb: r2(run.rssMb),
    floor_ms_p50: fl?.floor_ms_p50 ?? null,
    floor_in_ms_p50: fl?.floor_in_ms_p50 ?? null,
    floor_out_ms_p50: fl?.floor_out_ms_p50 ?? null,
    overhead_above_floor_ms_p50: fl ? r2(overhead - fl.floor_ms_p50) : null,
    floor_cpu_ms_per_frame: fl?.floor_cpu_ms_per_frame ?? null,
    floor_cpu_ms_per_frame_by_thread: fl?.floor_cpu_ms_per_frame_by_thread ?? {},
    floor_cpu_window_s: fl?.floor_cpu_window_s ?? null,
    ultralytics_pt_ms_p50: ptF?.total_ms_p50 ?? null,
    ultralytics_onnx_ms_p50: onnxF?.total_ms_p50 ?? null,
    ultralytics_pt_stages_ms_p50: ptF,
    ultralytics_onnx_stages_ms_p50: onnxF,
    ...(resolution === '640x480' && run.precision === 'fp32'
      ? { ultralytics_ms_p50: ptF?.total_ms_p50 ?? null }
      : {}),
    load_avg_1m: r2(run.loadAvg),
  };
}
