/**
 * A run's result as the addon resolves it (native/src/binding/js_values.cc, RunOutputToJs): an array of a
 * Float64Array of numbers, then one ArrayBuffer per model output, in the model's order. Numbers
 * and buffers cross the boundary cheaply; the objects the rest of the engine reads are built here,
 * in JavaScript, where V8 gives them stable shapes. The numbers' layout:
 *
 *   0..3    queueMs, preprocessMs, inferenceMs, totalMs
 *   4..15   srcWidth, srcHeight, crop x, y, width, height, dstWidth, dstHeight, scaleX, scaleY,
 *           padX, padY
 *   16..    per output: its ONNX element code, its rank r, then r dims
 *   then    the number of channel peaks p (0 when the session finds none), then 2p values: per
 *           (batch item, channel) of the peaks output, the peak value and its index in the plane
 */
import { EngineError } from '../core/engineError';
import type { NativeOutput, NativeRunResult, PackedRunResult } from './nativeAddon';

const FIRST_OUTPUT = 16;

/** Unpacks one run; `outputNames` are the session's outputs in the model's order. */
export function unpackRunResult(
  packed: PackedRunResult,
  outputNames: readonly string[],
): NativeRunResult {
  const v = packed[0];
  if (packed.length !== outputNames.length + 1) {
    throw new EngineError(
      'ERR_RUNTIME',
      `the addon returned ${packed.length - 1} output(s) for a model with ${outputNames.length}`,
    );
  }
  const outputs: NativeOutput[] = [];
  let k = FIRST_OUTPUT;
  for (let i = 0; i < outputNames.length; i++) {
    const type = v[k]!;
    const rank = v[k + 1]!;
    const dims: number[] = [];
    for (let d = 0; d < rank; d++) dims.push(v[k + 2 + d]!);
    k += 2 + rank;
    outputs.push({ name: outputNames[i]!, dims, type, data: packed[i + 1] as ArrayBuffer });
  }
  const peakCount = v[k++]!;
  const channelPeaks = peakCount > 0 ? v.subarray(k, k + 2 * peakCount) : undefined;
  k += 2 * peakCount;
  if (k !== v.length) {
    throw new EngineError('ERR_RUNTIME', `the addon's run numbers end at ${v.length}, not ${k}`);
  }
  return {
    outputs,
    channelPeaks,
    transform: {
      srcWidth: v[4]!,
      srcHeight: v[5]!,
      crop: { x: v[6]!, y: v[7]!, width: v[8]!, height: v[9]! },
      dstWidth: v[10]!,
      dstHeight: v[11]!,
      scaleX: v[12]!,
      scaleY: v[13]!,
      padX: v[14]!,
      padY: v[15]!,
    },
    timings: { queueMs: v[0]!, preprocessMs: v[1]!, inferenceMs: v[2]!, totalMs: v[3]! },
  };
}
