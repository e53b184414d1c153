/**
 * zod schema for engine options (the model manifest's engine part plus runtime choices), and the
 * one function that turns them into the addon's flat, fully defaulted options object.
 */
import * as path from 'node:path';
import { z } from 'zod';
import { EngineError } from '../core/engineError';
import { ENGINE_DIR, INSTALL_LIB_DIR, PACKAGE_ROOT } from '../packageRoot';
import { formatZodIssues } from '../core/configError';
import { autoInt8Kernels, CpuInt8Kernels, hostCpuFacts } from './cpuInt8Kernels';
import { POWER_PROFILE_NAMES } from '../core/powerProfiles';

/** Largest network input side the engine accepts, in pixels. */
export const MAX_INPUT_SIDE = 8192;

const quantization = z
  .object({ scale: z.number().positive().finite(), zeroPoint: z.number().int() })
  .strict();
const triple = z.tuple([z.number().finite(), z.number().finite(), z.number().finite()]);

export const PreprocessSchema = z
  .object({
    /** Network input size; needed only when the model's own is dynamic. */
    width: z.number().int().positive().max(MAX_INPUT_SIDE).optional(),
    height: z.number().int().positive().max(MAX_INPUT_SIDE).optional(),
    layout: z.enum(['auto', 'nchw', 'nhwc']).default('auto'),
    colorOrder: z.enum(['rgb', 'bgr']).default('rgb'),
    resize: z.enum(['letterbox', 'stretch']).default('letterbox'),
    /** Letterbox fill, in source pixel units (0..255). */
    padValue: z.number().min(0).max(255).default(114),
    /**
     * Round resampled pixels to integers before normalizing, reproducing the uint8 resized image
     * of OpenCV/PIL-based reference pipelines. Off: exact bilinear values.
     */
    roundPixels: z.boolean().default(false),
    /**
     * Read packed 8-bit colour frames straight from their bytes when the resize lands on the
     * source grid (1:1 or 1:2 per axis): the same values as the general bilinear path, bit for
     * bit, without its float blends. false forces the general path (comparisons, benchmarks).
     */
    exactGrid: z.boolean().default(true),
    /** value = (pixel - mean) / std per network channel, pixel in 0..255. */
    mean: triple.default([0, 0, 0]),
    std: triple
      .refine((s) => s.every((v) => v > 0), 'std must be positive')
      .default([255, 255, 255]),
    /** Scale / zero point of a uint8 or int8 model input (from the model's manifest). */
    inputQuantization: quantization.optional(),
  })
  .strict();

export const HtpOptionsSchema = z
  .object({
    profile: z
      .enum(POWER_PROFILE_NAMES as [string, ...string[]])
      .default('sustained_high_performance'),
    vtcm_mb: z.number().int().min(0).max(64).default(0),
    htp_arch: z.number().int().min(68).max(99).default(68),
    /** Unofficial QCS6490 id seen in the field. */
    soc_model: z.number().int().min(0).default(35),
    /** EP context cache file: written on first load, loaded instead of the ONNX file afterwards. */
    context_cache: z.string().min(1).optional(),
    context_embed: z.boolean().default(true),
    require_accelerator: z.boolean().default(false),
    /** Fixed hold of the power vote; default derives it from the frame interval. */
    vote_hold_ms: z.number().int().min(100).max(60000).optional(),
    provider_library: z.string().min(1).optional(),
    /** Further QNN provider options, passed verbatim (e.g. enable_htp_fp16_precision). */
    provider_options: z.record(z.string(), z.string()).default({}),
  })
  .strict();

/**
 * provider 'gpu': the QNN provider's GPU backend (libQnnGpu.so beside the provider library, which
 * `htp.provider_library` names for both backends), the Adreno GPU through OpenCL. No power votes:
 * ONNX Runtime's QNN provider takes a performance mode for its HTP backend only.
 */
export const GpuOptionsSchema = z
  .object({
    require_accelerator: z.boolean().default(false),
    /** Further QNN provider options for the GPU backend, passed verbatim. */
    provider_options: z.record(z.string(), z.string()).default({}),
  })
  .strict();

/** The most images one run takes (the addon's kMaxBatch, native/src/session/load_spec.h). */
export const MAX_BATCH = 16;

export const EngineOptionsSchema = z
  .object({
    model: z.string().min(1),
    provider: z.enum(['cpu', 'htp', 'gpu']).default('cpu'),
    /** Intra-op threads; 0 lets ONNX Runtime choose. */
    threads: z.number().int().min(0).max(256).default(0),
    inputName: z.string().min(1).optional(),
    /**
     * Images per run (runBatch): the model's input batch must be this, or a symbolic dimension
     * pinned to it. Every output then carries the batch on its leading axis.
     */
    batch: z.number().int().min(1).max(MAX_BATCH).default(1),
    preprocess: PreprocessSchema.prefault({}),
    /** Quantization of integer outputs, by output name (attached to the returned tensors). */
    outputQuantization: z.record(z.string(), quantization).default({}),
    /**
     * A float heatmap output whose channel peaks (largest value, first index) each run finds on
     * its worker thread, where the values were just written: RunResult.channelPeaks.
     */
    outputPeaks: z
      .object({ output: z.string().min(1), layout: z.enum(['NCHW', 'NHWC']) })
      .strict()
      .optional(),
    htp: HtpOptionsSchema.prefault({}),
    gpu: GpuOptionsSchema.prefault({}),
    /**
     * INT8 kernels of the CPU provider (see cpuInt8Kernels.ts): auto picks the exact u8u8 ones on
     * x86-64 CPUs whose u8s8 kernels saturate (no VNNI), the fast u8s8 ones elsewhere.
     */
    cpuInt8Kernels: z.enum(['auto', 'u8s8', 'u8u8']).default('auto'),
  })
  .strict();

export type EngineOptionsInput = z.input<typeof EngineOptionsSchema>;
export type EngineOptions = z.output<typeof EngineOptionsSchema>;

/**
 * The QNN provider when `htp.provider_library` is not given: where bootstrap step 60 unpacks the
 * onnxruntime-qnn wheel for this machine, unless HTP_QNN_PROVIDER_LIBRARY names another (the
 * arm64 lane's aarch64 libraries on an x86-64 checkout, a board's own copy).
 */
export const DEFAULT_QNN_LIBRARY =
  process.env.HTP_QNN_PROVIDER_LIBRARY ??
  (INSTALL_LIB_DIR !== undefined
    ? // A colcon install (aarch64) carries the wheel's libraries beside the addon (CMakeLists.txt).
      path.join(ENGINE_DIR, 'qnn', 'libonnxruntime_providers_qnn.so')
    : path.join(
        PACKAGE_ROOT,
        '.cache',
        'onnxruntime',
        'qnn',
        'onnxruntime_qnn',
        'libonnxruntime_providers_qnn.so',
      ));

export function parseEngineOptions(input: unknown): EngineOptions {
  const r = EngineOptionsSchema.safeParse(input);
  if (!r.success) {
    throw new EngineError(
      'ERR_INVALID_OPTIONS',
      `invalid engine options: ${formatZodIssues(r.error)}`,
    );
  }
  return r.data;
}

/** The CPU provider's INT8 kernels these options select on this machine. */
export function resolvedInt8Kernels(o: EngineOptions): CpuInt8Kernels {
  return o.cpuInt8Kernels === 'auto' ? autoInt8Kernels(hostCpuFacts()) : o.cpuInt8Kernels;
}
