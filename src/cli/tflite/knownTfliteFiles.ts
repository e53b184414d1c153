/**
 * The TFLite files this checkout pins by SHA-256 (scripts/setup/mediapipe-files.txt, the list
 * bootstrap step 72-mediapipe fetches and checks), so an imported file's manifest can name the
 * package and version it came from instead of "user-provided".
 */
import * as fs from 'node:fs';
import { packagePath } from '../../packageRoot';

export const PINNED_FILES_LIST = packagePath('scripts', 'setup', 'mediapipe-files.txt');

export interface PinnedFile {
  readonly registry: 'npm';
  readonly package: string;
  readonly version: string;
  /** The file's path inside the package (under package/). */
  readonly file: string;
  readonly sha256: string;
}

/** Both pinned packages declare Apache-2.0 in their package.json (checked when pinned). */
export const PINNED_LICENSE = 'Apache-2.0';

/**
 * `package@version file sha256` lines, # comments; file `-` is the package tarball, not a model.
 * Malformed lines are skipped: the list is ours and bootstrap reads it first.
 */
export function parsePinnedFiles(text: string): PinnedFile[] {
  const files: PinnedFile[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const [spec, file, sha256] = line.split(/\s+/);
    const at = spec?.lastIndexOf('@') ?? -1;
    if (
      spec === undefined ||
      file === undefined ||
      file === '-' ||
      sha256 === undefined ||
      at <= 0
    ) {
      continue;
    }
    files.push({
      registry: 'npm',
      package: spec.slice(0, at),
      version: spec.slice(at + 1),
      file,
      sha256: sha256.toLowerCase(),
    });
  }
  return files;
}

/** The pinned file with this SHA-256, if any (none when the list is absent: an installed package). */
export function findPinnedFile(sha256: string, list = PINNED_FILES_LIST): PinnedFile | undefined {
  if (!fs.existsSync(list)) return undefined;
  return parsePinnedFiles(fs.readFileSync(list, 'utf8')).find((f) => f.sha256 === sha256);
}
