import * as fs from 'node:fs';
import * as path from 'node:path';
import { resolveModelReference } from '../config/perceptionConfig';
import { loadModelManifest } from '../config/modelManifest';
import { listPhotos } from '../photos/photoFrames';
import type { InputTransport } from '../ros/imageIntake';
import { formatTable } from '../util/formatTable';
import { type AgreementThresholds, inapplicableThresholds } from '../quantize/agreementThresholds';
import { captureFrames } from '../quantize/captureFrames';
import {
  type CalibrationSplit,
  explicitSplit,
  HOLDOUT_EVERY,
  splitEveryNth,
} from '../quantize/calibrationSplit';
import { checkQuantizerPython, DEFAULT_TOOLS_PYTHON, runQuantizer } from '../quantize/runQuantizer';
import { type QuantizedCandidate, validateQuantized } from '../quantize/validateQuantized';
import type { QuantizedPrecision } from '../core/precisions';
import { exportedHtpContext, htpContextPath } from '../pipeline/selectHtpContext';
import { verifyModelChecksum } from '../pipeline/verifyModelChecksum';
import {
  addQuantizedToManifest,
  defaultQuantizedPath,
  recordSha256,
} from './quantizedManifestFiles';
import { validationRecord, whereItRan } from './quantizeValidationRecord';
import { reportRows } from '../quantize/validationReport';
import { type CommandResult, UsageError } from './cliErrors';

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
  const record = validationRecord({
    manifest,
    manifestPath,
    precision,
    fp32,
    validated,
    quantizer,
    split,
    splitRule,
    captured,
    candidate,
    run,
    thresholds: o.thresholds,
  });
  const { failures, notes } = record;
  const text = `${JSON.stringify(record, null, 2)}\n`;
  const beside = path.join(
    path.dirname(manifestPath),
    `${manifest.name}.${precision}.validation.json`,
  );
  fs.writeFileSync(beside, text);
  if (o.json !== undefined) fs.writeFileSync(path.resolve(o.json), text);

  const lines = [
    '',
    `${label} vs FP32, ${manifest.name} (${manifest.task}), ${split.holdout.length} validation image(s), ${whereItRan(candidate, run)}:`,
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

function utcStamp(): string {
  return new Date().toISOString().replace(/[-:]/g, '').replace(/\..*$/, '');
}
