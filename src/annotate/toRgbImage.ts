import type { Frame } from '../core/frame';
import type { RgbImage } from '../core/rgbImage';
import { bt601LimitedToRgb } from './bt601LimitedToRgb';

/**
 * Encodings the annotated stream can draw on: 8-bit RGB/BGR with or without alpha, mono, and the
 * YUV ones (a camera may switch to yuyv mid-stream; its picture should not vanish).
 */
export const DRAWABLE_ENCODINGS: ReadonlySet<Frame['encoding']> = new Set<Frame['encoding']>([
  'rgb8',
  'bgr8',
  'rgba8',
  'bgra8',
  'mono8',
  'yuv422',
  'yuyv',
  'nv12',
]);

/**
 * A tightly packed rgb8 image of `frame` (the frame itself when it already is one). YUV is
 * converted as the engine's preprocessing does (BT.601 limited range), so the picture holds the
 * pixels the model was fed.
 */
export function toRgbImage(frame: Frame): RgbImage {
  if (frame.encoding === 'rgb8' && frame.step === frame.width * 3) return frame;
  if (!DRAWABLE_ENCODINGS.has(frame.encoding)) {
    throw new RangeError(`toRgbImage: cannot draw on ${frame.encoding} pixels`);
  }
  const e = frame.encoding;
  if (e === 'yuv422' || e === 'yuyv' || e === 'nv12') return yuvToRgbImage(frame, e);
  const channels = frame.encoding === 'mono8' ? 1 : frame.encoding.endsWith('a8') ? 4 : 3;
  const bgr = frame.encoding.startsWith('bgr');
  const out = Buffer.alloc(frame.width * frame.height * 3);
  for (let y = 0; y < frame.height; y++) {
    let s = y * frame.step;
    let d = y * frame.width * 3;
    for (let x = 0; x < frame.width; x++, s += channels, d += 3) {
      const a = frame.data[s]!;
      const b = channels === 1 ? a : frame.data[s + 1]!;
      const c = channels === 1 ? a : frame.data[s + 2]!;
      out[d] = bgr ? c : a;
      out[d + 1] = b;
      out[d + 2] = bgr ? a : c;
    }
  }
  return { data: out, width: frame.width, height: frame.height };
}

function yuvToRgbImage(frame: Frame, e: 'yuv422' | 'yuyv' | 'nv12'): RgbImage {
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
