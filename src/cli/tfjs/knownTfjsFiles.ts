/**
 * The TensorFlow.js graph models this checkout pins by SHA-256 (scripts/setup/tfjs-models.txt,
 * fetched by bootstrap step 79-tfjs-models), so an imported model names its package, version and
 * its weights' licence, with where that licence was read, instead of "user-provided".
 */
import * as fs from 'node:fs';
import { packagePath } from '../../packageRoot';

export const TFJS_MODELS_LIST = packagePath('scripts', 'setup', 'tfjs-models.txt');

export interface PinnedTfjsFile {
  readonly package: string;
  readonly version: string;
  /** The file's path under the package tarball's package/ folder. */
  readonly file: string;
  readonly sha256: string;
  /** The weights' licence as the list states it: an SPDX identifier, then where it was read. */
  readonly license: string;
}

/**
 * `package@version file sha256 licence...` lines, # comments; file `-` is the package tarball.
 * Malformed lines are skipped: the list is ours and bootstrap reads it first.
 */
export function parseTfjsPins(text: string): PinnedTfjsFile[] {
  const files: PinnedTfjsFile[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const [spec, file, sha256, ...license] = line.split(/\s+/);
    const at = spec?.lastIndexOf('@') ?? -1;
    if (spec === undefined || file === undefined || file === '-' || sha256 === undefined) continue;
    if (at <= 0 || license.length === 0) continue;
    files.push({
      package: spec.slice(0, at),
      version: spec.slice(at + 1),
      file,
      sha256: sha256.toLowerCase(),
      license: license.join(' '),
    });
  }
  return files;
}

/** The pinned file with this SHA-256, if any (none when the list is absent: an installed package). */
export function findPinnedTfjsFile(
  sha256: string,
  list: string = TFJS_MODELS_LIST,
): PinnedTfjsFile | undefined {
  if (!fs.existsSync(list)) return undefined;
  return parseTfjsPins(fs.readFileSync(list, 'utf8')).find((f) => f.sha256 === sha256);
}
