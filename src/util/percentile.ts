/** The p-th percentile (0..100) of `values` by nearest rank; NaN when there are none. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  // A typed copy sorts numerically in native code; a comparator sort of a JS array was a visible
  // part of a node's 1 Hz report (two percentiles of 300 samples per stage).
  return percentileOfSorted(Float64Array.from(values).sort(), p);
}

/** The p-th percentile (0..100) of values already sorted ascending; NaN when there are none. */
export function percentileOfSorted(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN;
  const idx = Math.min(sorted.length - 1, Math.max(0, Math.round((p / 100) * (sorted.length - 1))));
  return sorted[idx]!;
}
