import { HeadError } from './headError';
import type { Box } from '../core/headResults';
import type { ImageTransform } from '../core/tensor';

/**
 * Maps a box from network-input pixels back to source-image pixels (undoing letterbox padding,
 * scale and ROI crop; see ImageTransform) and clamps it to the image. The result can have zero
 * width or height when the network box lay wholly in the padding or outside the image.
 */
export function mapBoxToSource(
  t: ImageTransform,
  x1: number,
  y1: number,
  x2: number,
  y2: number,
): Box {
  return {
    x1: clamp((x1 - t.padX) / t.scaleX + t.crop.x, 0, t.srcWidth),
    y1: clamp((y1 - t.padY) / t.scaleY + t.crop.y, 0, t.srcHeight),
    x2: clamp((x2 - t.padX) / t.scaleX + t.crop.x, 0, t.srcWidth),
    y2: clamp((y2 - t.padY) / t.scaleY + t.crop.y, 0, t.srcHeight),
  };
}

/** A point from network-input pixels to source pixels, clamped to the image. */
export function mapPointToSource(
  t: ImageTransform,
  x: number,
  y: number,
): { x: number; y: number } {
  return {
    x: clamp((x - t.padX) / t.scaleX + t.crop.x, 0, t.srcWidth),
    y: clamp((y - t.padY) / t.scaleY + t.crop.y, 0, t.srcHeight),
  };
}

/** Rejects transforms the mapping maths cannot invert (zero or non-finite scales, empty image). */
export function checkImageTransform(t: ImageTransform): void {
  const finite = [
    t.srcWidth,
    t.srcHeight,
    t.crop.x,
    t.crop.y,
    t.crop.width,
    t.crop.height,
    t.dstWidth,
    t.dstHeight,
    t.scaleX,
    t.scaleY,
    t.padX,
    t.padY,
  ].every(Number.isFinite);
  if (!finite) throw new HeadError('BAD_TRANSFORM', 'image transform has a non-finite field');
  if (t.scaleX <= 0 || t.scaleY <= 0) {
    throw new HeadError(
      'BAD_TRANSFORM',
      `image transform scale must be > 0, got ${t.scaleX} x ${t.scaleY}`,
    );
  }
  if (t.srcWidth <= 0 || t.srcHeight <= 0 || t.dstWidth <= 0 || t.dstHeight <= 0) {
    throw new HeadError(
      'BAD_TRANSFORM',
      `image transform sizes must be > 0: source ${t.srcWidth}x${t.srcHeight}, network ${t.dstWidth}x${t.dstHeight}`,
    );
  }
}

function clamp(v: number, lo: number, hi: number): number {
  return v < lo ? lo : v > hi ? hi : v;
}
