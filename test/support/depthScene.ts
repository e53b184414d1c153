import * as fs from 'node:fs';
import * as path from 'node:path';
import sharp from 'sharp';

/**
 * Raw depth of a scene (16UC1 millimetres or 32FC1 metres, little endian), written to `dir/name`;
 * returns tools/ros/depth_camera.py's depth arguments for it.
 */
export function depthFile(
  dir: string,
  name: string,
  encoding: '16UC1' | '32FC1',
  w: number,
  h: number,
  metres: (x: number, y: number) => number,
): string[] {
  const bpp = encoding === '16UC1' ? 2 : 4;
  const buf = Buffer.alloc(w * h * bpp);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const m = metres(x, y);
      if (encoding === '16UC1')
        buf.writeUInt16LE(Number.isFinite(m) ? Math.round(m * 1000) : 0, (y * w + x) * 2);
      else buf.writeFloatLE(m, (y * w + x) * 4);
    }
  }
  const file = path.join(dir, name);
  fs.writeFileSync(file, buf);
  return [
    '--depth',
    file,
    '--depth-encoding',
    encoding,
    '--depth-width',
    String(w),
    '--depth-height',
    String(h),
  ];
}

/** A photo letterboxed into a w x h rgb8 frame, written raw to `dir/name` (the camera's --colour). */
export async function letterboxedRgb(
  photo: string,
  dir: string,
  name: string,
  w: number,
  h: number,
): Promise<string> {
  const { data } = await sharp(photo)
    .resize(w, h, { fit: 'contain', background: { r: 0, g: 0, b: 0 } })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const file = path.join(dir, name);
  fs.writeFileSync(file, data);
  return file;
}
