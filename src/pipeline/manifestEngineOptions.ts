import type { EngineOptionsInput } from '../engine/engineOptions';
import type { ModelManifest } from '../config/modelManifest';
import { ConfigError } from '../core/configError';
import { outputFormat } from '../families/registry';
import { exportedHtpContext, selectHtpContext } from './selectHtpContext';

import type { Precision, RuntimeChoices } from './runtimeChoices';

/**
 * The model file a manifest names for the chosen precision, or a ConfigError naming the gap. A
 * precision that only an Ultralytics QNN export provides names that export's source (files.fp32,
 * the same inputs and outputs): with provider htp the binary is what loads (selectHtpContext).
 */
export function modelFileFor(
  m: ModelManifest,
  precision: Precision,
  provider: RuntimeChoices['provider'] = 'cpu',
): string {
  const file = m.modelPaths[precision];
  if (file) return file;
  const exported = exportedHtpContext(m, precision);
  if (exported && provider === 'htp') return m.modelPaths.fp32;
  if (exported) {
    throw new ConfigError(
      `${m.name}: its ${precision} model is the QNN context binary of an Ultralytics format=qnn export (${exported.file}), which only the HTP runs: use provider htp, or precision fp32 on ${provider}`,
    );
  }
  throw new ConfigError(`${m.name}: the manifest lists no ${precision} model file`);
}

/**
 * Engine options from a manifest (with its compiled HTP context binary when one fits, see
 * selectHtpContext). The manifest states normalization as
 * value = (pixel * scale - mean) / std with pixel in 0..255; the engine takes
 * value = (pixel - mean') / std', so mean' = mean / scale and std' = std / scale.
 */
export function manifestEngineOptions(
  m: ModelManifest,
  choices: RuntimeChoices,
): EngineOptionsInput {
  const n = m.input.normalization;
  const resize = m.input.resize;
  const context = selectHtpContext(m, choices);
  // Peaks found on the engine's worker, for the formats whose decoder takes them (HRNet's).
  const peaks = outputFormat(m.outputs).outputPeaks?.(m.outputs);
  const htp = context ? { ...choices.htp, context_cache: context.path } : choices.htp;
  return {
    model: modelFileFor(m, choices.precision, choices.provider),
    provider: choices.provider,
    threads: choices.threads,
    inputName: m.input.name,
    batch: m.input.batch ?? 1,
    preprocess: {
      width: m.input.width,
      height: m.input.height,
      layout: m.input.layout === 'NCHW' ? 'nchw' : 'nhwc',
      colorOrder: m.input.colorOrder,
      resize: resize.mode,
      padValue: resize.mode === 'letterbox' ? resize.padValue : 0,
      // Reference pipelines resize into a uint8 image; matching it keeps borderline detections
      // identical (measured: one YOLOv8 box on dog.jpg flips without it).
      roundPixels: true,
      mean: [n.mean[0] / n.scale, n.mean[1] / n.scale, n.mean[2] / n.scale],
      std: [n.std[0] / n.scale, n.std[1] / n.scale, n.std[2] / n.scale],
      ...(m.input.quantization ? { inputQuantization: m.input.quantization } : {}),
    },
    ...(peaks ? { outputPeaks: peaks } : {}),
    ...(htp ? { htp } : {}),
    ...(choices.gpu ? { gpu: choices.gpu } : {}),
    ...(choices.cpuInt8Kernels ? { cpuInt8Kernels: choices.cpuInt8Kernels } : {}),
  };
}
