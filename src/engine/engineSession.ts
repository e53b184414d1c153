/**
 * Typed facade over one native session: load (validated options), introspection, run, power
 * voting and dispose. Runs happen on a libuv worker in the addon; one run at a time per session
 * (a second concurrent run rejects with ERR_BUSY rather than queueing stale frames).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ImageTransform, Quantization, Tensor, TensorData } from '../core/tensor';
import { isImageEncoding, MAX_IMAGE_DIMENSION } from '../core/imageEncoding';
import type { Frame, Roi } from '../core/frame';
import { MAX_ROI_EXTENT } from '../core/frame';
import type { ElementType, FedElementType } from '../core/elementType';
import { elementTypeFromCode } from '../core/elementType';
import { EngineError } from '../core/engineError';
import type { EngineErrorCode } from '../core/engineError';
import type { EngineOptions, EngineOptionsInput } from './engineOptions';
import { DEFAULT_QNN_LIBRARY, parseEngineOptions, resolvedInt8Kernels } from './engineOptions';
import { explainHtpLoadFailure } from './htpDevice';
import { toNativeOptions } from './nativeLoadOptions';
import type { CpuInt8Kernels } from './cpuInt8Kernels';
import { hostCpuFacts, u8s8Saturates } from './cpuInt8Kernels';
import type { InputPlan, ModelTensor } from './inputPlan';
import { planInput } from './inputPlan';
import type {
  NativeOutput,
  NativeRoi,
  NativeRunResult,
  NativeSession,
  NativeSessionInfo,
  NativeTensorInfo,
  OutputWrites,
} from './nativeAddon';
import { nativeAddon, type ModelRuntime } from './nativeAddon';
import { HTP_BACKEND, programPlacement } from './programPlacement';
import { forwardMethod, PteFormatError, readPteProgram } from './readPteProgram';
import type { ArenaUsage } from '../core/memoryUsage';
import { unpackRunResult } from './packedRunResult';
import type { PowerBackend, VoterClock, VoterStats } from './powerVoter';
import { NOOP_BACKEND, PowerVoter, SYSTEM_CLOCK } from './powerVoter';
import type { PowerProfileName } from '../core/powerProfiles';
import { POWER_PROFILES } from '../core/powerProfiles';

export type { ElementType };

export interface TensorInfo {
  readonly name: string;
  /** -1 where the model leaves a dimension dynamic. */
  readonly dims: readonly number[];
  readonly symbolicDims: readonly string[];
  readonly type: ElementType;
  readonly quantization?: { readonly scale: number; readonly zeroPoint: number };
}

/** What the preprocessing produces for the model's input. */
export interface InputSpec {
  readonly width: number;
  readonly height: number;
  readonly channels: 1 | 3;
  readonly layout: 'nchw' | 'nhwc';
  readonly type: FedElementType;
  readonly quantization?: Quantization;
}

export interface ProviderReport {
  readonly requested: 'cpu' | 'htp' | 'gpu';
  /** onnxruntime for an ONNX model, executorch for a program (.pte). */
  readonly runtime: ModelRuntime;
  /** The backends an ExecuTorch program delegates to (XnnpackBackend, QnnBackend); [] for ONNX. */
  readonly delegates: readonly string[];
  /** False when ONNX Runtime kept no partitioning record (see `note`). */
  readonly assignmentKnown: boolean;
  readonly note: string;
  /**
   * Graph nodes each execution provider took, from ONNX Runtime's own assignment record; for an
   * ExecuTorch program, the calls of its instructions per backend and to its CPU kernels
   * (programPlacement.ts).
   */
  readonly nodesByProvider: Readonly<Record<string, number>>;
  /** Nodes placed on the CPU provider (all of them for provider 'cpu'); a program's CPU calls. */
  readonly cpuNodes: readonly { readonly name: string; readonly opType: string }[];
  readonly fullyAccelerated: boolean;
  /**
   * INT8 kernels of the CPU provider for this session, and whether they saturate on this CPU
   * (only when u8s8 was forced on an x86-64 CPU without VNNI).
   */
  readonly cpuInt8Kernels: CpuInt8Kernels;
  readonly cpuInt8Saturates: boolean;
  readonly modelSource: 'onnx' | 'context_cache' | 'pte';
  readonly contextCacheWritten: boolean;
}

export interface RunTimings {
  /** Waiting for a libuv worker. */
  readonly queueMs: number;
  readonly preprocessMs: number;
  readonly inferenceMs: number;
  /** From the run() call to the result on the main thread. */
  readonly totalMs: number;
}

export interface RunResult {
  readonly outputs: readonly Tensor[];
  /**
   * With the engine option outputPeaks: per (batch item, channel) of that output, its largest
   * value and that value's first index in the channel's plane, found on the worker; undefined
   * without the option or when the output's shape is not [B,]C,H,W / [B,]H,W,C.
   */
  readonly channelPeaks: Float64Array | undefined;
  readonly transform: ImageTransform;
  readonly timings: RunTimings;
}

export interface LoadHooks {
  /** Injected clock for the power voter (tests). */
  readonly clock?: VoterClock;
}

function tensorInfo(t: NativeTensorInfo, code: EngineErrorCode): ModelTensor {
  return {
    name: t.name,
    dims: t.dims,
    symbolicDims: t.symbolicDims,
    type: elementTypeFromCode(t.type, `tensor ${t.name}`, code),
  };
}

function nativeRoi(roi: Roi): NativeRoi {
  return {
    x: roi.x,
    y: roi.y,
    width: roi.width,
    height: roi.height,
    outside: roi.outside ?? 'reject',
  };
}

function typedArray(o: NativeOutput): TensorData {
  const type = elementTypeFromCode(o.type, `output ${o.name}`, 'ERR_RUNTIME');
  switch (type) {
    case 'float32':
    case 'float16': // widened to float32 on the worker
      return new Float32Array(o.data);
    case 'uint8':
    case 'bool':
      return new Uint8Array(o.data);
    case 'int8':
      return new Int8Array(o.data);
    case 'int32':
      return new Int32Array(o.data);
    case 'int64':
      return new BigInt64Array(o.data);
    default:
      throw new EngineError('ERR_RUNTIME', `output ${o.name} has unsupported type ${type}`);
  }
}

export class EngineSession {
  private disposed = false;
  /** Settles when the run in flight does (resolved either way): what disposeWhenIdle waits for. */
  private settled: Promise<void> = Promise.resolve();
  private readonly outputNames: readonly string[];

  private constructor(
    private readonly native: NativeSession,
    readonly options: EngineOptions,
    private readonly plan: InputPlan,
    private readonly info: NativeSessionInfo,
    private readonly modelInputs: readonly ModelTensor[],
    private readonly modelOutputs: readonly ModelTensor[],
    private readonly voter: PowerVoter,
  ) {
    this.outputNames = info.outputs.map((o) => o.name);
  }

  /** Validates options, loads the model on a worker thread; rejects with EngineError. */
  static async load(input: EngineOptionsInput, hooks: LoadHooks = {}): Promise<EngineSession> {
    const options = parseEngineOptions(input);
    if (!fs.existsSync(options.model)) {
      throw new EngineError('ERR_MODEL_NOT_FOUND', `model file ${options.model} does not exist`);
    }
    if (options.provider === 'gpu' && options.htp.require_accelerator) {
      throw new EngineError(
        'ERR_INVALID_OPTIONS',
        "htp.require_accelerator is for provider 'htp': with provider 'gpu' set gpu.require_accelerator",
      );
    }
    if (options.provider === 'cpu' && options.htp.require_accelerator) {
      throw new EngineError(
        'ERR_ACCELERATOR_FALLBACK',
        `htp.require_accelerator is set but provider is 'cpu': ${options.model} would run entirely on the CPU`,
      );
    }
    const addon = nativeAddon();
    let native: NativeSession;
    let plan: InputPlan;
    try {
      // Two native steps, one real session: the probe's description lets this side decide the
      // input (layout, size, quantization, dims to pin) before the session is created.
      const model = await addon.inspectModel(path.resolve(options.model));
      plan = planInput(
        options,
        model.inputs.map((t) => tensorInfo(t, 'ERR_MODEL_INVALID')),
        model.outputs.map((t) => tensorInfo(t, 'ERR_MODEL_INVALID')),
      );
      native = await addon.loadSession(toNativeOptions(options, plan)).catch((err: unknown) => {
        const e = EngineError.fromNative(err);
        throw options.provider === 'htp'
          ? explainHtpLoadFailure(e, options.htp.provider_library ?? DEFAULT_QNN_LIBRARY)
          : e;
      });
    } catch (err) {
      throw EngineError.fromNative(err);
    }
    let info: NativeSessionInfo;
    let modelInputs: ModelTensor[];
    let modelOutputs: ModelTensor[];
    try {
      info = withProgramPlacement(native.info(), options.model);
      if (info.runtime === 'executorch' && options.provider === 'gpu') {
        throw new EngineError(
          'ERR_PROVIDER_UNAVAILABLE',
          `provider gpu runs ONNX models through the QNN provider's GPU backend; ${options.model} is an ExecuTorch program, which has no GPU delegate in this engine`,
        );
      }
      modelInputs = info.inputs.map((t) => tensorInfo(t, 'ERR_MODEL_INVALID'));
      modelOutputs = info.outputs.map((t) => tensorInfo(t, 'ERR_MODEL_INVALID'));
      const requireAccelerator =
        options.provider === 'gpu'
          ? options.gpu.require_accelerator
          : options.htp.require_accelerator;
      if (options.provider !== 'cpu' && requireAccelerator) {
        checkFullyAccelerated(options.model, info.providers);
      }
    } catch (err) {
      native.dispose();
      throw err;
    }
    const profile = POWER_PROFILES[options.htp.profile as PowerProfileName];
    // ExecuTorch's QNN delegate takes its performance settings when the program is compiled, not
    // as votes between runs.
    const backend: PowerBackend =
      options.provider === 'htp' && info.runtime === 'onnxruntime'
        ? {
            vote: (mode) =>
              native.setDynamicOptions({ 'ep.dynamic.qnn_htp_performance_mode': mode }),
          }
        : NOOP_BACKEND;
    const voter = new PowerVoter(
      profile,
      backend,
      hooks.clock ?? SYSTEM_CLOCK,
      options.htp.vote_hold_ms,
    );
    return new EngineSession(native, options, plan, info, modelInputs, modelOutputs, voter);
  }

  get inputs(): readonly TensorInfo[] {
    const q = this.plan.quantization;
    return this.modelInputs.map((i) => ({
      ...i,
      ...(i.name === this.plan.name && q ? { quantization: q } : {}),
    }));
  }

  get outputs(): readonly TensorInfo[] {
    return this.modelOutputs.map((o) => {
      const q = this.options.outputQuantization[o.name];
      return { ...o, ...(q ? { quantization: q } : {}) };
    });
  }

  /** What the preprocessing produces: network size, channels, layout, element type. */
  get inputSpec(): InputSpec {
    const { width, height, channels, layout, type, quantization } = this.plan;
    return { width, height, channels, layout, type, ...(quantization ? { quantization } : {}) };
  }

  get providerReport(): ProviderReport {
    const p = this.info.providers;
    const nodesByProvider: Record<string, number> = {};
    for (const c of p.counts) nodesByProvider[c.provider] = c.nodes;
    // The QNN provider's nodes, or the calls of a program's QNN delegate: the work on the HTP.
    const qnnNodes =
      (nodesByProvider.QNNExecutionProvider ?? 0) + (nodesByProvider[HTP_BACKEND] ?? 0);
    const kernels = resolvedInt8Kernels(this.options);
    const accelerated = p.requested === 'htp' || p.requested === 'gpu';
    const note =
      p.note ||
      (accelerated && p.assignmentKnown && qnnNodes === 0
        ? 'the QNN provider took no node: the whole model runs on the CPU'
        : '');
    return {
      requested: p.requested === 'htp' || p.requested === 'gpu' ? p.requested : 'cpu',
      runtime: this.info.runtime,
      delegates: this.info.delegates,
      assignmentKnown: p.assignmentKnown,
      note,
      nodesByProvider,
      cpuNodes: p.cpuNodes,
      fullyAccelerated: accelerated && p.assignmentKnown && qnnNodes > 0 && p.cpuNodes.length === 0,
      cpuInt8Kernels: kernels,
      cpuInt8Saturates: kernels === 'u8s8' && u8s8Saturates(hostCpuFacts()),
      modelSource: this.info.modelSource,
      contextCacheWritten: this.info.contextCacheWritten,
    };
  }

  /**
   * The outputs the runtime writes straight into the memory each result hands over; the others
   * are copied out of the runtime's memory after every run (a symbolic dimension, float16).
   */
  get outputsInPlace(): readonly string[] {
    return this.info.outputsInPlace;
  }

  /** Outputs of all runs so far: written in place by the runtime, or copied out of its memory. */
  get outputWrites(): OutputWrites {
    return this.native.outputWrites();
  }

  get power(): VoterStats {
    return this.voter.stats();
  }

  /**
   * Releases the power vote at once (a node that stops taking frames); the next run votes again.
   * `abandoned`: even under a run in flight (one given up on, see PowerVoter.releaseNow).
   */
  releasePower(abandoned = false): void {
    this.voter.releaseNow(abandoned);
  }

  get inFlight(): number {
    return this.disposed ? 0 : this.native.inFlight;
  }

  /** The CPU arena after the last run (core/memoryUsage.ts); null before one, or once disposed. */
  get arenaUsage(): ArenaUsage | null {
    return this.disposed ? null : this.native.arenaUsage();
  }

  /** Preprocesses `frame` (optionally only `roi`) and runs the model on a worker thread. */
  async run(frame: Frame, roi?: Roi): Promise<RunResult> {
    this.checkRunnable(frame, roi ? [roi] : []);
    this.voter.onRun();
    let r;
    try {
      r = await this.track(this.native.run(frame, roi ? nativeRoi(roi) : null, {}));
    } catch (err) {
      throw EngineError.fromNative(err);
    } finally {
      this.voter.onRunEnd();
    }
    return this.result(unpackRunResult(r, this.outputNames));
  }

  /**
   * run() for each region of one frame (a top-down model's crops), back to back on one worker
   * thread: one hand-over for the frame instead of one per region. Results in the regions' order;
   * the first region that fails rejects the call. No regions: no run.
   */
  async runMany(frame: Frame, rois: readonly Roi[]): Promise<RunResult[]> {
    if (rois.length === 0) return [];
    this.checkRunnable(frame, rois);
    this.voter.onRun();
    let all;
    try {
      all = await this.track(this.native.runMany(frame, rois.map(nativeRoi), {}));
    } catch (err) {
      throw EngineError.fromNative(err);
    } finally {
      this.voter.onRunEnd();
    }
    return all.map((r) => this.result(unpackRunResult(r, this.outputNames)));
  }

  /** Images per run: 1, or the batch of a batched model (runBatch). */
  get batch(): number {
    return this.plan.batch;
  }

  /**
   * 1 to `batch` whole frames as one run of the model, each preprocessed straight into its slot
   * of the input tensor; a result per frame, in order, its outputs split off the batch axis (the
   * same values as run() of that frame). Each result's inferenceMs is the one shared run's.
   */
  async runBatch(frames: readonly Frame[]): Promise<RunResult[]> {
    if (frames.length === 0) return [];
    if (frames.length > this.plan.batch) {
      throw new EngineError(
        'ERR_FRAME_INVALID',
        `runBatch: ${frames.length} frames for a session of batch ${this.plan.batch}`,
      );
    }
    for (const f of frames) this.checkRunnable(f, []);
    this.voter.onRun();
    let all;
    try {
      all = await this.track(this.native.runBatch(frames, {}));
    } catch (err) {
      throw EngineError.fromNative(err);
    } finally {
      this.voter.onRunEnd();
    }
    return all.map((r) => this.result(unpackRunResult(r, this.outputNames)));
  }

  private track<T>(run: Promise<T>): Promise<T> {
    this.settled = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  private checkRunnable(frame: Frame, rois: readonly Roi[]): void {
    if (this.disposed) throw new EngineError('ERR_DISPOSED', 'run() after dispose()');
    checkFrame(frame);
    for (const roi of rois) checkRoi(roi, frame);
    if (this.native.inFlight > 0) {
      throw new EngineError(
        'ERR_BUSY',
        'a run is already in flight on this session; runs are not queued',
      );
    }
  }

  private result(r: NativeRunResult): RunResult {
    const outputs: Tensor[] = r.outputs.map((o) => {
      const q = this.options.outputQuantization[o.name];
      return { name: o.name, dims: o.dims, data: typedArray(o), ...(q ? { quantization: q } : {}) };
    });
    return {
      outputs,
      channelPeaks: r.channelPeaks,
      transform: r.transform,
      timings: r.timings,
    };
  }

  /**
   * dispose() once the run in flight has settled (at once when none is): a run that outlived its
   * deadline keeps its session until the worker returns, and a hung one keeps it for good.
   */
  async disposeWhenIdle(): Promise<void> {
    if (this.disposed) return;
    this.voter.releaseNow();
    await this.settled;
    this.dispose();
  }

  /** Releases the power vote and the native session. Throws ERR_BUSY while a run is in flight. */
  dispose(): void {
    if (this.disposed) return;
    if (this.native.inFlight > 0) {
      throw new EngineError(
        'ERR_BUSY',
        `cannot dispose: ${this.native.inFlight} run(s) in flight; await them first`,
      );
    }
    this.voter.dispose();
    try {
      this.native.dispose();
    } catch (err) {
      throw EngineError.fromNative(err);
    }
    this.disposed = true;
  }
}

/**
 * An ExecuTorch session's placement, read from the program's instructions (programPlacement.ts):
 * the runtime names the delegates, the program says how much of the method each takes.
 */
function withProgramPlacement(info: NativeSessionInfo, model: string): NativeSessionInfo {
  if (info.runtime !== 'executorch') return info;
  let method;
  try {
    method = forwardMethod(readPteProgram(model));
  } catch (err) {
    if (err instanceof PteFormatError) throw new EngineError('ERR_MODEL_INVALID', err.message);
    throw err;
  }
  if (!method) {
    throw new EngineError(
      'ERR_MODEL_INVALID',
      `ExecuTorch program ${model} has no method 'forward'`,
    );
  }
  return {
    ...info,
    providers: programPlacement(info.providers.requested, method, info.delegates),
  };
}

/** require_accelerator: judged on the one load, from the runtime's placement record. */
function checkFullyAccelerated(model: string, p: NativeSessionInfo['providers']): void {
  if (p.assignmentKnown && p.cpuNodes.length === 0) return;
  throw new EngineError(
    'ERR_ACCELERATOR_FALLBACK',
    `model ${model} does not run entirely on the accelerator; ` +
      (p.assignmentKnown
        ? `nodes left to the CPU: ${p.cpuNodes.map((n) => `${n.name} (${n.opType})`).join(', ')}`
        : `the placement cannot be checked: ${p.note}`),
  );
}

function checkFrame(f: Frame): void {
  const bad = (m: string): never => {
    throw new EngineError('ERR_FRAME_INVALID', m);
  };
  if (!(f.data instanceof Uint8Array)) bad('frame.data must be a Uint8Array');
  if (!isImageEncoding(f.encoding)) {
    bad(`frame.encoding '${String(f.encoding)}' is not supported`);
  }
  for (const k of ['width', 'height', 'step'] as const) {
    if (!Number.isInteger(f[k]) || f[k] <= 0)
      bad(`frame.${k} must be a positive integer, got ${String(f[k])}`);
  }
  if (f.width > MAX_IMAGE_DIMENSION || f.height > MAX_IMAGE_DIMENSION) {
    bad(
      `frame ${f.width}x${f.height} is larger than the ${MAX_IMAGE_DIMENSION}x${MAX_IMAGE_DIMENSION} the engine accepts`,
    );
  }
}

function checkRoi(r: Roi, f: Frame): void {
  const bad = (why: string): never => {
    throw new EngineError(
      'ERR_ROI_INVALID',
      `roi ${r.x},${r.y} ${r.width}x${r.height} ${why} the ${f.width}x${f.height} frame`,
    );
  };
  const outside = r.outside ?? 'reject';
  if (outside !== 'reject' && outside !== 'pad') {
    throw new EngineError(
      'ERR_ROI_INVALID',
      `roi.outside must be 'reject' or 'pad', got '${String(outside)}'`,
    );
  }
  if (outside === 'pad') {
    const sane =
      [r.x, r.y, r.width, r.height].every(Number.isFinite) &&
      r.width > 0 &&
      r.height > 0 &&
      Math.max(Math.abs(r.x), Math.abs(r.y), r.width, r.height) <= MAX_ROI_EXTENT;
    if (!sane) bad('is empty, not finite or too large for');
    if (r.x >= f.width || r.y >= f.height || r.x + r.width <= 0 || r.y + r.height <= 0)
      bad('does not overlap');
    return;
  }
  const ok =
    [r.x, r.y, r.width, r.height].every(Number.isInteger) &&
    r.width > 0 &&
    r.height > 0 &&
    r.x >= 0 &&
    r.y >= 0 &&
    r.x + r.width <= f.width &&
    r.y + r.height <= f.height;
  if (!ok) bad('is empty or outside');
}
