import { percentile } from '../../src/index';

/** One result message of a pipeline: when it arrived and how old its image was (ms). */
export interface LatencyReading {
  readonly t_s: number;
  readonly latency_ms: number;
}

/** p50 / p95 of one pipeline's stamp-to-arrival latency over one window of the run. */
export interface LatencyWindow {
  readonly from_s: number;
  readonly to_s: number;
  readonly messages: number;
  readonly p50_ms: number;
  readonly p95_ms: number;
}

const round = (v: number, digits = 1): number => Number(v.toFixed(digits));

/**
 * Latency per window of `windowS` seconds (the 5 minutes), from the first reading to
 * `endS`: a drift shows as p50 / p95 rising window after window. A window without messages
 * reports NaN percentiles and 0 messages rather than disappearing.
 */
export function latencyWindows(
  readings: readonly LatencyReading[],
  windowS: number,
  endS: number,
): LatencyWindow[] {
  const out: LatencyWindow[] = [];
  for (let from = 0; from < endS; from += windowS) {
    const to = Math.min(endS, from + windowS);
    const v = readings.filter((r) => r.t_s >= from && r.t_s < to).map((r) => r.latency_ms);
    out.push({
      from_s: from,
      to_s: round(to, 0),
      messages: v.length,
      p50_ms: v.length ? round(percentile(v, 50)) : NaN,
      p95_ms: v.length ? round(percentile(v, 95)) : NaN,
    });
  }
  return out;
}

/**
 * How much p50 and p95 moved from the first full window after warm-up to the last one, in percent
 * of the first (positive: slower at the end). Undefined with fewer than two such windows.
 */
export function latencyDrift(
  windows: readonly LatencyWindow[],
  warmupS: number,
): { readonly p50_pct: number; readonly p95_pct: number } | undefined {
  const full = windows.filter((w) => w.from_s >= warmupS && w.messages > 0);
  if (full.length < 2) return undefined;
  const a = full[0]!;
  const b = full[full.length - 1]!;
  return {
    p50_pct: round(((b.p50_ms - a.p50_ms) / a.p50_ms) * 100),
    p95_pct: round(((b.p95_ms - a.p95_ms) / a.p95_ms) * 100),
  };
}

/** A pipeline's frame counters from its diagnostics (numbers as the node reports them). */
export interface FrameCounts {
  readonly received: number;
  readonly processed: number;
  readonly published: number;
  readonly dropped_stale: number;
  readonly dropped_engine_down: number;
  readonly bad_frames: number;
  readonly errors: number;
}

/** The counters out of a DiagnosticStatus' values; a missing key counts 0. */
export function frameCounts(values: ReadonlyMap<string, string>): FrameCounts {
  const n = (k: string): number => Number(values.get(k) ?? 0) || 0;
  return {
    received: n('received'),
    processed: n('processed'),
    published: n('published'),
    dropped_stale: n('dropped_stale'),
    dropped_engine_down: n('dropped_engine_down'),
    bad_frames: n('bad_frames'),
    errors: n('errors'),
  };
}
