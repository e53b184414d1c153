import * as path from 'node:path';
import { ConfigError } from '../core/configError';
import { loadModelManifest, type ModelManifest } from '../config/modelManifest';
import { deriveManifest } from './deriveManifest';
import { OnnxFormatError, readOnnxModel } from './readOnnxModel';

/**
 * The manifest a `model` parameter names: a `*.manifest.json` file, or an Ultralytics `.onnx`
 * export whose manifest is derived in memory from its metadata. AI Hub layouts are not derived
 * here: their class names and normalization are assumptions a person should review once, in the
 * file `htp-perception model import` writes. Throws ConfigError naming the file.
 */
export function resolveModelManifest(pathOrManifest: string): ModelManifest {
  if (!/\.onnx$/i.test(pathOrManifest)) return loadModelManifest(pathOrManifest);
  const file = path.resolve(pathOrManifest);
  try {
    const { manifest } = deriveManifest(file, readOnnxModel(file), { allowAihub: false });
    return { ...manifest, manifestPath: file, modelPaths: { fp32: file } };
  } catch (e) {
    // Callers one-line ConfigErrors (runMain); a format error is the same kind of user problem.
    if (e instanceof OnnxFormatError) throw new ConfigError(e.message);
    throw e;
  }
}
