import * as path from 'node:path';
import { ModelPipeline } from '../pipeline/modelPipeline';
import { type PipelineResult } from '../core/pipelineResult';
import { loadRgbFrame } from '../photos/photoFrames';
import type { Box } from '../core/headResults';
import type { CpuInt8Kernels } from '../engine/cpuInt8Kernels';
import type { ModelRuntime } from '../engine/nativeAddon';
import type { QuantizedPrecision, RuntimeChoices } from '../pipeline/runtimeChoices';
import { type AgreementReport, Int8Agreement } from './int8Agreement';

export interface PerImageAgreement {
  readonly image: string;
  readonly fp32: number;
  /** The quantized model's count (named int8 since the first validation files; any precision). */
  readonly int8: number;
}

/** The quantized side of a validation: its precision, and where it runs. */
export interface QuantizedCandidate {
  readonly precision: QuantizedPrecision;
  /**
   * cpu, or htp for a precision only a QNN context binary provides (Ultralytics' format=qnn
   * export): the HTP, here its x86-64 simulator.
   */
  readonly provider: 'cpu' | 'htp';
}

export interface ValidationRun {
  readonly report: AgreementReport;
  /** Objects (detections, persons, instances; classes present for semantic) per image. */
  readonly perImage: readonly PerImageAgreement[];
  /** The CPU provider's INT8 kernels for this run (u8u8 where u8s8 would saturate, see engine). */
  readonly cpuInt8Kernels: CpuInt8Kernels;
  /** What ran the quantized model: ONNX Runtime, or ExecuTorch for a program (and its delegates). */
  readonly runtime: ModelRuntime;
  readonly delegates: readonly string[];
}

/**
 * Runs the FP32 and a quantized model of a manifest through the code the nodes run (ModelPipeline:
 * engine preprocessing, the task's head; FP32 on the CPU provider) on each held-out image and
 * measures how far the quantized one departs from FP32. Top-down pose (HRNet) gets one box, the
 * whole image: there is no detector in this loop, and the question is only how quantization
 * changes the keypoints.
 */
export async function validateQuantized(
  manifestPath: string,
  images: readonly string[],
  threads: number,
  cpuInt8Kernels: RuntimeChoices['cpuInt8Kernels'] = 'auto',
  allowModelMismatch = false,
  candidate: QuantizedCandidate = { precision: 'int8', provider: 'cpu' },
): Promise<ValidationRun> {
  const fp32 = await ModelPipeline.load(manifestPath, {
    provider: 'cpu',
    precision: 'fp32',
    threads,
    allowModelMismatch,
  });
  let int8: ModelPipeline | undefined;
  try {
    int8 = await ModelPipeline.load(manifestPath, {
      provider: candidate.provider,
      precision: candidate.precision,
      threads,
      cpuInt8Kernels,
      allowModelMismatch,
    });
    if (images.length === 0) throw new RangeError('validateQuantized: no images');
    const agreement = new Int8Agreement(fp32.manifest.task);
    const perImage: PerImageAgreement[] = [];
    for (const file of images) {
      const frame = await loadRgbFrame(file);
      const boxes: Box[] = fp32.needsPersonBoxes
        ? [{ x1: 0, y1: 0, x2: frame.width, y2: frame.height }]
        : [];
      const a = await fp32.run(frame, boxes);
      const b = await int8.run(frame, boxes);
      agreement.add(a, b);
      perImage.push({ image: path.basename(file), fp32: objectCount(a), int8: objectCount(b) });
    }
    return {
      report: agreement.report(),
      perImage,
      cpuInt8Kernels: int8.providerReport.cpuInt8Kernels,
      runtime: int8.providerReport.runtime,
      delegates: int8.providerReport.delegates,
    };
  } finally {
    fp32.dispose();
    int8?.dispose();
  }
}

function objectCount(r: PipelineResult): number {
  switch (r.task) {
    case 'detect':
      return r.detections.length;
    case 'pose':
      return r.poses.length;
    case 'segment':
      return r.instances.length;
    case 'semantic':
      return new Set(r.map.data).size;
  }
}
