import type { Frame } from '../core/frame';
import type { RgbImage } from '../core/rgbImage';
import { toRgbImage } from '../annotate/toRgbImage';

/**
 * A frame of any encoding the intake accepts as packed rgb8, for saving calibration images: a
 * packed rgb8 frame as it is (no copy), other 8-bit RGB/BGR/mono through toRgbImage, YUV converted
 * as the engine's preprocessing does (BT.601 limited range), so the calibration photo holds the
 * pixels the model will be fed from that camera.
 */
export function framePixelsToRgb(frame: Frame): RgbImage {
  const e = frame.encoding;
  if (e !== 'yuv422' && e !== 'yuyv' && e !== 'nv12') {
    return toRgbImage(frame);
  }
  const { width, height, step, data } = frame;
  const out = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let yy: number;
      let u: number;
      let v: number;
      if (e === 'nv12') {
        const uv = height * step + (y >> 1) * step + (x & ~1);
        yy = data[y * step + x]!;
        u = data[uv]!;
        v = data[uv + 1]!;
      } else {
        const p = y * step + (x & ~1) * 2;
        // yuv422 is UYVY (U Y0 V Y1), yuyv is Y0 U Y1 V.
        if (e === 'yuv422') {
          yy = data[p + 1 + 2 * (x & 1)]!;
          u = data[p]!;
          v = data[p + 2]!;
        } else {
          yy = data[p + 2 * (x & 1)]!;
          u = data[p + 1]!;
          v = data[p + 3]!;
        }
      }
      const [r, g, b] = bt601LimitedToRgb(yy, u, v);
      const o = (y * width + x) * 3;
      out[o] = r;
      out[o + 1] = g;
      out[o + 2] = b;
    }
  }
  return { data: out, width, height };
}

/** ITU-R BT.601 limited-range (16..235 luma, 16..240 chroma) YCbCr to 8-bit RGB. */
export function bt601LimitedToRgb(y: number, u: number, v: number): [number, number, number] {
  const c = 1.164383 * (y - 16);
  const d = u - 128;
  const f = v - 128;
  const clamp = (x: number): number => Math.min(255, Math.max(0, Math.round(x)));
  return [clamp(c + 1.596027 * f), clamp(c - 0.391762 * d - 0.812968 * f), clamp(c + 2.017232 * d)];
}
