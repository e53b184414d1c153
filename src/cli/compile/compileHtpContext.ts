import * as fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import type { HtpSoc } from '../../config/htpSocs';
import type { ModelManifest } from '../../config/modelManifest';
import { requireModelFiles } from '../../config/modelManifest';
import { EngineError } from '../../core/engineError';
import type { Frame } from '../../core/frame';
import type { ProviderReport, RunResult } from '../../engine/engineSession';
import { EngineSession } from '../../engine/engineSession';
import { manifestEngineOptions, modelFileFor } from '../../pipeline/manifestEngineOptions';
import { Precision } from '../../pipeline/runtimeChoices';
import { readTensorAsFloat } from '../../heads/readTensorAsFloat';

/**
 * Outputs of the compiled model may differ from the uncompiled run by this much, relative to the
 * output's largest magnitude (at least 1). The HTP part is the very graph the first session
 * compiled, executed by the same deterministic backend, so it must match exactly; the slack is
 * for the CPU part (input quantize, a float decode tail), which ONNX Runtime optimizes again when
 * it loads the context model and may fuse differently, reordering float32 sums by a few ulps.
 * Measured on the bootstrap's yolov8s-fall INT8: 0.
 */
export const COMPILE_OUTPUT_TOLERANCE = 1e-5;

export interface Placement {
  readonly nodesByProvider: Readonly<Record<string, number>>;
  /** Graph nodes on the QNN provider (for a context model: its EPContext nodes). */
  readonly qnnNodes: number;
  /** "name (OpType)" of every node left to the CPU, sorted. */
  readonly cpuNodes: readonly string[];
  readonly fullyAccelerated: boolean;
}

export interface OutputComparison {
  readonly name: string;
  readonly elements: number;
  readonly maxAbsDiff: number;
  /** The absolute bound the difference was held to (tolerance x largest magnitude). */
  readonly bound: number;
}

export interface CompileReport {
  readonly model: string;
  readonly precision: Precision;
  readonly soc: string;
  readonly htpArch: number;
  readonly socModel: number;
  readonly source: string;
  readonly output: string;
  readonly bytes: number;
  /** Load of the ONNX file with the QNN provider, which compiles the graph and writes the binary. */
  readonly compileMs: number;
  /** Load of the written binary (no graph compilation). */
  readonly loadMs: number;
  readonly runMs: { readonly onnx: number; readonly compiled: number };
  readonly placement: { readonly onnx: Placement; readonly compiled: Placement };
  /** Same CPU nodes on both sides and the QNN provider holding the rest on both. */
  readonly samePlacement: boolean;
  readonly outputs: readonly OutputComparison[];
  readonly tolerance: number;
  readonly outputsMatch: boolean;
}

export interface CompileRequest {
  readonly manifest: ModelManifest;
  readonly precision: Precision;
  readonly soc: HtpSoc;
  /** Where ONNX Runtime writes the EP context model (must not exist yet). */
  readonly output: string;
  /** The frame both runs see. */
  readonly frame: Frame;
  readonly vtcmMb: number;
}

function placementOf(r: ProviderReport): Placement {
  return {
    nodesByProvider: r.nodesByProvider,
    qnnNodes: r.nodesByProvider.QNNExecutionProvider ?? 0,
    cpuNodes: r.cpuNodes.map((n) => `${n.name} (${n.opType})`).sort(),
    fullyAccelerated: r.fullyAccelerated,
  };
}

function samePlacement(a: Placement, b: Placement): boolean {
  return (
    a.qnnNodes > 0 &&
    b.qnnNodes > 0 &&
    a.cpuNodes.length === b.cpuNodes.length &&
    a.cpuNodes.every((n, i) => n === b.cpuNodes[i])
  );
}

function compareOutputs(a: RunResult, b: RunResult): OutputComparison[] {
  return a.outputs.map((ta) => {
    const tb = b.outputs.find((t) => t.name === ta.name);
    const x = readTensorAsFloat(ta);
    const y = tb ? readTensorAsFloat(tb) : new Float32Array(0);
    let largest = 1;
    for (const v of x) largest = Math.max(largest, Math.abs(v));
    let diff = x.length === y.length ? 0 : Infinity;
    for (let i = 0; i < x.length && i < y.length; i++) {
      diff = Math.max(diff, Math.abs(x[i]! - y[i]!));
    }
    // NaN on either side is a mismatch, never "within tolerance".
    if (Number.isNaN(diff)) diff = Infinity;
    return {
      name: ta.name,
      elements: x.length,
      maxAbsDiff: diff,
      bound: COMPILE_OUTPUT_TOLERANCE * largest,
    };
  });
}

async function timedRun(s: EngineSession, frame: Frame): Promise<[RunResult, number]> {
  const t = performance.now();
  const r = await s.run(frame);
  return [r, performance.now() - t];
}

/**
 * Compiles the manifest's model for one SoC's HTP into an embedded EP context model at
 * `request.output`, then proves it: the binary is loaded back, must report the same placement
 * and give the same outputs on `frame` as the session that compiled it. The caller decides what
 * to do with a binary that fails the proof (the report says why). EngineErrors propagate.
 */
export async function compileHtpContext(request: CompileRequest): Promise<CompileReport> {
  const { manifest: m, precision, soc, output, frame } = request;
  requireModelFiles(m, precision);
  const source = modelFileFor(m, precision);
  if (fs.existsSync(output)) {
    // The engine would load it instead of compiling: never silently prove an old binary.
    throw new EngineError('ERR_INVALID_OPTIONS', `${output} exists already`);
  }
  const options = (contextCache: string) =>
    manifestEngineOptions(m, {
      provider: 'htp',
      precision,
      threads: 0,
      htp: {
        htp_arch: soc.htpArch,
        soc_model: soc.socModel,
        vtcm_mb: request.vtcmMb,
        context_cache: contextCache,
        context_embed: true,
      },
    });
  let t = performance.now();
  const first = await EngineSession.load(options(output));
  const compileMs = performance.now() - t;
  let onnxRun: [RunResult, number];
  let onnxPlacement: Placement;
  try {
    if (!first.providerReport.contextCacheWritten || !fs.existsSync(output)) {
      throw new EngineError(
        'ERR_RUNTIME',
        `ONNX Runtime wrote no context binary at ${output} (QNN took ${first.providerReport.nodesByProvider.QNNExecutionProvider ?? 0} nodes)`,
      );
    }
    onnxPlacement = placementOf(first.providerReport);
    onnxRun = await timedRun(first, frame);
  } finally {
    first.dispose();
  }
  t = performance.now();
  const second = await EngineSession.load(options(output));
  const loadMs = performance.now() - t;
  let compiledRun: [RunResult, number];
  let compiledPlacement: Placement;
  try {
    if (second.providerReport.modelSource !== 'context_cache') {
      throw new EngineError('ERR_RUNTIME', `the engine did not load ${output} as a context binary`);
    }
    compiledPlacement = placementOf(second.providerReport);
    compiledRun = await timedRun(second, frame);
  } finally {
    second.dispose();
  }
  const outputs = compareOutputs(onnxRun[0], compiledRun[0]);
  return {
    model: m.name,
    precision,
    soc: soc.name,
    htpArch: soc.htpArch,
    socModel: soc.socModel,
    source,
    output,
    bytes: fs.statSync(output).size,
    compileMs,
    loadMs,
    runMs: { onnx: onnxRun[1], compiled: compiledRun[1] },
    placement: { onnx: onnxPlacement, compiled: compiledPlacement },
    samePlacement: samePlacement(onnxPlacement, compiledPlacement),
    outputs,
    tolerance: COMPILE_OUTPUT_TOLERANCE,
    outputsMatch: outputs.length > 0 && outputs.every((o) => o.maxAbsDiff <= o.bound),
  };
}
