import { HeadError } from './headError';
import type { Box } from './headResults';
import type { ImageTransform } from './tensor';

export interface HrnetCropOptions {
  /** Network input size in pixels. Default 192 x 256 (W x H). */
  readonly inputWidth?: number;
  readonly inputHeight?: number;
  /** Factor applied after widening the box to the input aspect. Default 1.25 (HRNet's). */
  readonly padding?: number;
}

/**
 * How one person box becomes an HRNet input. The crop region (centre, width, height in source
 * pixels) has the network's aspect ratio and may extend past the image; what lies outside is
 * black. Two equivalent descriptions of the warp are given:
 *  - `affine`: network (x, y) = (a*u + b*v + c, d*u + e*v + f) for source (u, v), for a
 *    warpAffine-style implementation (no rotation, so b = d = 0);
 *  - `transform`: the ImageTransform of the same warp with the crop clamped to the image and the
 *    part of the region left / above the image expressed as padX / padY (network pixels); the
 *    network area right of padX + crop.width * scaleX (and below) is black border too.
 */
export interface HrnetCrop {
  readonly centerX: number;
  readonly centerY: number;
  readonly width: number;
  readonly height: number;
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
  // w / h equals W / H, so one scale serves both axes.
  const s = W / w;
  const left = centerX - w / 2;
  const top = centerY - h / 2;
  const cx0 = Math.min(Math.max(left, 0), srcWidth);
  const cy0 = Math.min(Math.max(top, 0), srcHeight);
  const cx1 = Math.min(Math.max(left + w, 0), srcWidth);
  const cy1 = Math.min(Math.max(top + h, 0), srcHeight);
  return {
    centerX,
    centerY,
    width: w,
    height: h,
    affine: [s, 0, -left * s, 0, s, -top * s],
    transform: {
      srcWidth,
      srcHeight,
      crop: { x: cx0, y: cy0, width: cx1 - cx0, height: cy1 - cy0 },
      dstWidth: W,
      dstHeight: H,
      scaleX: s,
      scaleY: s,
      padX: (cx0 - left) * s,
      padY: (cy0 - top) * s,
    },
  };
}
