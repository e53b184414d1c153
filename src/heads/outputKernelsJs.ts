import type { PlanePeaks, RemapLabels, YoloBestClasses, ZeroedBytes } from '../core/outputKernels';

/** The heads' own PlanePeaks: one contiguous scan per plane. */
export const planePeaksJs: PlanePeaks = (data, planeSize) => {
  const planes = Math.floor(data.length / planeSize);
  const out = new Float64Array(2 * planes);
  for (let k = 0; k < planes; k++) {
    let best = -Infinity;
    let bi = 0;
    const base = k * planeSize;
    const end = base + planeSize;
    for (let i = base; i < end; i++) {
      const v = data[i]!;
      if (v > best) {
        best = v;
        bi = i - base;
      }
    }
    out[2 * k] = best;
    out[2 * k + 1] = bi;
  }
  return out;
};

/** The heads' own ZeroedBytes: a new array every time. */
export const zeroedBytesJs: ZeroedBytes = (size) => new Uint8Array(size);

/** The heads' own RemapLabels: a row that samples the grid row above it is a copy of it. */
export const remapLabelsJs: RemapLabels = (grid, gridWidth, rows, cols, out) => {
  const width = cols.length;
  let u0 = 0;
  while (u0 < width && cols[u0]! < 0) u0++;
  let u1 = u0;
  while (u1 < width && cols[u1]! >= 0) u1++;
  let previous = -1;
  for (let v = 0; v < rows.length; v++) {
    const r = rows[v]!;
    if (r < 0) {
      previous = -1;
      continue;
    }
    const dst = v * width;
    if (r === previous) {
      out.copyWithin(dst + u0, dst - width + u0, dst - width + u1);
      continue;
    }
    const src = r * gridWidth;
    for (let u = u0; u < u1; u++) out[dst + u] = grid[src + cols[u]!]!;
    previous = r;
  }
};

const f32 = new Float32Array(1);
const f32Bits = new Int32Array(f32.buffer);

/** The largest float32 not above `t`: a float32 score beats it exactly when it beats `t`. */
function float32AtMost(t: number): number {
  f32[0] = t;
  if (f32[0]! <= t) return f32[0]!;
  // Rounded up: step one float32 towards -Infinity (the bit pattern's magnitude grows below 0).
  f32Bits[0] = f32Bits[0]! + (f32[0]! > 0 ? -1 : 1);
  return f32[0]!;
}

/**
 * The heads' own YoloBestClasses: each class channel scanned in memory order (contiguous for the
 * usual channels-first [1, 4 + C, N] layout) instead of striding across the channels anchor by
 * anchor, the running best per anchor kept in the output arrays, then compacted. The same
 * comparisons in the same class order, so the same winner. Starting from the threshold instead of
 * -Infinity gives the same winners for the anchors kept (the best class is the best of those
 * above it) and leaves the others without a class: most anchors of a frame never store anything.
 */
export const yoloBestClassesJs: YoloBestClasses = (
  data,
  n,
  numClasses,
  cs,
  as,
  threshold,
  anchors,
  classes,
  scores,
) => {
  scores.fill(float32AtMost(threshold), 0, n);
  classes.fill(-1, 0, n);
  for (let c = 0; c < numClasses; c++) {
    const off = (4 + c) * cs;
    for (let a = 0; a < n; a++) {
      const v = data[off + a * as]!;
      if (v > scores[a]!) {
        scores[a] = v;
        classes[a] = c;
      }
    }
  }
  let count = 0;
  for (let a = 0; a < n; a++) {
    const c = classes[a]!;
    if (c < 0) continue;
    anchors[count] = a;
    classes[count] = c;
    scores[count] = scores[a]!;
    count++;
  }
  return count;
};
