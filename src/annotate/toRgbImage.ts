import type { Frame } from '../core/frame';
import type { RgbImage } from '../core/rgbImage';

/** Encodings the annotated stream can draw on (8-bit RGB/BGR with or without alpha, mono). */
export const DRAWABLE_ENCODINGS: ReadonlySet<Frame['encoding']> = new Set<Frame['encoding']>([
  'rgb8',
  'bgr8',
  'rgba8',
  'bgra8',
  'mono8',
]);

/** A tightly packed rgb8 image of `frame` (the frame itself when it already is one). */
export function toRgbImage(frame: Frame): RgbImage {
  if (frame.encoding === 'rgb8' && frame.step === frame.width * 3) return frame;
  if (!DRAWABLE_ENCODINGS.has(frame.encoding)) {
    throw new RangeError(`toRgbImage: cannot draw on ${frame.encoding} pixels`);
  }
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
