import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import sharp from 'sharp';
import { PHOTO_DIR } from './photos';

/**
 * A temporary folder of `frames` PNGs of a bootstrap photo moving sideways by `stepPx` a frame
 * (from `startPx`) over a grey canvas of the photo's size: a camera stream in which every object
 * of the photo moves at one known constant velocity. Files sort in frame order (image_source
 * publishes them in name order).
 */
export async function translatedPhotoDir(
  name: string,
  frames: number,
  startPx: number,
  stepPx: number,
): Promise<string> {
  const file = path.join(PHOTO_DIR, name);
  const { width, height } = await sharp(file).metadata();
  if (!width || !height) throw new Error(`${file}: no size`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'htp-moving-'));
  for (let i = 0; i < frames; i++) {
    const dx = Math.round(startPx + stepPx * i);
    if (Math.abs(dx) >= width) throw new Error(`frame ${i} moves the photo out of view`);
    const visible = await sharp(file)
      .extract({ left: Math.max(0, -dx), top: 0, width: width - Math.abs(dx), height })
      .toBuffer();
    await sharp({
      create: { width, height, channels: 3, background: { r: 114, g: 114, b: 114 } },
    })
      .composite([{ input: visible, left: Math.max(0, dx), top: 0 }])
      .removeAlpha()
      .png({ compressionLevel: 1 })
      .toFile(path.join(dir, `frame_${String(i).padStart(3, '0')}.png`));
  }
  return dir;
}
