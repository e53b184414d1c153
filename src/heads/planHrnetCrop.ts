import { HeadError } from './headError';
import type { Box } from '../core/headResults';
import type { ImageTransform } from '../core/tensor';

export interface HrnetCropOptions {
  /** Network input size in pixels. Default 192 x 256 (W x H). */
  readonly inputWidth?: number;
  readonly inputHeight?: number;
  /** Factor applied after widening the box to the input aspect. Default 1.25 (HRNet's). */
  readonly padding?: number;
}

/**
 * How one person box becomes an HRNet input: the top-down affine crop of the HRNet authors and
 * AI Hub. The region (centre, width, height in source pixels) has the network's aspect ratio and
 * may extend past the image; it is mapped onto the whole input with one scale, and what lies
 * outside the image is border (black, or the manifest's pad value), never stretched. The warp is
 * given three equivalent ways:
 *  - `region`: the engine ROI to run with `outside: 'pad'` (EngineSession.run);
 *  - `affine`: network (x, y) = (a*u + b*v + c, d*u + e*v + f) for continuous source (u, v)
 *    (pixel i covers [i, i + 1)), no rotation, so b = d = 0;
 *  - `transform`: the ImageTransform the engine reports for that ROI (crop = region, no letterbox
 *    padding), which heads use to map keypoints back: mapPointToSource inverts `affine` exactly.
 */
export interface HrnetCrop {
  readonly centerX: number;
  readonly centerY: number;
  readonly width: number;
  readonly height: number;
  readonly region: {
    readonly x: number;
    readonly y: number;
    readonly width: number;
    readonly height: number;
  };
  readonly affine: readonly [number, number, number, number, number, number];
  readonly transform: ImageTransform;
}

/**
 * HRNet top-down crop planning: the box is widened (never narrowed) to aspect inputWidth /
 * inputHeight around its centre, then scaled by `padding`. Throws for a non-finite box or one
 * with neither width nor height (nothing to scale).
 */
export function planHrnetCrop(
  box: Box,
  srcWidth: number,
  srcHeight: number,
  options: HrnetCropOptions = {},
): HrnetCrop {
  const W = options.inputWidth ?? 192;
  const H = options.inputHeight ?? 256;
  const padding = options.padding ?? 1.25;
  if (!(W > 0 && H > 0 && Number.isFinite(W) && Number.isFinite(H))) {
    throw new HeadError('BAD_OPTION', `HRNet input size must be > 0, got ${W}x${H}`);
  }
  if (!(padding > 0 && Number.isFinite(padding))) {
    throw new HeadError('BAD_OPTION', `HRNet crop padding must be > 0, got ${padding}`);
  }
  if (!(srcWidth > 0 && srcHeight > 0)) {
    throw new HeadError('BAD_OPTION', `source size must be > 0, got ${srcWidth}x${srcHeight}`);
  }
  const { x1, y1, x2, y2 } = box;
  if (!Number.isFinite(x1 + y1 + x2 + y2)) {
    throw new HeadError('BAD_OPTION', `person box has a non-finite coordinate`);
  }
  let w = Math.max(0, x2 - x1);
  let h = Math.max(0, y2 - y1);
  if (w === 0 && h === 0) {
    throw new HeadError(
      'BAD_OPTION',
      `person box (${x1}, ${y1})-(${x2}, ${y2}) has no area to crop`,
    );
  }
  const aspect = W / H;
  if (w > aspect * h) h = w / aspect;
  else w = h * aspect;
  w *= padding;
  h *= padding;
  const centerX = (x1 + x2) / 2;
  const centerY = (y1 + y2) / 2;
  const left = centerX - w / 2;
  const top = centerY - h / 2;
  // Computed as the engine computes them (input size / region size), so the transform below is
  // bit-for-bit the one a run reports. w / h equals W / H up to rounding: one scale per axis.
  const sx = W / w;
  const sy = H / h;
  return {
    centerX,
    centerY,
    width: w,
    height: h,
    region: { x: left, y: top, width: w, height: h },
    affine: [sx, 0, -left * sx, 0, sy, -top * sy],
    transform: {
      srcWidth,
      srcHeight,
      crop: { x: left, y: top, width: w, height: h },
      dstWidth: W,
      dstHeight: H,
      scaleX: sx,
      scaleY: sy,
      padX: 0,
      padY: 0,
    },
  };
}
