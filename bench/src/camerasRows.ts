/**
 * bench:cameras' figures from what a run measured (pure, unit-tested apart from the processes):
 * per camera frames in / processed / dropped and stamp-to-result latency; per configuration the
 * process's CPU per camera-frame, RSS, native memory; across N, RSS per added camera and CPU per
 * camera-frame against N = 1.
 */
import { percentile } from '../../src/index';

/**
 * How the cameras are served: one node with `cameras` (one session, one frame per run), the same
 * with a batch-N model (the cameras' frames in one run), or a pipeline per camera.
 */
export type CamerasMode = 'shared' | 'batched' | 'per-camera';
/** The HTP stand-in (inference costs ~0: what the node itself costs) or a real detector on the CPU. */
export type CamerasBackend = 'htp-standin' | 'cpu-yolo11n';

export interface CameraMeasure {
  readonly camera: string;
  /** Frames its publisher sent during the measured window. */
  readonly sent: number;
  /** Results of its frames received during the window. */
  readonly processed: number;
  /** Stamp-to-arrival of each result, ms. */
  readonly latencyMs: readonly number[];
}

export interface ConfigMeasure {
  readonly backend: CamerasBackend;
  readonly mode: CamerasMode;
  readonly cameras: readonly CameraMeasure[];
  /** The 30 Hz phase, s (frames in and processed are counted over it). */
  readonly phaseS: number;
  /** The process's user + system CPU over the window after the warm-up, ms. */
  readonly cpuMs: number;
  readonly windowS: number;
  /** Results of every camera that arrived in that window: what cpuMs paid for. */
  readonly resultsInWindow: number;
  /** RSS with every model loaded, before any frame, and at the window's end, MB. */
  readonly rssLoadedMb: number;
  readonly rssEndMb: number;
  /** malloc in use + ONNX Runtime arenas at the end (the node's diagnostics), MB; NaN unknown. */
  readonly nativeMb: number;
  /** Model sessions the process holds (its diagnostics: model_sessions, or one per pipeline). */
  readonly modelSessions: number;
  /** Batched: frames per run on average (its diagnostics: frames_per_batched_run); else NaN. */
  readonly framesPerRun: number;
}

export interface CamerasRow {
  readonly backend: CamerasBackend;
  readonly mode: CamerasMode;
  readonly n: number;
  readonly sent: number;
  readonly processed: number;
  readonly dropped: number;
  readonly processed_hz: number;
  readonly latency_ms_p50: number;
  readonly latency_ms_p95: number;
  readonly cpu_ms_per_camera_frame: number;
  readonly cpu_percent_of_one_core: number;
  readonly rss_loaded_mb: number;
  readonly rss_end_mb: number;
  readonly native_mb: number;
  readonly model_sessions: number;
  readonly frames_per_run: number;
  readonly per_camera: readonly {
    readonly camera: string;
    readonly sent: number;
    readonly processed: number;
    readonly dropped: number;
    readonly latency_ms_p50: number;
    readonly latency_ms_p95: number;
  }[];
}

const round = (v: number, digits = 2): number =>
  Number.isFinite(v) ? Math.round(v * 10 ** digits) / 10 ** digits : NaN;

export function camerasRow(m: ConfigMeasure): CamerasRow {
  const sent = m.cameras.reduce((t, c) => t + c.sent, 0);
  const processed = m.cameras.reduce((t, c) => t + c.processed, 0);
  const all = m.cameras.flatMap((c) => [...c.latencyMs]);
  return {
    backend: m.backend,
    mode: m.mode,
    n: m.cameras.length,
    sent,
    processed,
    dropped: Math.max(0, sent - processed),
    processed_hz: round(processed / m.phaseS, 1),
    latency_ms_p50: round(all.length ? percentile(all, 50) : NaN),
    latency_ms_p95: round(all.length ? percentile(all, 95) : NaN),
    cpu_ms_per_camera_frame: round(m.resultsInWindow > 0 ? m.cpuMs / m.resultsInWindow : NaN),
    cpu_percent_of_one_core: round((100 * m.cpuMs) / (m.windowS * 1000), 1),
    rss_loaded_mb: round(m.rssLoadedMb, 1),
    rss_end_mb: round(m.rssEndMb, 1),
    native_mb: round(m.nativeMb, 1),
    model_sessions: m.modelSessions,
    frames_per_run: m.mode === 'batched' ? round(m.framesPerRun) : 1,
    per_camera: m.cameras.map((c) => ({
      camera: c.camera,
      sent: c.sent,
      processed: c.processed,
      dropped: Math.max(0, c.sent - c.processed),
      latency_ms_p50: round(c.latencyMs.length ? percentile([...c.latencyMs], 50) : NaN),
      latency_ms_p95: round(c.latencyMs.length ? percentile([...c.latencyMs], 95) : NaN),
    })),
  };
}

export interface CamerasGrowth {
  readonly backend: CamerasBackend;
  readonly mode: CamerasMode;
  /** (RSS at the largest N - RSS at the smallest) / the cameras added, loaded and at the end. */
  readonly rss_loaded_mb_per_added_camera: number;
  readonly rss_end_mb_per_added_camera: number;
  /** CPU per camera-frame at each N over its value at the smallest N. */
  readonly cpu_per_camera_frame_vs_first: Readonly<Record<string, number>>;
}

/** Per backend and mode: what each added camera costs, from the smallest to the largest N. */
export function camerasGrowth(rows: readonly CamerasRow[]): CamerasGrowth[] {
  const out: CamerasGrowth[] = [];
  const keys = [...new Set(rows.map((r) => `${r.backend}|${r.mode}`))];
  for (const key of keys) {
    const of = rows.filter((r) => `${r.backend}|${r.mode}` === key).sort((a, b) => a.n - b.n);
    const first = of[0]!;
    const last = of[of.length - 1]!;
    const added = last.n - first.n;
    const ratio: Record<string, number> = {};
    for (const r of of) {
      ratio[String(r.n)] = round(r.cpu_ms_per_camera_frame / first.cpu_ms_per_camera_frame);
    }
    out.push({
      backend: first.backend,
      mode: first.mode,
      rss_loaded_mb_per_added_camera:
        added > 0 ? round((last.rss_loaded_mb - first.rss_loaded_mb) / added, 1) : NaN,
      rss_end_mb_per_added_camera:
        added > 0 ? round((last.rss_end_mb - first.rss_end_mb) / added, 1) : NaN,
      cpu_per_camera_frame_vs_first: ratio,
    });
  }
  return out;
}
