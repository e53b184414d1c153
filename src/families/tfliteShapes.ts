/** Shape tests the TFLite layout recognizers share (converted models keep TFLite's NHWC). */
import type { ExportTensor } from './exportTensor';
import type { ObservedRange } from './modelFamily';

export function fixedDims(t: ExportTensor): number[] | undefined {
  return t.dims.every((d): d is number => typeof d === 'number' && d > 0) ? [...t.dims] : undefined;
}

export function sameDims(a: readonly number[] | undefined, b: readonly number[]): boolean {
  return a !== undefined && a.length === b.length && a.every((d, i) => d === b[i]);
}

/** [1, H, W, 3] float32: the NHWC RGB input both MediaPipe layouts take. */
export function nhwcImage(
  inputs: readonly ExportTensor[],
): { t: ExportTensor; h: number; w: number } | string {
  if (inputs.length !== 1) return `${inputs.length} inputs, not one`;
  const t = inputs[0] as ExportTensor;
  const d = fixedDims(t);
  if (d === undefined || d.length !== 4 || d[0] !== 1 || d[3] !== 3 || t.elemType !== 'float32') {
    return `input '${t.name}' is not float32 [1,H,W,3]`;
  }
  return { t, h: d[1] as number, w: d[2] as number };
}

export function within01(r: ObservedRange | undefined): boolean {
  // No observation (the caller has none): shapes decide alone.
  return r === undefined || (r.min >= 0 && r.max <= 1);
}
