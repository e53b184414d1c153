import * as fs from 'node:fs';
import * as path from 'node:path';
import sharp from 'sharp';
import type { Frame } from '../../src/engine/engineSession';
import { repoPath } from './paths';

export const PHOTO_DIR = repoPath('.cache', 'photos');

export function photoNames(): string[] {
  return fs
    .readdirSync(PHOTO_DIR)
    .filter((f) => /\.(jpe?g|png)$/i.test(f))
    .sort();
}

/** A bootstrap photo decoded to an rgb8 frame. */
export async function photoFrame(name: string): Promise<Frame> {
  const { data, info } = await sharp(path.join(PHOTO_DIR, name))
    .removeAlpha()
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, step: info.width * 3, encoding: 'rgb8' };
}
