import type { RgbImage } from '../core/rgbImage';

/**
 * Packed rgb8 pixels as YUYV 4:2:2 (Y0 U Y1 V per pixel pair, ROS `yuyv` / `yuv422_yuy2`) in
 * ITU-R BT.601 limited range (luma 16..235, chroma 16..240): what UVC cameras send, and the
 * inverse of the conversion the engine's preprocessing applies. A pair's chroma is the mean of
 * its two pixels'. `width` (even, at most the image's) takes the columns 0..width-1.
 */
export function rgbToYuyv(image: RgbImage, width: number): Buffer {
  if (width % 2 !== 0 || width > image.width) {
    throw new RangeError(`YUYV width must be even and at most ${image.width}, got ${width}`);
  }
  const { data, height } = image;
  const out = Buffer.alloc(width * 2 * height);
  const level = (v: number): number => Math.min(255, Math.max(0, Math.round(v)));
  for (let y = 0; y < height; y++) {
    const row = y * image.width * 3;
    for (let x = 0; x < width; x += 2) {
      const p = row + x * 3;
      const r0 = data[p]!;
      const g0 = data[p + 1]!;
      const b0 = data[p + 2]!;
      const r1 = data[p + 3]!;
      const g1 = data[p + 4]!;
      const b1 = data[p + 5]!;
      const r = (r0 + r1) / 2;
      const g = (g0 + g1) / 2;
      const b = (b0 + b1) / 2;
      const o = (y * width + x) * 2;
      out[o] = level(16 + 0.256788 * r0 + 0.504129 * g0 + 0.097906 * b0);
      out[o + 1] = level(128 - 0.148223 * r - 0.290993 * g + 0.439216 * b);
      out[o + 2] = level(16 + 0.256788 * r1 + 0.504129 * g1 + 0.097906 * b1);
      out[o + 3] = level(128 + 0.439216 * r - 0.367788 * g - 0.071427 * b);
    }
  }
  return out;
}
