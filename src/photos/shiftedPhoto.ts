import sharp from 'sharp';
import type { Frame } from '../core/frame';

/** Grey of the uncovered part of a shifted photo (YOLO's letterbox grey). */
const BACKGROUND = { r: 114, g: 114, b: 114 };

/**
 * A photo moved sideways by `dx` pixels (right when positive) inside a canvas of its own size,
 * as a packed rgb8 frame: frames at dx = x0 + v * i are a camera stream in which every object of
 * the photo moves at one known velocity (tracking demos and tests).
 */
export async function shiftedPhotoFrame(file: string, dx: number): Promise<Frame> {
  const { width, height } = await sharp(file).metadata();
  if (!width || !height) throw new Error(`${file}: no image size`);
  const shift = Math.round(dx);
  if (Math.abs(shift) >= width) {
    throw new RangeError(`${file}: a shift of ${shift} px moves the whole photo out of view`);
  }
  const visible = await sharp(file)
    .extract({ left: Math.max(0, -shift), top: 0, width: width - Math.abs(shift), height })
    .toBuffer();
  const { data, info } = await sharp({
    create: { width, height, channels: 3, background: BACKGROUND },
  })
    .composite([{ input: visible, left: Math.max(0, shift), top: 0 }])
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, step: info.width * 3, encoding: 'rgb8' };
}
