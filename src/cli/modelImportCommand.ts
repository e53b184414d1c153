import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ModelManifestData } from '../config/modelManifest';
import { deriveManifest } from '../model/deriveManifest';
import { readOnnxModel } from '../model/readOnnxModel';
import { sha256File } from '../util/sha256File';
import { type CommandResult, UsageError } from './cliErrors';
import { findPinnedFile } from './tflite/knownTfliteFiles';
import { tfliteImportCommand } from './tflite/tfliteImportCommand';

export const MODEL_HELP = `usage: htp-perception model <command> ...

commands:
  import FILE.onnx|FILE.tflite [--name N] [--force] [--json]
                  write FILE's manifest beside it; a .tflite is converted to ONNX
                  first (see 'model import --help')
  quantize NAME (--images DIR | --topic T --frames N) [--holdout DIR] [thresholds]
                  INT8 QDQ for the HTP, validated against FP32 (see 'model quantize --help')
  compile NAME [--soc qcs6490] [--precision int8|fp32] [--json]
                  compile for the HTP ahead of time (see 'model compile --help')
  list [--json]   every model a node can name, with its files, licence and source

exit code: 0 ok, 1 a check failed, 2 bad usage or input`;

export const MODEL_IMPORT_HELP = `usage: htp-perception model import FILE.onnx [--name N] [--force] [--json]
       htp-perception model import FILE.tflite [--name N] [--images DIR] [--python PY] [--force] [--json]

Writes <N>.manifest.json beside FILE.onnx, derived from the file itself:
  - Ultralytics exports (yolo export format=onnx): task, class names, image size and keypoint
    shape from the ONNX metadata; detect, pose and segment.
  - Qualcomm AI Hub exports: recognised by their input 'image' and output names and shapes
    (boxes/scores/class_idx[/mask_coeffs/mask_protos], heatmaps, mask). AI Hub files carry no
    class names: COCO-80 or VOC-21 is assumed and printed for review.
Anything else is refused, naming the inputs and outputs found and the example manifest to start
from (models/examples/). The manifest is checked against the file before it is written.

A .tflite file is first converted to <N>.onnx beside it (tf2onnx in the tools venv of a source
checkout, never needed on a robot). MediaPipe's custom op Convolution2DTransposeBias becomes
ConvTranspose; any other custom op is refused, naming it. The conversion is then proven: the ONNX
(ONNX Runtime) and the .tflite (TensorFlow's TFLite interpreter) run on the photos of --images,
and each output's max |difference| must stay within 2 % of its largest value (at least 0.02),
or nothing is written (exit 1); a float input whose TFLite metadata has NormalizationOptions
gets the photos as (pixel - mean) / std. Layouts recognised by their tensors: MediaPipe BlazePose
landmarks (pose_landmark_lite/full/heavy) and selfie segmentation (256x256, 144x256); by the
file's TFLite metadata: a semantic segmenter (an image input with mean/std, one output whose
class axis matches its labels file: the labels, normalization, size and licence go into the
manifest); and AI Hub names as above. Anything else gets the ONNX and <N>.manifest.draft.json
(with the metadata's labels and normalization when it has them), and the refusal names the
fields to complete (exit 2). A damaged file or metadata is refused before conversion (exit 2).

options:
  --name N      manifest name and file name (default: FILE without .onnx / .tflite)
  --force       overwrite an existing manifest (and, for .tflite, the ONNX file)
  --json        print the result as JSON
  --images DIR  .tflite: photos for the conversion check (default .cache/photos, bootstrap's)
  --python PY   .tflite: the Python with tf2onnx and TensorFlow (default .cache/tools-venv/bin/python)
  -h, --help    this text

exit code: 0 written, 1 the conversion check failed or the converter is missing, 2 bad usage
or a file that cannot be imported`;

export interface ModelImportOptions {
  readonly file: string;
  readonly name?: string;
  readonly force: boolean;
  readonly json: boolean;
  /** .tflite only: photos for the conversion check, and the converter's Python. */
  readonly images?: string;
  readonly python?: string;
}

/**
 * A file this checkout pins by SHA-256 (a bootstrap model from a registry) names its package,
 * version and the weights' licence from the pin list, instead of "user-provided export".
 */
function withPinnedProvenance(m: ModelManifestData, file: string): ModelManifestData {
  const pin = findPinnedFile(sha256File(file));
  if (!pin) return m;
  return {
    ...m,
    provenance: {
      registry: pin.registry,
      package: pin.package,
      version: pin.version,
      license: pin.license,
      description: `${pin.file} from the ${pin.registry} package ${pin.package} ${pin.version} (SHA-256 ${pin.sha256.slice(0, 16)}...), unchanged. ${m.provenance.description}`,
    },
  };
}

export function modelImportCommand(o: ModelImportOptions): CommandResult {
  const file = path.resolve(o.file);
  if (/\.tflite$/i.test(file)) return tfliteImportCommand(o);
  if (!/\.onnx$/i.test(file)) throw new UsageError(`${o.file}: expected an .onnx or .tflite file`);
  if (o.images !== undefined || o.python !== undefined) {
    throw new UsageError('--images and --python apply to .tflite files only');
  }
  if (!fs.existsSync(file)) throw new UsageError(`${o.file}: no such file`);
  if (o.name !== undefined && !/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(o.name)) {
    throw new UsageError(`--name ${o.name}: use letters, digits, '.', '_' and '-' only`);
  }
  const derived = deriveManifest(file, readOnnxModel(file), {
    allowAihub: true,
    ...(o.name !== undefined ? { name: o.name } : {}),
  });
  const m = withPinnedProvenance(derived.manifest, file);
  const out = path.join(path.dirname(file), `${m.name}.manifest.json`);
  if (fs.existsSync(out) && !o.force) {
    throw new UsageError(`${out} exists: pass --force to overwrite it`);
  }
  fs.writeFileSync(out, `${JSON.stringify(m, null, 2)}\n`);
  if (o.json) {
    process.stdout.write(
      `${JSON.stringify({ manifest: out, kind: derived.kind, name: m.name, task: m.task, family: m.family, classes: m.classNames.length, assumptions: derived.assumptions }, null, 2)}\n`,
    );
  } else {
    const lines = [
      `wrote ${out}`,
      `  ${derived.kind === 'ultralytics' ? 'Ultralytics export' : 'AI Hub layout'}: ${m.task} / ${m.family}, input ${m.input.name} ${m.input.width}x${m.input.height} ${m.input.layout}, ${m.classNames.length} class(es), outputs ${m.outputs.format}`,
      ...derived.assumptions.map((a) => `  assumed: ${a} (edit the manifest if wrong)`),
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  }
  return 0;
}
