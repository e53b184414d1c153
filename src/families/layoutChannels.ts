import type { IssueSink } from './modelFamily';

/** A 4-D output as a manifest declares it: its dims in its layout. */
interface LayoutTensor {
  readonly dims: readonly number[];
  readonly layout: 'NCHW' | 'NHWC';
}

/** The channel count of a 4-D tensor: dims[1] in NCHW, dims[3] in NHWC. */
export function channelsOf(t: LayoutTensor): number | undefined {
  return t.layout === 'NCHW' ? t.dims[1] : t.dims[3];
}

/**
 * The consistency check every one-map-per-channel output (logits, heatmaps, probability) starts
 * with: its channel count, or undefined once `expected rank 4, got N` is reported at
 * outputs.<field>.dims.
 */
export function rank4Channels(
  t: LayoutTensor,
  field: string,
  issue: IssueSink,
): number | undefined {
  if (t.dims.length !== 4) {
    issue(['outputs', field, 'dims'], `expected rank 4, got ${t.dims.length}`);
    return undefined;
  }
  return channelsOf(t);
}
