/**
 * The proof a batch-N copy must pass before `model import --batch` keeps it: on the CPU, the copy
 * run once on N different frames (other sizes, so each slot has its own letterbox) gives, slot by
 * slot and output by output, what the original gives on each frame alone.
 */
import type { ModelManifest } from '../../config/modelManifest';
import type { Frame } from '../../core/frame';
import type { Precision } from '../../core/precisions';
import type { TensorData } from '../../core/tensor';
import { EngineSession, type RunResult } from '../../engine/engineSession';
import { manifestEngineOptions } from '../../pipeline/manifestEngineOptions';

export interface SlotAgreement {
  readonly precision: Precision;
  readonly output: string;
  readonly slot: number;
  readonly maxDiff: number;
  readonly allowed: number;
  readonly agrees: boolean;
}

/**
 * Relative to the output's largest magnitude: the copy runs the same kernels per image, so only
 * a different summation order (a GEMM blocked over N images) may move a float by an ulp or two;
 * a wrong re-batching (a reshape mixing images) moves outputs by their own size.
 */
const RELATIVE_TOLERANCE = 1e-4;

/** Frame `k` of the check: a pattern of its own at a size of its own, never flat. */
export function checkFrame(k: number, width: number, height: number): Frame {
  const w = Math.max(32, width - 48 * k);
  const h = Math.max(32, Math.round((height * 3) / 4) + 40 * k);
  const data = new Uint8Array(w * h * 3);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = (y * w + x) * 3;
      data[i] = (x * (k + 1) + 17 * k) & 255;
      data[i + 1] = (y * (k + 2)) & 255;
      data[i + 2] = ((x >> (3 + (k % 3))) + (y >> 4)) % 2 === 0 ? 30 + 20 * k : 220 - 15 * k;
    }
  }
  return { data, width: w, height: h, step: w * 3, encoding: 'rgb8' };
}

function numbers(d: TensorData): ArrayLike<number> {
  return d instanceof BigInt64Array ? Array.from(d, Number) : d;
}

export async function compareBatchedRuns(
  original: ModelManifest,
  precision: Precision,
  copyFile: string,
  batch: number,
): Promise<SlotAgreement[]> {
  const options = manifestEngineOptions(original, { provider: 'cpu', precision, threads: 0 });
  const single = await EngineSession.load(options);
  let batched: EngineSession | undefined;
  try {
    batched = await EngineSession.load({ ...options, model: copyFile, batch });
    const frames = Array.from({ length: batch }, (_, k) =>
      checkFrame(k, original.input.width, original.input.height),
    );
    const alone: RunResult[] = [];
    for (const f of frames) alone.push(await single.run(f));
    const together = await batched.runBatch(frames);
    const out: SlotAgreement[] = [];
    together.forEach((r, slot) => {
      r.outputs.forEach((t, i) => {
        const a = numbers(alone[slot]!.outputs[i]!.data);
        const b = numbers(t.data);
        let maxDiff = a.length === b.length ? 0 : Infinity;
        let scale = 1;
        for (let j = 0; j < a.length && j < b.length; j++) {
          maxDiff = Math.max(maxDiff, Math.abs(a[j]! - b[j]!));
          scale = Math.max(scale, Math.abs(a[j]!));
        }
        const allowed = RELATIVE_TOLERANCE * scale;
        out.push({ precision, output: t.name, slot, maxDiff, allowed, agrees: maxDiff <= allowed });
      });
    });
    return out;
  } finally {
    single.dispose();
    batched?.dispose();
  }
}
