import type { PlanePeaks, RemapLabels } from '../core/outputKernels';

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
