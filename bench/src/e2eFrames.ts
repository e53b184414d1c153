import * as fs from 'node:fs';
import * as path from 'node:path';
import sharp from 'sharp';
import { listPhotos } from '../../src/index';

/**
 * Real photos as packed rgb8 files of exactly width x height (scaled to cover, centre cropped, so
 * nothing is stretched): what the benchmark's camera publishes and Ultralytics is given.
 */
export async function writeBenchFrames(
  photoDir: string,
  width: number,
  height: number,
  outDir: string,
): Promise<string[]> {
  fs.mkdirSync(outDir, { recursive: true });
  const files: string[] = [];
  for (const photo of listPhotos(photoDir)) {
    const { data, info } = await sharp(photo)
      .rotate()
      .resize({ width, height, fit: 'cover' })
      .removeAlpha()
      .toColourspace('srgb')
      .raw()
      .toBuffer({ resolveWithObject: true });
    if (info.width !== width || info.height !== height || info.channels !== 3) {
      throw new Error(`${photo}: resized to ${info.width}x${info.height}x${info.channels}`);
    }
    const file = path.join(outDir, `${path.parse(photo).name}.rgb`);
    fs.writeFileSync(file, data);
    files.push(file);
  }
  return files;
}
