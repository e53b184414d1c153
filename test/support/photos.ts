import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { listPhotos, loadRgbFrame } from '../../src/photos/photoFrames';
import type { Frame } from '../../src/core/frame';
import { repoPath } from './paths';

export const PHOTO_DIR = repoPath('.cache', 'photos');

export function photoNames(): string[] {
  return listPhotos(PHOTO_DIR).map((f) => path.basename(f));
}

/** A bootstrap photo decoded to an rgb8 frame. */
export function photoFrame(name: string): Promise<Frame> {
  return loadRgbFrame(path.join(PHOTO_DIR, name));
}

/** A temporary folder holding copies of the named bootstrap photos (for image_source). */
export function photoDirWith(...names: string[]): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'htp-photos-'));
  for (const n of names) fs.copyFileSync(path.join(PHOTO_DIR, n), path.join(dir, n));
  return dir;
}
