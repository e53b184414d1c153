/**
 * The one door to the native addon: nothing else requires the .node file. Types the addon's
 * surface exactly as native/src/binding/engine_session.h documents it.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { EngineError } from '../core/engineError';
import type { MallocThresholds } from '../core/mallocThresholds';
import type { ArenaUsage, MallocUsage } from '../core/memoryUsage';
import type { PlanePeaks, RemapLabels, YoloBestClasses, ZeroedBytes } from '../core/outputKernels';
import { ENGINE_DIR } from '../packageRoot';
import { environmentTestFaultPlan, type FaultCounts, type TestFaultPlan } from './testFaultPlan';

/** A model input or output; `type` is an ONNX element code (see elementType.ts). */
export interface NativeTensorInfo {
  name: string;
  dims: number[];
  symbolicDims: string[];
  type: number;
}

export interface NativeModelInfo {
  inputs: NativeTensorInfo[];
  outputs: NativeTensorInfo[];
}

export interface NativeSessionInfo extends NativeModelInfo {
  providers: {
    requested: string;
    assignmentKnown: boolean;
    note: string;
    counts: { provider: string; nodes: number }[];
    cpuNodes: { name: string; opType: string }[];
  };
  /** Which runtime runs the model: it follows from the file (an ExecuTorch program or ONNX). */
  runtime: ModelRuntime;
  /** The backends an ExecuTorch program delegates to, as its runtime names them; [] for ONNX. */
  delegates: string[];
  /**
   * The outputs the runtime writes straight into the memory handed to JS (their sizes known
   * before a run, their type returned as it is); the others are copied out after each run.
   */
  outputsInPlace: string[];
  /** context_cache: a QNN EP context binary; pte: an ExecuTorch program. */
  modelSource: 'onnx' | 'context_cache' | 'pte';
  contextCacheWritten: boolean;
}

export type ModelRuntime = 'onnxruntime' | 'executorch';

export interface NativeOutput {
  name: string;
  dims: number[];
  /** ONNX element code of the model's output; float16 data arrives widened to float32. */
  type: number;
  data: ArrayBuffer;
}

/** A run as the addon resolves it: numbers, then the outputs' data (packedRunResult.ts unpacks). */
export type PackedRunResult = readonly [Float64Array, ...ArrayBuffer[]];

/** A run unpacked (unpackRunResult). */
export interface NativeRunResult {
  outputs: NativeOutput[];
  /** Per (batch item, channel) of the session's peaks output: value, index; undefined for none. */
  channelPeaks: Float64Array | undefined;
  transform: {
    srcWidth: number;
    srcHeight: number;
    crop: { x: number; y: number; width: number; height: number };
    dstWidth: number;
    dstHeight: number;
    scaleX: number;
    scaleY: number;
    padX: number;
    padY: number;
  };
  timings: { queueMs: number; preprocessMs: number; inferenceMs: number; totalMs: number };
}

export interface NativeFrame {
  data: Uint8Array;
  width: number;
  height: number;
  step: number;
  /** A canonical name of src/core/imageEncoding.ts (aliases already resolved). */
  encoding: string;
}

export interface NativeRoi {
  x: number;
  y: number;
  width: number;
  height: number;
  outside: 'reject' | 'pad';
}

export interface NativeSession {
  info(): NativeSessionInfo;
  /** Never throws: every fault, argument types included, rejects with a coded error. */
  run(
    frame: NativeFrame,
    roi: NativeRoi | null,
    runOptions: Record<string, string>,
  ): Promise<PackedRunResult>;
  /** run() for each region of one frame, back to back on one worker; rejects on the first fault. */
  runMany(
    frame: NativeFrame,
    rois: readonly (NativeRoi | null)[],
    runOptions: Record<string, string>,
  ): Promise<PackedRunResult[]>;
  /**
   * 1 to the session's batch whole frames, each preprocessed into its slot of the input, as one
   * run of the model; a result per frame (its outputs split off the batch's leading axis).
   */
  runBatch(
    frames: readonly NativeFrame[],
    runOptions: Record<string, string>,
  ): Promise<PackedRunResult[]>;
  setDynamicOptions(options: Record<string, string>): void;
  dispose(): void;
  readonly inFlight: number;
  /** The session's CPU arena after its last run; null before it, or without statistics. */
  arenaUsage(): ArenaUsage | null;
  /** Outputs of all runs so far, written in place or copied (see NativeSessionInfo.outputsInPlace). */
  outputWrites(): OutputWrites;
}

export interface OutputWrites {
  readonly inPlace: number;
  readonly copied: number;
}

/**
 * The flat options object the addon reads (built by engineOptions.toNativeOptions). Every key is
 * required, nullable ones included: the addon has no defaults and rejects a missing or mistyped
 * key with a TypeError naming it (code ERR_INVALID_OPTIONS).
 */
export interface NativeLoadOptions {
  modelPath: string;
  provider: 'cpu' | 'htp' | 'gpu';
  threads: number;
  /** ONNX Runtime session config entries (key -> value), applied verbatim. */
  sessionConfig: Record<string, string>;
  /** Symbolic dimensions pinned before the session is created (name -> size). */
  freeDimensions: Record<string, number>;
  /** The image input, as planned from the model (inputPlan.ts); the addon checks the session agrees. */
  input: {
    name: string;
    /** ONNX element code: 1 float32, 2 uint8, 3 int8. */
    elementType: number;
    width: number;
    height: number;
    channels: 1 | 3;
    layout: 'nchw' | 'nhwc';
    /** Images per run: the input's leading axis (1 to 16). */
    batch: number;
  };
  preprocess: {
    colorOrder: 'rgb' | 'bgr';
    resize: 'letterbox' | 'stretch';
    padValue: number;
    roundPixels: boolean;
    exactGrid: boolean;
    mean: [number, number, number];
    std: [number, number, number];
    /** Required for uint8 / int8 inputs, null for float32. */
    quantization: { scale: number; zeroPoint: number } | null;
  };
  /** The float output whose channel peaks each run finds on the worker, or null. */
  outputPeaks: { output: string; layout: 'nchw' | 'nhwc' } | null;
  /** The QNN provider's: required for provider 'htp' (its HTP backend) and 'gpu' (its GPU backend), null for 'cpu'. */
  qnn: {
    providerLibrary: string;
    contextCachePath: string;
    contextEmbed: boolean;
    providerOptions: Record<string, string>;
  } | null;
}

export interface NativeAddon {
  /** Reads a model's inputs and outputs (an unoptimized CPU probe session, see session_core.h). */
  inspectModel(modelPath: string): Promise<NativeModelInfo>;
  /** Never throws: a bad options object rejects with a TypeError or RangeError naming the key. */
  loadSession(options: NativeLoadOptions): Promise<NativeSession>;
  readonly ortVersion: string;
  readonly ortApiVersion: number;
  /**
   * Opens the ExecuTorch plug-in beside the addon (once per process): its ExecuTorch version, or
   * why it cannot be loaded (the dynamic loader's words: the file it missed).
   */
  executorchRuntime(): { version: string } | { error: string };
  /**
   * The glibc mmap and trim thresholds the addon fixed when it loaded (malloc_tuning.cc), in
   * bytes; null where it fixed none (the user set MALLOC_MMAP_THRESHOLD_ or
   * MALLOC_TRIM_THRESHOLD_, or not glibc).
   */
  mallocThresholds(): MallocThresholds | null;
  /** What glibc's allocator holds now (native/src/memory/malloc_usage.h); null off glibc. */
  mallocUsage(): MallocUsage | null;
  /** The heads' output kernels (native/src/kernels/output_kernels.cc; see core/outputKernels.ts). */
  planePeaks: PlanePeaks;
  remapLabels: RemapLabels;
  yoloBestClasses: YoloBestClasses;
  /** native/src/memory/recycled_bytes.cc: throws a RangeError unless 1 <= size <= 256 MiB, whole. */
  zeroedBytes: ZeroedBytes;
  /** zeroedBytes' pool: arrays made from new memory and from the pool, and what it holds now. */
  zeroedBytesStats(): {
    fresh: number;
    reused: number;
    keptBytes: number;
    keptSizes: number[];
  };
  /** The pool of run outputs copied out of ONNX Runtime's arena (native/src/memory/recycled_blocks.h). */
  outputBlocksStats(): {
    fresh: number;
    reused: number;
    keptBytes: number;
    keptSizes: number[];
  };
  /** The tests' fault switch (testFaultPlan.ts); replaces the plan and zeroes its counts. */
  setFaultPlan(plan: TestFaultPlan): void;
  faultCounts(): FaultCounts;
}

/**
 * The addon: HTP_ENGINE_ADDON, else the package's own (build/engine/Release in a checkout,
 * lib/htp_perception/engine in a colcon install: src/packageRoot.ts).
 */
export const ADDON_PATH = process.env.HTP_ENGINE_ADDON ?? path.join(ENGINE_DIR, 'htp_engine.node');

let cached: NativeAddon | undefined;

export function nativeAddon(): NativeAddon {
  if (cached) return cached;
  // Before the addon is cached: a plan that does not parse fails every use, not only the first.
  const plan = environmentTestFaultPlan();
  if (!fs.existsSync(ADDON_PATH)) {
    throw new EngineError(
      'ERR_ADDON_MISSING',
      `native engine addon ${ADDON_PATH} is not built: run 'bash scripts/bootstrap.sh 60-onnxruntime 65-addon'`,
    );
  }
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    cached = require(ADDON_PATH) as NativeAddon;
  } catch (err) {
    throw new EngineError(
      'ERR_ADDON_MISSING',
      `native engine addon ${ADDON_PATH} failed to load (${(err as Error).message}): ` +
        "rebuild it with 'bash scripts/bootstrap.sh 40-npm 60-onnxruntime 65-addon'",
    );
  }
  if (plan) cached.setFaultPlan(plan);
  return cached;
}
