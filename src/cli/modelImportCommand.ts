import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ModelManifestData } from '../config/modelManifest';
import { cutAtRawHead, type RawHeadCut } from '../model/cutAtRawHead';
import { deriveManifest } from '../model/deriveManifest';
import { OnnxFormatError, readOnnxModel } from '../model/readOnnxModel';
import { withModelSha256 } from './withModelSha256';
import { sha256File } from '../util/sha256File';
import { type CommandResult, UsageError } from './cliErrors';
import { findPinnedFile } from './tflite/knownTfliteFiles';
import { tfliteImportCommand } from './tflite/tfliteImportCommand';
import { tfjsImportCommand } from './tfjs/tfjsImportCommand';
import { pteImportCommand } from './executorch/pteImportCommand';
import { isEpContextModel, qnnExportImportCommand } from './qnn/qnnExportImportCommand';

export const MODEL_HELP = `usage: htp-perception model <command> ...

commands:
  import FILE.onnx|FILE.tflite|MODEL.json|FILE.pte|DIR [--name N] [--raw-head] [--force] [--json]
                  write FILE's manifest beside it; a .tflite or a TensorFlow.js
                  model.json is converted to ONNX first; a .pte runs on ExecuTorch
                  (see 'model import --help')
  import MODEL --batch N [--name N] [--force] [--json]
                  a batch-N copy of an imported model, one run for N cameras
  quantize NAME (--images DIR | --topic T --frames N) [--holdout DIR] [thresholds]
                  INT8 QDQ for the HTP, validated against FP32 (see 'model quantize --help')
  compile NAME [--soc qcs6490] [--precision int8|fp32] [--json]
                  compile for the HTP ahead of time (see 'model compile --help')
  list [--json]   every model a node can name, with its files, licence and source

exit code: 0 ok, 1 a check failed, 2 bad usage or input`;

export const MODEL_IMPORT_HELP = `usage: htp-perception model import FILE.onnx [--name N] [--raw-head] [--force] [--json]
       htp-perception model import FILE.tflite [--name N] [--images DIR] [--python PY] [--force] [--json]
       htp-perception model import MODEL.json [--name N] [--size HxW] [--images DIR] [--python PY] [--force] [--json]
       htp-perception model import FILE.pte|DIR [--name N] [--force] [--json]
       htp-perception model import MODEL --batch N [--name N] [--force] [--json]

Writes <N>.manifest.json beside FILE.onnx, derived from the file itself:
  - Ultralytics exports (yolo export format=onnx): task, class names, image size and keypoint
    shape from the ONNX metadata; detect, pose and segment. End-to-end exports (nms=True,
    YOLOv10, YOLO26: NMS inside the model, rows [1, N, 6 + ...]) are decoded without our NMS;
    --raw-head instead writes <N>.onnx (default N: FILE-rawhead) cut before an nms=True
    export's NMS, for the HTP (which does not take that NMS), and our heads run the NMS.
  - Qualcomm AI Hub exports: recognised by their input 'image' and output names and shapes
    (boxes/scores/class_idx[/mask_coeffs/mask_protos], heatmaps, mask). AI Hub files carry no
    class names: COCO-80 or VOC-21 is assumed and printed for review.
  - Ultralytics QNN exports (yolo export format=qnn name=68: X_qnn.onnx, an EP context model
    whose QNN context binary holds the W8A16 network for Hexagon v68): the manifest (default N:
    X-qnn) describes the FP32 channel-last X.onnx the exporter writes beside it, and records the
    binary as its w8a16 HTP context: precision w8a16 with provider htp runs it as exported.
Anything else is refused, naming the inputs and outputs found and the example manifest to start
from (models/examples/). The manifest is checked against the file before it is written.

With --batch N (2 to 16), MODEL is an imported model (a name under models/ or a manifest path):
its batch-N copy <MODEL>-b<N> (default name) is written beside it, every model file of it
(fp32, int8, w8a16) with N on the input's and each output's leading axis (a symbolic batch is
fixed to N; a Reshape to a constant shape starting with 1 gets N there). Each file is then proven
on the CPU: run once on N different frames it must give, slot by slot, what the original gives
on each frame alone (within 1e-4 of each output's largest value), or nothing is written (exit 1).
A node whose cameras share the model runs them as one batch with it (batch_window_ms); for the
HTP compile the copy ('model compile <MODEL>-b<N>': its context binary is for that batch).

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

A TensorFlow.js graph model (MODEL.json with its weight shards beside it) is converted to <N>.onnx
with tf2onnx's tfjs reader (the attribute defaults TensorFlow.js' converter leaves out are written
back from TensorFlow's op definitions first) and proven against TensorFlow.js itself
(tools/tfjs, WebAssembly backend) on the photos of --images, to the bound above. An int32 image
input (MoveNet's) becomes uint8 followed by a Cast; a dynamic input gets the size the model's
signature states, or --size HxW. Layouts recognised by the signature's shapes: NanoDet's GFL head
(COCO-80, fed with NanoDet's BGR normalization), MoveNet MultiPose ([1,P,56]) and MoveNet
SinglePose ([1,1,17,3]). A pinned model (scripts/setup/tfjs-models.txt) names its package and its
weights' licence with where it was read.

An ExecuTorch program (FILE.pte, or the folder an Ultralytics 'format=executorch' export writes,
<stem>_executorch_model/ with model.pte and metadata.yaml) is described from the program's own
method signature and Ultralytics' metadata.yaml beside it, as its ONNX twin would be; the node
runs it through ExecuTorch's runtime (the engine's ExecuTorch plug-in). The instructions'
placement (delegate calls per backend, calls to ExecuTorch's CPU kernels) is printed.

options:
  --name N      manifest name and file name (default: FILE without .onnx / .tflite / .pte, or
                the folder's name without _executorch_model)
  --raw-head    .onnx: cut an Ultralytics nms=True export at its raw head (see above)
  --batch N     MODEL: write its batch-N copy (see above)
  --force       overwrite an existing manifest (and, for .tflite or --raw-head, the ONNX file)
  --json        print the result as JSON
  --images DIR  .tflite, model.json: photos for the conversion check (default .cache/photos, bootstrap's)
  --python PY   .tflite, model.json: the Python with tf2onnx and TensorFlow (default .cache/tools-venv/bin/python)
  --size HxW    model.json: the input size of a graph that takes any (default: its signature's)
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
  /** model.json only: a dynamic input's height x width. */
  readonly size?: readonly [number, number];
  /** .onnx only: cut an end-to-end export at its raw head first (cutAtRawHead). */
  readonly rawHead?: boolean;
  /** An imported model (name or manifest): write its batch-N copy (batchCopyCommand). */
  readonly batch?: number;
}

/**
 * A file this checkout pins by SHA-256 (a bootstrap model from a registry) names its package,
 * version and the weights' licence from the pin list, instead of "user-provided export".
 */
function withPinnedProvenance(
  m: ModelManifestData,
  file: string,
  change = 'unchanged',
): ModelManifestData {
  const pin = findPinnedFile(sha256File(file));
  if (!pin) return m;
  return {
    ...m,
    provenance: {
      registry: pin.registry,
      package: pin.package,
      version: pin.version,
      license: pin.license,
      description: `${pin.file} from the ${pin.registry} package ${pin.package} ${pin.version} (SHA-256 ${pin.sha256.slice(0, 16)}...), ${change}. ${m.provenance.description}`,
    },
  };
}

/**
 * `--raw-head`: writes the end-to-end export `file` cut at its raw head as <name>.onnx beside it.
 * A file without the Ultralytics NMS tail is refused (exit 2) naming what is missing.
 */
function writeRawHeadCut(
  file: string,
  o: ModelImportOptions,
): { file: string; summary: string; json: object } {
  let cut: RawHeadCut;
  try {
    cut = cutAtRawHead(fs.readFileSync(file));
  } catch (e) {
    if (e instanceof OnnxFormatError) {
      throw new UsageError(`${o.file}: --raw-head: ${e.message}`);
    }
    throw e;
  }
  const name = o.name ?? `${path.basename(file, path.extname(file))}-rawhead`;
  const out = path.join(path.dirname(file), `${name}.onnx`);
  for (const f of [out, path.join(path.dirname(file), `${name}.manifest.json`)]) {
    if (fs.existsSync(f) && !o.force) {
      throw new UsageError(`${f} exists: pass --force to overwrite it`);
    }
  }
  fs.writeFileSync(out, cut.bytes);
  const { scoreThreshold: conf, iouThreshold: iou } = cut.embeddedNms;
  return {
    file: out,
    summary:
      `wrote ${out}: cut at ${cut.rawHead}, ${cut.removedNodes} nodes of the export's NMS removed ` +
      `(its conf ${String(conf ?? 'unknown')}, IoU ${String(iou ?? 'unknown')}: ` +
      'score_threshold and iou_threshold at those values reproduce it)',
    json: { file: out, tensor: cut.rawHead, removedNodes: cut.removedNodes, ...cut.embeddedNms },
  };
}

export function modelImportCommand(o: ModelImportOptions): CommandResult {
  const original = path.resolve(o.file);
  if (o.rawHead === true && !/\.onnx$/i.test(original)) {
    throw new UsageError('--raw-head applies to .onnx files only');
  }
  if (o.size !== undefined && !/\.json$/i.test(original)) {
    throw new UsageError('--size applies to TensorFlow.js model.json files only');
  }
  if (/\.tflite$/i.test(original)) return tfliteImportCommand(o);
  if (/\.json$/i.test(original)) return tfjsImportCommand(o);
  if (
    /\.pte$/i.test(original) ||
    (fs.existsSync(original) && fs.statSync(original).isDirectory())
  ) {
    if (o.images !== undefined || o.python !== undefined) {
      throw new UsageError('--images and --python apply to .tflite files only');
    }
    return pteImportCommand({
      file: o.file,
      force: o.force,
      json: o.json,
      ...(o.name !== undefined ? { name: o.name } : {}),
    });
  }
  if (!/\.onnx$/i.test(original))
    throw new UsageError(
      `${o.file}: expected an .onnx, .tflite or .pte file, a TensorFlow.js model.json or an ExecuTorch export folder`,
    );
  if (o.images !== undefined || o.python !== undefined) {
    throw new UsageError('--images and --python apply to .tflite files only');
  }
  if (!fs.existsSync(original)) throw new UsageError(`${o.file}: no such file`);
  // Read once: an Ultralytics QNN export is told by its EPContext node; a --raw-head cut is read
  // from the file it writes.
  const originalInfo = o.rawHead === true ? undefined : readOnnxModel(original);
  if (originalInfo && isEpContextModel(originalInfo)) {
    return qnnExportImportCommand({
      file: original,
      info: originalInfo,
      force: o.force,
      json: o.json,
      ...(o.name !== undefined ? { name: o.name } : {}),
    });
  }
  const cut = o.rawHead === true ? writeRawHeadCut(original, o) : undefined;
  const file = cut?.file ?? original;
  const derived = deriveManifest(file, originalInfo ?? readOnnxModel(file), {
    allowAihub: true,
    ...(o.name !== undefined || cut ? { name: o.name ?? path.basename(file, '.onnx') } : {}),
  });
  // A cut file's provenance is its original's (the pin list names the original's hash).
  const m = withModelSha256(
    withPinnedProvenance(
      derived.manifest,
      original,
      cut ? `cut at its raw head by 'model import --raw-head'` : undefined,
    ),
    path.dirname(file),
    'fp32',
  );
  const out = path.join(path.dirname(file), `${m.name}.manifest.json`);
  if (fs.existsSync(out) && !o.force) {
    throw new UsageError(`${out} exists: pass --force to overwrite it`);
  }
  fs.writeFileSync(out, `${JSON.stringify(m, null, 2)}\n`);
  if (o.json) {
    process.stdout.write(
      `${JSON.stringify({ manifest: out, kind: derived.kind, name: m.name, task: m.task, family: m.family, classes: m.classNames.length, assumptions: derived.assumptions, ...(cut ? { rawHead: cut.json } : {}) }, null, 2)}\n`,
    );
  } else {
    const lines = [
      `wrote ${out}`,
      `  ${derived.kind === 'ultralytics' ? 'Ultralytics export' : 'AI Hub layout'}: ${m.task} / ${m.family}, input ${m.input.name} ${m.input.width}x${m.input.height} ${m.input.layout}, ${m.classNames.length} class(es), outputs ${m.outputs.format}`,
      ...(cut ? [`  ${cut.summary}`] : []),
      ...derived.assumptions.map((a) => `  assumed: ${a} (edit the manifest if wrong)`),
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  }
  return 0;
}
