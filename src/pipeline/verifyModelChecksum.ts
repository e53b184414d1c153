import { ConfigError } from '../core/configError';
import type { ModelManifest } from '../config/modelManifest';
import { CachedSha256File } from '../util/cachedSha256File';
import type { Precision } from './runtimeChoices';

/** How a model file compares with the SHA-256 its manifest records (files.sha256). */
export type ModelChecksum =
  | { readonly state: 'unrecorded'; readonly file: string }
  | { readonly state: 'verified'; readonly file: string; readonly sha256: string }
  | {
      readonly state: 'mismatch';
      readonly file: string;
      readonly recorded: string;
      readonly actual: string;
    };

/** One per process: every pipeline of a container shares it, and a reconfigure reads nothing. */
const PROCESS_HASHES = new CachedSha256File();

/**
 * The checksum state of the model file a run of `precision` loads. Undefined when the manifest
 * has no such file (the load fails on that, with its own message). Hashes only when the manifest
 * records a checksum, and only once per version of the file (CachedSha256File).
 */
export function modelChecksum(
  m: ModelManifest,
  precision: Precision,
  hashes: CachedSha256File = PROCESS_HASHES,
): ModelChecksum | undefined {
  const file = m.modelPaths[precision];
  if (file === undefined) return undefined;
  const recorded = m.files.sha256?.[precision];
  if (recorded === undefined) return { state: 'unrecorded', file };
  const actual = hashes.sha256(file);
  return actual === recorded
    ? { state: 'verified', file, sha256: actual }
    : { state: 'mismatch', file, recorded, actual };
}

/** What is wrong with a mismatched file: the file and both hashes. */
export function checksumMismatchMessage(
  m: ModelManifest,
  precision: Precision,
  c: { readonly file: string; readonly recorded: string; readonly actual: string },
): string {
  return `${c.file}: SHA-256 ${c.actual} is not the ${c.recorded} that ${m.manifestPath} records (files.sha256.${precision})`;
}

const MISMATCH_FIX =
  'the file was changed or replaced since it was written: restore it (or re-run the command ' +
  'that made it), or load it anyway with allow_model_mismatch:=true (htp-perception: ' +
  '--allow-model-mismatch)';

/**
 * Refuses (ConfigError) a model file that does not match its manifest's recorded SHA-256 unless
 * `allowMismatch`; returns the state, so callers can say a file was unverified or let through.
 */
export function verifyModelChecksum(
  m: ModelManifest,
  precision: Precision,
  allowMismatch: boolean,
  hashes: CachedSha256File = PROCESS_HASHES,
): ModelChecksum | undefined {
  const c = modelChecksum(m, precision, hashes);
  if (c?.state === 'mismatch' && !allowMismatch) {
    throw new ConfigError(`${checksumMismatchMessage(m, precision, c)}; ${MISMATCH_FIX}`);
  }
  return c;
}
