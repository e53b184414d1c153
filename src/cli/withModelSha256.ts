import * as path from 'node:path';
import type { ModelManifestData } from '../config/modelManifest';
import { sha256File } from '../util/sha256File';
import type { Precision } from '../core/precisions';

/**
 * `m` with files.sha256[precision] set to the SHA-256 of that model file as it is now (the
 * file is resolved against `manifestDir`, as loading does). Called by the commands that write a
 * model file and its manifest together, so the nodes can tell later whether the file changed.
 */
export function withModelSha256(
  m: ModelManifestData,
  manifestDir: string,
  precision: Precision,
): ModelManifestData {
  const file = m.files[precision];
  if (file === undefined) return m;
  const sha256 = sha256File(path.resolve(manifestDir, file));
  return { ...m, files: { ...m.files, sha256: { ...m.files.sha256, [precision]: sha256 } } };
}
