import * as fs from 'node:fs';
import * as path from 'node:path';
import { resolveModelReference } from '../config/perceptionConfig';
import { loadModelManifest, type ModelManifest, parseModelManifest } from '../config/modelManifest';
import { listPhotos } from '../photos/photoFrames';
import type { InputTransport } from '../ros/imageIntake';
import { formatTable } from '../util/formatTable';
import {
  type AgreementThresholds,
  inapplicableThresholds,
  thresholdFailures,
} from '../quantize/agreementThresholds';
import type { AgreementReport } from '../quantize/int8Agreement';
import { captureFrames } from '../quantize/captureFrames';
import {
  type CalibrationSplit,
  explicitSplit,
  HOLDOUT_EVERY,
  splitEveryNth,
} from '../quantize/calibrationSplit';
import { checkQuantizerPython, DEFAULT_TOOLS_PYTHON, runQuantizer } from '../quantize/runQuantizer';
import {
  type QuantizedCandidate,
  type ValidationRun,
  validateQuantized,
} from '../quantize/validateQuantized';
import type { QuantizedPrecision } from '../core/precisions';
import { exportedHtpContext, htpContextPath } from '../pipeline/selectHtpContext';
import { verifyModelChecksum } from '../pipeline/verifyModelChecksum';
import { withModelSha256 } from './withModelSha256';
import { reportRows } from '../quantize/validationReport';
import { type CommandResult, UsageError } from './cliErrors';
import { outputFormat } from '../families/registry';

export const MODEL_QUANTIZE_HELP = `usage: htp-perception model quantize NAME --images DIR [--holdout DIR] [--precision P] [options]
       htp-perception model quantize NAME --topic T --frames N [--holdout DIR] [options]

Writes the manifest's files.int8: INT8 QDQ for the HTP (W8A8: uint8 activations, int8
per-channel weights, the YOLO decode tail kept float), with ONNX Runtime's static quantizer
calibrated on your images; with --precision w8a16, files.w8a16: the same recipe with 16-bit
activations (W8A16, what Ultralytics' format=qnn export makes: slower on the HTP, closer to FP32).
Then validates it: FP32 and the quantized model run through the nodes' own engine and heads on
the CPU, on images NOT used for calibration, and their agreement is printed and saved as JSON.

NAME is a model name under models/ (yolov8s-fall) or a *.manifest.json path. A manifest without
files.int8 (files.w8a16) gets "<fp32 name>.int8.qdq.onnx" (".w8a16.qdq.onnx") added. Ultralytics
.onnx files: run 'model import' first. A model file that no longer matches the SHA-256 its
manifest records (files.sha256) is refused; the written file's is recorded when it is added or
the manifest records checksums. --validate-only --precision w8a16 on an imported Ultralytics
format=qnn export validates its context binary, run on the HTP (on x86-64 the QNN simulator:
seconds per image).

images:
  --images DIR          calibration photos (.jpg/.jpeg/.png)
  --holdout DIR         validation photos; without it every ${HOLDOUT_EVERY}th image of --images (name order)
                        is held out of calibration and validates (refused if that leaves none)
  --topic T             capture calibration frames from a ROS 2 camera topic instead
  --frames N            how many frames to capture from --topic
  --compressed          T is sensor_msgs/CompressedImage (implied when T ends in /compressed);
                        otherwise sensor_msgs/Image in any encoding the nodes accept
  --interval S          least seconds between two captured frames (default 0.5)
  --capture-dir DIR     where the frames are saved as PNG (default: beside the manifest,
                        <name>.calibration-<UTC time>/); the command prints it
  --capture-timeout S   give up when N frames have not arrived after S seconds (default: twice
                        N x interval, plus 30 s, at least 60)

validation thresholds (default: none; any miss gives exit 1):
  --min-match-rate R    detect/pose/seg: INT8 boxes matched to FP32 (IoU >= 0.5, same class),
                        matched / max(FP32, INT8) per image
  --min-box-iou R       detect/pose/seg: mean IoU of matched boxes
  --max-score-drift D   detect/pose/seg: largest |INT8 score - FP32 score| of a match
  --min-oks R           pose: mean object keypoint similarity (COCO sigmas)
  --max-keypoint-px P   pose: mean keypoint distance in source pixels
  --min-mask-iou R      seg: mean instance mask IoU of matches
  --min-miou R          semantic: mean IoU of the INT8 label map against the FP32 one
  e.g. for a trained detector: --min-match-rate 0.9 --max-score-drift 0.15

other:
  --precision P         int8 (default, W8A8) or w8a16 (16-bit activations, 8-bit weights)
  --json PATH           also write the validation JSON to PATH (it is always written beside
                        the model as <name>.<precision>.validation.json)
  --python PATH         the Python that runs the quantizer (default .cache/tools-venv/bin/python,
                        installed by 'bash scripts/bootstrap.sh 25-pytools')
  --threads N           CPU threads for validation (default 0: ONNX Runtime decides)
  --cpu-int8-kernels K  auto (default), u8s8 or u8u8: the CPU's INT8 kernels for validation. auto
                        takes u8u8 on x86-64 without VNNI, whose u8s8 kernels saturate; the
                        HTP is not affected either way
  --allow-model-mismatch
                        use model files whose SHA-256 is not the manifest's (files.sha256)
  --validate-only       validate the existing files.int8 without quantizing (needs --holdout,
                        or --images to hold every ${HOLDOUT_EVERY}th image out of)
  -h, --help            this text

Models with untrained weights (manifest "weights": "untrained") validate too, but their
agreement says nothing about INT8 accuracy; the report says so.

exit code: 0 written and within thresholds; 1 a threshold missed, the quantizer failed or its
Python is missing (the message says how to install it), or too few frames arrived from --topic;
2 bad usage or input (unknown model, missing folder, too few images)`;

export type QuantizeSource =
  | { readonly kind: 'images'; readonly directory: string }
  /** --validate-only with --holdout alone: nothing to calibrate. */
  | { readonly kind: 'none' }
  | {
      readonly kind: 'topic';
      readonly topic: string;
      readonly frames: number;
      readonly transport: InputTransport;
      readonly intervalMs: number;
      readonly timeoutMs: number;
      readonly directory?: string;
    };

export interface ModelQuantizeOptions {
  readonly model: string;
  /** Which quantized file to write and validate (default int8). */
  readonly precision?: QuantizedPrecision;
  readonly source: QuantizeSource;
  readonly holdout?: string;
  /** Validate the existing files.int8 without quantizing. */
  readonly validateOnly: boolean;
  /** Use model files that do not match the manifest's files.sha256 (default: refuse them). */
  readonly allowModelMismatch?: boolean;
  readonly json?: string;
  readonly python?: string;
  readonly threads: number;
  readonly cpuInt8Kernels: 'auto' | 'u8s8' | 'u8u8';
  readonly thresholds: AgreementThresholds;
}

const UNTRAINED_NOTE =
  'weights untrained: FP32 and INT8 are two versions of a random network, so this agreement ' +
  'only shows the INT8 model runs; it says nothing about INT8 accuracy';

export async function modelQuantizeCommand(o: ModelQuantizeOptions): Promise<CommandResult> {
  const manifestPath = resolveManifestPath(o.model);
  const manifest = loadModelManifest(manifestPath);
  const misplaced = inapplicableThresholds(o.thresholds, manifest.task);
  if (misplaced.length > 0) {
    throw new UsageError(
      `${misplaced.join(', ')} ${misplaced.length > 1 ? 'do' : 'does'} not apply to ${manifest.name} (task ${manifest.task})`,
    );
  }
  const python = path.resolve(o.python ?? DEFAULT_TOOLS_PYTHON);
  // Before any capture or work: a missing Python is the most likely problem on a fresh machine.
  if (!o.validateOnly) checkQuantizerPython(python);
  const holdoutFiles = o.holdout !== undefined ? photosIn(o.holdout, '--holdout') : undefined;

  let calibrationFiles: string[] = [];
  let captured: string | undefined;
  if (o.source.kind === 'images') {
    calibrationFiles = photosIn(o.source.directory, '--images');
  } else if (o.source.kind === 'topic') {
    captured = path.resolve(
      o.source.directory ??
        path.join(path.dirname(manifestPath), `${manifest.name}.calibration-${utcStamp()}`),
    );
    say(`capturing ${o.source.frames} frame(s) from ${o.source.topic} into ${captured}`);
    const c = await captureFrames({ ...o.source, directory: captured });
    say(
      `captured ${c.files.length} frame(s) into ${captured} (${c.received} received, ${c.rejected} rejected)`,
    );
    calibrationFiles = [...c.files];
  }
  const split: CalibrationSplit = holdoutFiles
    ? explicitSplit(calibrationFiles, holdoutFiles, sameFile)
    : splitEveryNth(calibrationFiles);
  const splitRule = holdoutFiles
    ? 'the --holdout folder'
    : `every ${HOLDOUT_EVERY}th image held out`;

  const precision = o.precision ?? 'int8';
  const label = precision.toUpperCase();
  const fp32 = manifest.modelPaths.fp32;
  const listed = manifest.modelPaths[precision];
  const target = listed ?? defaultQuantizedPath(manifestPath, fp32, precision);
  const allowMismatch = o.allowModelMismatch === true;
  // The source of the quantized model: a changed FP32 file is refused before anything is written.
  verifyModelChecksum(manifest, 'fp32', allowMismatch);
  let quantizer = 'not run (--validate-only)';
  let candidate: QuantizedCandidate = { precision, provider: 'cpu' };
  let validated = target;
  if (o.validateOnly) {
    const exported = exportedHtpContext(manifest, precision);
    if (listed === undefined && exported) {
      // Only the HTP runs a context binary: here, the QNN provider's simulator.
      candidate = { precision, provider: 'htp' };
      validated = htpContextPath(manifest, exported);
    } else if (listed === undefined || !fs.existsSync(target)) {
      throw new UsageError(
        `--validate-only: ${manifest.name} has no ${label} model (${target}) to validate`,
      );
    }
    say(
      `validating ${validated}${candidate.provider === 'htp' ? ' on the HTP' : ''} on ${split.holdout.length} image(s) (${splitRule})`,
    );
  } else {
    say(
      `quantizing ${path.basename(fp32)} to ${label} on ${split.calibration.length} calibration image(s); ` +
        `validating on ${split.holdout.length} (${splitRule})`,
    );
    quantizer = runQuantizer({
      python,
      manifestPath,
      photos: split.calibration,
      output: target,
      precision,
    });
    say(quantizer);
    if (listed === undefined) {
      addQuantizedToManifest(manifestPath, precision, path.basename(target));
      say(`added files.${precision} "${path.basename(target)}" to ${manifestPath}`);
    }
    // Hand-written manifests that already name their INT8 file and record no checksums (those in
    // git) are left as they are: bootstrap re-quantizes them and must not change tracked files.
    if (listed === undefined || manifest.files.sha256 !== undefined) {
      recordSha256(manifestPath, precision);
      say(`recorded files.sha256.${precision} in ${manifestPath}`);
    }
    const stale = (manifest.files.htpContexts ?? []).filter(
      (c) => c.precision === precision && c.exportedBy === undefined,
    );
    if (stale.length > 0) {
      // The nodes refuse a context binary whose source hash no longer matches: say so now.
      say(
        `the HTP context binaries of files.htpContexts (${stale.map((c) => c.file).join(', ')}) ` +
          `were compiled from the previous ${label} model: run 'htp-perception model compile ${o.model} --precision ${precision}' again`,
      );
    }
  }

  const run = await validateQuantized(
    manifestPath,
    split.holdout,
    o.threads,
    o.cpuInt8Kernels,
    allowMismatch,
    candidate,
  );
  const failures = thresholdFailures(run.report, o.thresholds);
  const notes = validationNotes(manifest, run.report);
  const result = {
    model: manifest.name,
    manifest: manifestPath,
    task: manifest.task,
    weights: manifest.weights,
    meaningful: manifest.weights !== 'untrained',
    precision,
    fp32,
    // Named int8 since the first validation files: the validated model, whatever its precision.
    int8: validated,
    recipe: quantizedRecipe(candidate, run),
    quantizer,
    calibration: { images: split.calibration, ...(captured ? { capturedFrom: captured } : {}) },
    validation: {
      rule: splitRule,
      images: split.holdout,
      engine:
        candidate.provider === 'htp'
          ? 'ModelPipeline: FP32 on the CPU provider, the context binary on the QNN HTP provider (on x86-64 its simulator)'
          : 'ModelPipeline on the CPU provider',
      cpuInt8Kernels: run.cpuInt8Kernels,
      perImage: run.perImage,
    },
    agreement: run.report,
    thresholds: o.thresholds,
    failures,
    passed: failures.length === 0,
    notes,
  };
  const text = `${JSON.stringify(result, null, 2)}\n`;
  const beside = path.join(
    path.dirname(manifestPath),
    `${manifest.name}.${precision}.validation.json`,
  );
  fs.writeFileSync(beside, text);
  if (o.json !== undefined) fs.writeFileSync(path.resolve(o.json), text);

  const lines = [
    '',
    `${label} vs FP32, ${manifest.name} (${manifest.task}), ${split.holdout.length} validation image(s), ${whereItRan(label, candidate, run)}:`,
    formatTable(reportRows(run.report, o.thresholds, precision).map((r) => ({ ...r }))),
    ...notes.map((n) => `note: ${n}`),
    ...(o.validateOnly ? [] : [`wrote ${target}`]),
    `wrote ${beside}${o.json !== undefined ? ` and ${path.resolve(o.json)}` : ''}`,
    failures.length === 0
      ? `${label} is within every threshold given`
      : `${label} is NOT good enough: ${failures.join('; ')}`,
  ];
  say(lines.join('\n'));
  return failures.length === 0 ? 0 : 1;
}

/** How the validated model was made, as far as this command knows. */
function quantizedRecipe(candidate: QuantizedCandidate, run: ValidationRun): string {
  if (candidate.provider === 'htp') {
    return "Ultralytics format=qnn: ONNX Runtime's QNN QDQ flow, uint16 activations, uint8 weights, compiled into a QNN context binary by Ultralytics' exporter";
  }
  if (run.runtime === 'executorch') {
    // A program is quantized when it is made (for the bootstrap's: step 76's PT2E flow).
    return `an ExecuTorch program quantized where it was made, run as it is (delegates: ${run.delegates.join(', ') || 'none'})`;
  }
  return candidate.precision === 'w8a16'
    ? 'ONNX Runtime quantize_static QDQ: uint16 activations, int8 per-channel weights (tools/models/quantize_int8.py --precision w8a16)'
    : 'ONNX Runtime quantize_static QDQ: uint8 activations, int8 per-channel weights (tools/models/quantize_int8.py)';
}

function whereItRan(label: string, candidate: QuantizedCandidate, run: ValidationRun): string {
  if (candidate.provider === 'htp') return `${label} on the HTP`;
  if (run.runtime === 'executorch') return `${label} on ExecuTorch (${run.delegates.join(', ')})`;
  return candidate.precision === 'int8'
    ? `CPU INT8 kernels ${run.cpuInt8Kernels}`
    : `${label} on the CPU`;
}

function say(text: string): void {
  process.stdout.write(`${text}\n`);
}

/** NAME (a model under models/) or a manifest path; refuses an .onnx or an unknown name. */
function resolveManifestPath(ref: string): string {
  const resolved = resolveModelReference(ref);
  if (/\.onnx$/i.test(resolved)) {
    throw new UsageError(
      `${ref}: quantize needs a manifest; run 'htp-perception model import ${ref}' first`,
    );
  }
  if (!fs.existsSync(resolved)) {
    throw new UsageError(`${ref}: no model of that name under models/ and no such manifest file`);
  }
  return path.resolve(resolved);
}

function photosIn(dir: string, flag: string): string[] {
  const full = path.resolve(dir);
  if (!fs.existsSync(full) || !fs.statSync(full).isDirectory())
    throw new UsageError(`${flag} ${dir}: no such folder`);
  return listPhotos(full);
}

/** Beside the manifest, because files.* names are relative to it. */
function defaultQuantizedPath(
  manifestPath: string,
  fp32: string,
  precision: QuantizedPrecision,
): string {
  return path.join(
    path.dirname(manifestPath),
    `${path.basename(fp32).replace(/\.onnx$/i, '')}.${precision}.qdq.onnx`,
  );
}

/** Adds files.<precision> to the manifest file, keeping every other field as written. */
function addQuantizedToManifest(
  manifestPath: string,
  precision: QuantizedPrecision,
  file: string,
): void {
  const data = JSON.parse(fs.readFileSync(manifestPath, 'utf8')) as {
    files: Record<string, string>;
  };
  data.files = { ...data.files, [precision]: file };
  fs.writeFileSync(manifestPath, `${JSON.stringify(data, null, 2)}\n`);
}

/** Sets files.sha256.<precision> to that file's hash; written beside and renamed, like compile's. */
function recordSha256(manifestPath: string, precision: QuantizedPrecision): void {
  const data: unknown = JSON.parse(fs.readFileSync(manifestPath, 'utf8'));
  const next = withModelSha256(
    parseModelManifest(data, manifestPath),
    path.dirname(manifestPath),
    precision,
  );
  const raw = data as { files: Record<string, unknown> };
  // Only files.sha256 changes: every other field stays as the file wrote it.
  raw.files.sha256 = next.files.sha256;
  parseModelManifest(raw, manifestPath);
  const tmp = path.join(
    path.dirname(manifestPath),
    `.${path.basename(manifestPath)}.${process.pid}.tmp`,
  );
  fs.writeFileSync(tmp, `${JSON.stringify(raw, null, 2)}\n`);
  fs.renameSync(tmp, manifestPath);
}

function sameFile(a: string, b: string): boolean {
  if (path.resolve(a) === path.resolve(b)) return true;
  try {
    const sa = fs.statSync(a);
    const sb = fs.statSync(b);
    return sa.ino === sb.ino && sa.dev === sb.dev;
  } catch {
    return false;
  }
}

function validationNotes(m: ModelManifest, r: AgreementReport): string[] {
  const notes = m.weights === 'untrained' ? [UNTRAINED_NOTE] : [];
  const formatNote = outputFormat(m.outputs).validationNote;
  if (formatNote !== undefined) notes.push(formatNote);
  if (r.detections && r.detections.fp32 === 0) {
    notes.push(
      'FP32 found nothing on the validation images, so the box metrics are untested: ' +
        "validate on images that show the model's classes",
    );
  }
  return notes;
}

function utcStamp(): string {
  return new Date().toISOString().replace(/[-:]/g, '').replace(/\..*$/, '');
}
