/**
 * What `model quantize` writes about a validation (<name>.<precision>.validation.json) and how it
 * names the model it validated: the recipe, where it ran, the notes that qualify the figures.
 */
import type { ModelManifest } from '../config/modelManifest';
import type { QuantizedPrecision } from '../core/precisions';
import { outputFormat } from '../families/registry';
import { type AgreementThresholds, thresholdFailures } from '../quantize/agreementThresholds';
import type { CalibrationSplit } from '../quantize/calibrationSplit';
import type { AgreementReport } from '../quantize/int8Agreement';
import type { QuantizedCandidate, ValidationRun } from '../quantize/validateQuantized';

const UNTRAINED_NOTE =
  'weights untrained: FP32 and INT8 are two versions of a random network, so this agreement ' +
  'only shows the INT8 model runs; it says nothing about INT8 accuracy';

export interface ValidationFacts {
  readonly manifest: ModelManifest;
  readonly manifestPath: string;
  readonly precision: QuantizedPrecision;
  readonly fp32: string;
  /** The file validated: the quantized model, or an exported HTP context binary. */
  readonly validated: string;
  /** What the quantizer said, or why it did not run. */
  readonly quantizer: string;
  readonly split: CalibrationSplit;
  readonly splitRule: string;
  readonly captured: string | undefined;
  readonly candidate: QuantizedCandidate;
  readonly run: ValidationRun;
  readonly thresholds: AgreementThresholds;
}

/** The validation file's content (its field names are read by bootstrap and the benchmarks). */
export function validationRecord(f: ValidationFacts) {
  const failures = thresholdFailures(f.run.report, f.thresholds);
  return {
    model: f.manifest.name,
    manifest: f.manifestPath,
    task: f.manifest.task,
    weights: f.manifest.weights,
    meaningful: f.manifest.weights !== 'untrained',
    precision: f.precision,
    fp32: f.fp32,
    // Named int8 since the first validation files: the validated model, whatever its precision.
    int8: f.validated,
    recipe: quantizedRecipe(f.candidate, f.run),
    quantizer: f.quantizer,
    calibration: {
      images: f.split.calibration,
      ...(f.captured ? { capturedFrom: f.captured } : {}),
    },
    validation: {
      rule: f.splitRule,
      images: f.split.holdout,
      engine:
        f.candidate.provider === 'htp'
          ? 'ModelPipeline: FP32 on the CPU provider, the context binary on the QNN HTP provider (on x86-64 its simulator)'
          : 'ModelPipeline on the CPU provider',
      cpuInt8Kernels: f.run.cpuInt8Kernels,
      perImage: f.run.perImage,
    },
    agreement: f.run.report,
    thresholds: f.thresholds,
    failures,
    passed: failures.length === 0,
    notes: validationNotes(f.manifest, f.run.report),
  };
}

/** How the validated model was made, as far as `model quantize` knows. */
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

/** Where the quantized model ran, for the report's heading. */
export function whereItRan(candidate: QuantizedCandidate, run: ValidationRun): string {
  const label = candidate.precision.toUpperCase();
  if (candidate.provider === 'htp') return `${label} on the HTP`;
  if (run.runtime === 'executorch') return `${label} on ExecuTorch (${run.delegates.join(', ')})`;
  return candidate.precision === 'int8'
    ? `CPU INT8 kernels ${run.cpuInt8Kernels}`
    : `${label} on the CPU`;
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
