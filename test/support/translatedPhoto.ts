import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import sharp from 'sharp';
import { shiftedPhotoFrame } from '../../src/photos/shiftedPhoto';
import { PHOTO_DIR } from './photos';

/**
 * A temporary folder of `frames` PNGs of a bootstrap photo moving sideways by `stepPx` a frame
 * (from `startPx`): a camera stream in which every object of the photo moves at one known
 * constant velocity. Files sort in frame order (image_source publishes them in name order).
 */
export async function translatedPhotoDir(
  name: string,
  frames: number,
  startPx: number,
  stepPx: number,
): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'htp-moving-'));
  for (let i = 0; i < frames; i++) {
    const f = await shiftedPhotoFrame(path.join(PHOTO_DIR, name), startPx + stepPx * i);
    await sharp(f.data, { raw: { width: f.width, height: f.height, channels: 3 } })
      .png({ compressionLevel: 1 })
      .toFile(path.join(dir, `frame_${String(i).padStart(3, '0')}.png`));
  }
  return dir;
}
