import * as fs from 'node:fs';
import * as path from 'node:path';
import { ConfigError } from '../core/configError';
import { packagePath } from '../packageRoot';
import { findModelManifests } from './findModelManifests';

/**
 * Folders (colon-separated, like PATH) searched for a model named by a bare name before the
 * package's own models/: a robot keeps weights and HTP context binaries where its image puts them,
 * not in the install space.
 */
export const MODEL_PATH_VARIABLE = 'HTP_PERCEPTION_MODEL_PATH';

/** One folder of the model search path, and why it is on it (said when a name is not found). */
export interface ModelSearchDir {
  readonly dir: string;
  readonly from: string;
}

/**
 * Where a bare model name is looked for, in order: each folder of HTP_PERCEPTION_MODEL_PATH
 * (relative ones against the working directory; empty entries skipped), then the package's
 * models/ (share/htp_perception/models in an install, models/ in a checkout).
 */
export function modelSearchPath(env: NodeJS.ProcessEnv = process.env): ModelSearchDir[] {
  const dirs = (env[MODEL_PATH_VARIABLE] ?? '')
    .split(':')
    .filter((d) => d !== '')
    .map((d) => ({ dir: path.resolve(d), from: MODEL_PATH_VARIABLE }));
  return [...dirs, { dir: packagePath('models'), from: "the package's models/" }];
}

/** A model name (a manifest's file name without `.manifest.json`), not a path to a file. */
function isBareName(ref: string): boolean {
  return ref !== '' && !ref.includes('/') && !/\.(json|onnx)$/i.test(ref);
}

/** The first `<name>.manifest.json` under a folder of `dirs` (each searched recursively). */
function findByName(name: string, dirs: readonly ModelSearchDir[]): string | undefined {
  const file = `${name}.manifest.json`;
  for (const { dir } of dirs) {
    if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) continue;
    const found = findModelManifests(dir, { skipExamples: true }).find(
      (p) => path.basename(p) === file,
    );
    if (found) return found;
  }
  return undefined;
}

/**
 * A `model` / `person_detector` value as a manifest path, leniently: an existing file as given, a
 * bare name as the first manifest of that name on the model search path, anything else (a path
 * that does not exist, a name found nowhere) unchanged, for the caller to refuse in its own words.
 */
export function lookUpModelReference(ref: string, env: NodeJS.ProcessEnv = process.env): string {
  if (!isBareName(ref) || fs.existsSync(ref)) return ref;
  return findByName(ref, modelSearchPath(env)) ?? ref;
}

/**
 * As lookUpModelReference, but a bare name found on no folder of the search path is refused with
 * a ConfigError naming every folder looked in (and why each was searched). Paths are returned as
 * given: loading them names the file when it is missing.
 */
export function requireModelReference(ref: string, env: NodeJS.ProcessEnv = process.env): string {
  if (!isBareName(ref) || fs.existsSync(ref)) return ref;
  const dirs = modelSearchPath(env);
  const found = findByName(ref, dirs);
  if (found) return found;
  const looked = dirs
    .map(({ dir, from }) => `${dir} (${from}${fs.existsSync(dir) ? '' : ', does not exist'})`)
    .join(', ');
  throw new ConfigError(
    `model '${ref}': no ${ref}.manifest.json in any folder of the model search path: ${looked}; ` +
      `set ${MODEL_PATH_VARIABLE} to the folders holding your models, or give a manifest's path`,
  );
}
