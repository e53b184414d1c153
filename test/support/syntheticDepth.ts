import { DepthImage } from '../../src/depth/depthImage';

/** A depth image rendered from a function of the depth pixel (metres; NaN or 0 = no depth). */
export function renderDepth(
  width: number,
  height: number,
  encoding: '16UC1' | '32FC1',
  at: (x: number, y: number) => number,
): DepthImage {
  const bpp = encoding === '16UC1' ? 2 : 4;
  const data = new Uint8Array(width * height * bpp);
  const view = new DataView(data.buffer);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const m = at(x, y);
      const o = (y * width + x) * bpp;
      if (encoding === '16UC1')
        view.setUint16(o, Number.isFinite(m) ? Math.round(m * 1000) : 0, true);
      else view.setFloat32(o, m, true);
    }
  }
  return new DepthImage({ width, height, step: width * bpp, encoding, isBigEndian: false, data });
}
