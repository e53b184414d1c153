/**
 * How far away an object is, from the depth pixels of its box or mask: a robust statistic that
 * ignores what a box always contains besides the object (background, a wall behind a person),
 * holes (0 / NaN) and values outside the configured range.
 *
 * The statistic: valid samples (inside `range`) from the central half of the box (a box's middle
 * is mostly object, its corners mostly background), or from the whole box when the middle has too
 * few; sorted and split into surfaces wherever two neighbouring depths are further apart than the
 * sensor's noise could make them (5 cm, or 4 % of the depth); the surface with the most samples
 * wins (the nearer on a tie), and the object's depth is its median. A median of the whole box
 * takes the wall as soon as the wall fills half the box; the nearest surface takes any small
 * thing in front. With a mask, its pixels are sampled instead and the same surfaces are formed
 * (mask edges bleed onto the background).
 */
import type { Box, InstanceMask } from '../core/headResults';
import type { DepthImage } from './depthImage';

export interface DepthRange {
  /** Metres; samples outside [min, max] are not depth of anything we place. */
  readonly min: number;
  readonly max: number;
}

export interface ObjectDepth {
  /** Median depth of the chosen surface, metres along the optical axis. */
  readonly depth: number;
  /** 10th and 90th percentile of the chosen surface (its extent in depth). */
  readonly near: number;
  readonly far: number;
  /** Samples in the chosen surface, and valid samples looked at. */
  readonly samples: number;
  readonly validSamples: number;
}

/** Samples looked at per object at most (a grid over the region): bounded cost per detection. */
const MAX_SAMPLES = 1024;
/** Fewer valid samples than this in the middle of a box: sample the whole box. */
const MIN_SAMPLES = 16;

/** Maps colour-image pixels onto the depth image (same optical frame, any resolution). */
export class ColourToDepth {
  readonly sx: number;
  readonly sy: number;
  constructor(
    readonly depth: DepthImage,
    colourWidth: number,
    colourHeight: number,
  ) {
    this.sx = depth.width / colourWidth;
    this.sy = depth.height / colourHeight;
  }

  /** Depth pixel column / row whose centre lies nearest colour position (u, v) (pixel centres at +0.5). */
  column(u: number): number {
    return Math.min(this.depth.width - 1, Math.max(0, Math.floor(u * this.sx)));
  }
  row(v: number): number {
    return Math.min(this.depth.height - 1, Math.max(0, Math.floor(v * this.sy)));
  }
}

/** Valid depths (metres) on a grid over colour-pixel rectangle [x1, x2) x [y1, y2). */
export function rectSamples(
  map: ColourToDepth,
  x1: number,
  y1: number,
  x2: number,
  y2: number,
  range: DepthRange,
): number[] {
  const c0 = map.column(x1);
  const c1 = map.column(Math.max(x1, x2 - 1e-6));
  const r0 = map.row(y1);
  const r1 = map.row(Math.max(y1, y2 - 1e-6));
  const w = c1 - c0 + 1;
  const h = r1 - r0 + 1;
  const stride = Math.max(1, Math.ceil(Math.sqrt((w * h) / MAX_SAMPLES)));
  const out: number[] = [];
  for (let r = r0 + (((h - 1) % stride) >> 1); r <= r1; r += stride) {
    for (let c = c0 + (((w - 1) % stride) >> 1); c <= c1; c += stride) {
      const d = map.depth.metresAt(c, r);
      if (d >= range.min && d <= range.max) out.push(d);
    }
  }
  return out;
}

/** Valid depths under the pixels of an instance mask (a grid over its region, mask pixels only). */
export function maskSamples(map: ColourToDepth, mask: InstanceMask, range: DepthRange): number[] {
  const stride = Math.max(1, Math.ceil(Math.sqrt((mask.width * mask.height) / MAX_SAMPLES)));
  const out: number[] = [];
  for (let r = stride >> 1; r < mask.height; r += stride) {
    for (let c = stride >> 1; c < mask.width; c += stride) {
      if (mask.data[r * mask.width + c] === 0) continue;
      const d = map.depth.metresAt(map.column(mask.x + c + 0.5), map.row(mask.y + r + 0.5));
      if (d >= range.min && d <= range.max) out.push(d);
    }
  }
  return out;
}

/** The samples of a detection: its mask's when it has one, else the middle of its box. */
export function detectionSamples(
  map: ColourToDepth,
  box: Box,
  mask: InstanceMask | undefined,
  range: DepthRange,
): number[] {
  if (mask && mask.width > 0 && mask.height > 0) {
    const s = maskSamples(map, mask, range);
    if (s.length >= MIN_SAMPLES) return s;
  }
  const qx = (box.x2 - box.x1) / 4;
  const qy = (box.y2 - box.y1) / 4;
  const middle = rectSamples(map, box.x1 + qx, box.y1 + qy, box.x2 - qx, box.y2 - qy, range);
  if (middle.length >= MIN_SAMPLES) return middle;
  return rectSamples(map, box.x1, box.y1, box.x2, box.y2, range);
}

/** Two depths further apart than this are different surfaces. */
function surfaceGap(depth: number): number {
  return Math.max(0.05, 0.04 * depth);
}

/** Sorted samples split into surfaces: [start, end) index pairs, nearest first. */
function surfaces(s: Float64Array): [number, number][] {
  const out: [number, number][] = [];
  let start = 0;
  for (let i = 1; i <= s.length; i++) {
    if (i === s.length || s[i]! - s[i - 1]! > surfaceGap(s[i - 1]!)) {
      out.push([start, i]);
      start = i;
    }
  }
  return out;
}

function describeSurface(s: Float64Array, [start, end]: [number, number]): ObjectDepth {
  const n = end - start;
  const at = (q: number) => s[start + Math.min(n - 1, Math.floor(q * n))]!;
  const median = n % 2 === 1 ? at(0.5) : (s[start + n / 2 - 1]! + s[start + n / 2]!) / 2;
  return { depth: median, near: at(0.1), far: at(0.9), samples: n, validSamples: s.length };
}

/** The object's depth from its samples (see the file comment), or undefined without any. */
export function objectDepth(samples: readonly number[]): ObjectDepth | undefined {
  if (samples.length === 0) return undefined;
  const s = Float64Array.from(samples).sort();
  let best: [number, number] = [0, 0];
  for (const f of surfaces(s)) if (f[1] - f[0] > best[1] - best[0]) best = f;
  return describeSurface(s, best);
}

/**
 * The depth of a point on a body part from a small neighbourhood: the nearest surface holding at
 * least `minShare` of the samples (a wrist or shoulder lies in front of what is behind it, and a
 * neighbourhood at the body's edge holds some of that background).
 */
export function pointDepth(samples: readonly number[], minShare: number): ObjectDepth | undefined {
  if (samples.length === 0) return undefined;
  const s = Float64Array.from(samples).sort();
  for (const f of surfaces(s)) {
    if (f[1] - f[0] >= minShare * s.length) return describeSurface(s, f);
  }
  return undefined;
}
