/**
 * The manifest edits of `model quantize`: where a quantized file goes by default, and adding it
 * (files.<precision>) and its checksum (files.sha256.<precision>) to the manifest file while every
 * other field stays as written (rewriteManifest: validated, replaced by a rename).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseModelManifest } from '../config/modelManifest';
import type { QuantizedPrecision } from '../core/precisions';
import { rewriteManifest } from './rewriteManifest';
import { withModelSha256 } from './withModelSha256';

/** Beside the manifest, because files.* names are relative to it. */
export function defaultQuantizedPath(
  manifestPath: string,
  fp32: string,
  precision: QuantizedPrecision,
): string {
  return path.join(
    path.dirname(manifestPath),
    `${path.basename(fp32).replace(/\.onnx$/i, '')}.${precision}.qdq.onnx`,
  );
}

/** Adds files.<precision> to the manifest file, keeping every other field as written. */
export function addQuantizedToManifest(
  manifestPath: string,
  precision: QuantizedPrecision,
  file: string,
): void {
  const data = JSON.parse(fs.readFileSync(manifestPath, 'utf8')) as {
    files: Record<string, string>;
  };
  data.files = { ...data.files, [precision]: file };
  rewriteManifest(manifestPath, data);
}

/** Sets files.sha256.<precision> to that file's hash. */
export function recordSha256(manifestPath: string, precision: QuantizedPrecision): void {
  const data: unknown = JSON.parse(fs.readFileSync(manifestPath, 'utf8'));
  const next = withModelSha256(
    parseModelManifest(data, manifestPath),
    path.dirname(manifestPath),
    precision,
  );
  const raw = data as { files: Record<string, unknown> };
  // Only files.sha256 changes: every other field stays as the file wrote it.
  raw.files.sha256 = next.files.sha256;
  rewriteManifest(manifestPath, raw);
}
