import type { SemanticMap } from '../core/headResults';
import { VOC_PALETTE } from '../heads/vocPalette';
import type { RgbImage } from '../core/rgbImage';

/**
 * The camera image with each labelled pixel blended towards its class colour (PASCAL VOC palette):
 * out = (1 - opacity) * camera + opacity * colour. Background (label 0) keeps the camera pixel, so
 * the scene stays readable; opacity 1 gives the plain colour map over the camera's background.
 */
export function blendLabelColors(
  image: RgbImage,
  map: SemanticMap,
  opacity: number,
  palette: Uint8Array = VOC_PALETTE,
): Uint8Array {
  if (map.width !== image.width || map.height !== image.height) {
    throw new RangeError(
      `label map is ${map.width}x${map.height} but the image is ${image.width}x${image.height}`,
    );
  }
  const n = image.width * image.height;
  if (map.data.length !== n || image.data.length !== n * 3) {
    throw new RangeError(
      `label map holds ${map.data.length} bytes and the image ${image.data.length}, expected ${n} and ${n * 3}`,
    );
  }
  // Fixed point (0..256) keeps the loop in integers; a 640x480 map blends in about a millisecond.
  const a = Math.round(Math.min(1, Math.max(0, opacity)) * 256);
  const keep = 256 - a;
  const entries = palette.length / 3;
  const out = new Uint8Array(image.data);
  for (let i = 0; i < n; i++) {
    const l = map.data[i]!;
    if (l === 0 || l >= entries) continue;
    const o = 3 * i;
    out[o] = (out[o]! * keep + palette[3 * l]! * a) >> 8;
    out[o + 1] = (out[o + 1]! * keep + palette[3 * l + 1]! * a) >> 8;
    out[o + 2] = (out[o + 2]! * keep + palette[3 * l + 2]! * a) >> 8;
  }
  return out;
}
