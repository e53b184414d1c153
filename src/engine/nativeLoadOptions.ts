/**
 * The one object handed to the addon: engine options and the input plan made flat, with every key
 * present, so the C++ side reads each as the type it must be and never defaults or guesses.
 */
import * as path from 'node:path';
import { onnxElementCode } from '../core/elementType';
import { POWER_PROFILES } from '../core/powerProfiles';
import type { PowerProfileName } from '../core/powerProfiles';
import { int8SessionConfig } from './cpuInt8Kernels';
import type { EngineOptions } from './engineOptions';
import { DEFAULT_QNN_LIBRARY, resolvedInt8Kernels } from './engineOptions';
import type { InputPlan } from './inputPlan';
import type { NativeLoadOptions } from './nativeAddon';

/**
 * The addon's options: every key present, nothing left for the C++ side to default or guess.
 * `plan` is what planInput decided from the model for these options.
 */
export function toNativeOptions(o: EngineOptions, plan: InputPlan): NativeLoadOptions {
  const pre = o.preprocess;
  const native: NativeLoadOptions = {
    modelPath: path.resolve(o.model),
    provider: o.provider,
    threads: o.threads,
    sessionConfig: int8SessionConfig(resolvedInt8Kernels(o)),
    freeDimensions: { ...plan.freeDimensions },
    input: {
      name: plan.name,
      elementType: onnxElementCode(plan.type),
      width: plan.width,
      height: plan.height,
      channels: plan.channels,
      layout: plan.layout,
      batch: plan.batch,
    },
    preprocess: {
      colorOrder: pre.colorOrder,
      resize: pre.resize,
      padValue: pre.padValue,
      roundPixels: pre.roundPixels,
      exactGrid: pre.exactGrid,
      mean: pre.mean,
      std: pre.std,
      quantization: plan.quantization ?? null,
    },
    outputPeaks: o.outputPeaks
      ? { output: o.outputPeaks.output, layout: o.outputPeaks.layout === 'NHWC' ? 'nhwc' : 'nchw' }
      : null,
    qnn: null,
  };
  if (o.provider === 'htp') {
    const profile = POWER_PROFILES[o.htp.profile as PowerProfileName];
    const providerLibrary = path.resolve(o.htp.provider_library ?? DEFAULT_QNN_LIBRARY);
    native.qnn = {
      providerLibrary,
      contextCachePath: o.htp.context_cache ? path.resolve(o.htp.context_cache) : '',
      contextEmbed: o.htp.context_embed,
      providerOptions: {
        // An explicit path: with a bare backend name the provider searches the loader path, and
        // when that fails it silently hands every node to the CPU.
        backend_path: path.join(path.dirname(providerLibrary), 'libQnnHtp.so'),
        htp_arch: String(o.htp.htp_arch),
        soc_model: String(o.htp.soc_model),
        vtcm_mb: String(o.htp.vtcm_mb),
        // Our voter is in charge between frames: the session-level vote starts low so the
        // provider's own timer and ours never fight (see docs/engine.md).
        htp_performance_mode: profile.idleQnnMode,
        // The provider hands the graph's input Q and output DQ to the CPU by default; a model
        // that must run entirely on the HTP keeps them, so the one load can be judged as it is.
        ...(o.htp.require_accelerator ? { offload_graph_io_quantization: '0' } : {}),
        ...o.htp.provider_options,
      },
    };
  }
  if (o.provider === 'gpu') {
    const providerLibrary = path.resolve(o.htp.provider_library ?? DEFAULT_QNN_LIBRARY);
    native.qnn = {
      providerLibrary,
      contextCachePath: '',
      contextEmbed: true,
      providerOptions: {
        // The GPU backend by its full path, as the HTP's (see above).
        backend_path: path.join(path.dirname(providerLibrary), 'libQnnGpu.so'),
        ...o.gpu.provider_options,
      },
    };
  }
  return native;
}
