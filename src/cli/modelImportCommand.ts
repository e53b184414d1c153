import * as fs from 'node:fs';
import * as path from 'node:path';
import { deriveManifest } from '../model/deriveManifest';
import { readOnnxModel } from '../model/readOnnxModel';
import { type CommandResult, UsageError } from './cliErrors';

export const MODEL_HELP = `usage: htp-perception model <command> ...

commands:
  import FILE.onnx [--name N] [--force] [--json]
                  write FILE's manifest beside it (see 'model import --help')
  quantize NAME (--images DIR | --topic T --frames N) [--holdout DIR] [thresholds]
                  INT8 QDQ for the HTP, validated against FP32 (see 'model quantize --help')
  compile NAME [--soc qcs6490] [--precision int8|fp32] [--json]
                  compile for the HTP ahead of time (see 'model compile --help')

exit code: 0 ok, 1 a check failed, 2 bad usage or input`;

export const MODEL_IMPORT_HELP = `usage: htp-perception model import FILE.onnx [--name N] [--force] [--json]

Writes <N>.manifest.json beside FILE.onnx, derived from the file itself:
  - Ultralytics exports (yolo export format=onnx): task, class names, image size and keypoint
    shape from the ONNX metadata; detect, pose and segment.
  - Qualcomm AI Hub exports: recognised by their input 'image' and output names and shapes
    (boxes/scores/class_idx[/mask_coeffs/mask_protos], heatmaps, mask). AI Hub files carry no
    class names: COCO-80 or VOC-21 is assumed and printed for review.
Anything else is refused, naming the inputs and outputs found and the example manifest to start
from (models/examples/). The manifest is checked against the file before it is written.

options:
  --name N    manifest name and file name (default: FILE without .onnx)
  --force     overwrite an existing manifest
  --json      print the result as JSON
  -h, --help  this text

exit code: 0 written, 2 bad usage or a file that cannot be imported`;

export interface ModelImportOptions {
  readonly file: string;
  readonly name?: string;
  readonly force: boolean;
  readonly json: boolean;
}

export function modelImportCommand(o: ModelImportOptions): CommandResult {
  const file = path.resolve(o.file);
  if (!/\.onnx$/i.test(file)) throw new UsageError(`${o.file}: expected an .onnx file`);
  if (!fs.existsSync(file)) throw new UsageError(`${o.file}: no such file`);
  if (o.name !== undefined && !/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(o.name)) {
    throw new UsageError(`--name ${o.name}: use letters, digits, '.', '_' and '-' only`);
  }
  const derived = deriveManifest(file, readOnnxModel(file), {
    allowAihub: true,
    ...(o.name !== undefined ? { name: o.name } : {}),
  });
  const m = derived.manifest;
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
