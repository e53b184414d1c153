/**
 * What both converting imports (.tflite, TensorFlow.js model.json) share around their conversion
 * check: the photos it runs on, and how its figures are printed.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { CheckedOutput } from '../model/conversionCheck';
import { packagePath } from '../packageRoot';
import { formatTable } from '../util/formatTable';
import { UsageError } from './cliErrors';

/** The bootstrap photos (step 15): the default images of the conversion check. */
export const DEFAULT_CHECK_IMAGES = packagePath('.cache', 'photos');

const PHOTO_EXTENSIONS = new Set(['.jpg', '.jpeg', '.png']);

/** The folder's photos, sorted; a missing or empty folder is a usage error naming the fix. */
export function checkImages(folder: string): string[] {
  if (!fs.existsSync(folder) || !fs.statSync(folder).isDirectory()) {
    throw new UsageError(
      `--images ${folder}: no such folder (the conversion check runs both models on photos: pass a folder of .jpg/.png, or run scripts/bootstrap.sh 15-photos)`,
    );
  }
  const photos = fs
    .readdirSync(folder)
    .filter((f) => PHOTO_EXTENSIONS.has(path.extname(f).toLowerCase()))
    .sort()
    .map((f) => path.join(folder, f));
  if (photos.length === 0) throw new UsageError(`--images ${folder}: no .jpg/.jpeg/.png files`);
  return photos;
}

/** 3 significant digits, no trailing noise: what the table and the messages show. */
export function num(v: number): string {
  if (!Number.isFinite(v)) return String(v);
  if (v === 0) return '0';
  return Math.abs(v) >= 1e-3 && Math.abs(v) < 1e4
    ? String(Number(v.toPrecision(3)))
    : v.toExponential(2);
}

/** One row per output: its difference, the reference's largest |value| and the bound. */
export function checkTable(outputs: readonly CheckedOutput[], reference: string): string {
  return formatTable(
    outputs.map((o) => ({
      output: o.name,
      dims: `[${o.dims.join(',')}]`,
      'max |diff|': num(o.maxAbsDiff),
      'mean |diff|': num(o.meanAbsDiff),
      [`max |${reference}|`]: num(o.maxAbsReference),
      bound: num(o.bound),
      '': o.ok ? 'ok' : 'TOO FAR',
    })),
  );
}
