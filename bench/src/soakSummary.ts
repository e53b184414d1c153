import { percentile } from '../../src/index';

/** One reading of the node process, `t` seconds after it was activated. */
export interface SoakSample {
  readonly t_s: number;
  readonly rss_mb: number;
  /** CPU time of the node process over the last interval, as a share of one core (100 = one). */
  readonly cpu_percent: number;
  /** Detections messages received over the last interval, per second. */
  readonly detections_per_s: number;
}

export interface SoakSummary {
  /** Median RSS over the minute after the first one (the "after a minute at 30 Hz"). */
  readonly rss_mb_after_1min: number;
  /** Median RSS over the minute right after the warm-up: the baseline growth is measured from. */
  readonly rss_mb_after_warmup: number;
  /** Median RSS over the last minute. */
  readonly rss_mb_end: number;
  readonly rss_mb_peak: number;
  /** (end - after warm-up) / after warm-up, in percent. */
  readonly growth_pct: number;
  readonly detections_per_s_median: number;
  readonly cpu_percent_median: number;
}

const median = (v: readonly number[]): number => (v.length === 0 ? NaN : percentile(v, 50));
const round = (v: number, digits = 2): number => Number(v.toFixed(digits));

/**
 * Memory over a soak: medians over one-minute windows (one reading more or less, or one garbage
 * collection, must not move the figure), growth from the end of the warm-up to the last minute.
 * Windows are cut to what the run has when it is shorter than warm-up plus two minutes.
 */
export function summarizeSoak(samples: readonly SoakSample[], warmupS: number): SoakSummary {
  if (samples.length === 0) throw new Error('no samples');
  const end = samples[samples.length - 1]!.t_s;
  const window = Math.min(60, Math.max(1, (end - warmupS) / 2));
  const within = (from: number, to: number): number[] =>
    samples.filter((s) => s.t_s >= from && s.t_s < to).map((s) => s.rss_mb);
  const firstMinute = within(Math.min(60, end - window), Math.min(60, end - window) + window);
  const afterWarmup = within(warmupS, warmupS + window);
  const last = within(end - window, end + 1);
  const base = median(afterWarmup);
  const final = median(last);
  return {
    rss_mb_after_1min: round(median(firstMinute)),
    rss_mb_after_warmup: round(base),
    rss_mb_end: round(final),
    rss_mb_peak: round(Math.max(...samples.map((s) => s.rss_mb))),
    growth_pct: round(((final - base) / base) * 100),
    detections_per_s_median: round(median(samples.map((s) => s.detections_per_s))),
    cpu_percent_median: round(median(samples.map((s) => s.cpu_percent)), 1),
  };
}
