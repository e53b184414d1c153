/**
 * bench:engine's runtime rows: one model as ONNX (ONNX Runtime's CPU provider) and as an
 * ExecuTorch program (XNNPACK), both through our addon and the same session facade, the same
 * frame and thread count, interleaved frame by frame in one process, so the ratio is fair on any
 * machine. By default the bootstrap's pair: yolov8s-fall's ONNX export and the program Ultralytics
 * exported from the same checkpoint (bootstrap step 76).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { EngineSession, PACKAGE_ROOT, percentile, type Frame } from '../../src/index';

export interface RuntimeRow {
  readonly model: string;
  readonly precision: 'fp32' | 'int8';
  readonly runtime: 'onnxruntime' | 'executorch';
  /** Where its work ran, as the session reports it. */
  readonly placement: string;
  readonly inference_ms_p50: number;
  readonly inference_ms_p95: number;
}

export interface RuntimePair {
  readonly name: string;
  readonly precision: 'fp32' | 'int8';
  readonly onnx: string;
  readonly program: string;
}

/**
 * The bootstrap's pairs where step 76 made the programs: FP32, and INT8 (ONNX Runtime's QDQ
 * quantization against ExecuTorch's PT2E quantization for XNNPACK: two recipes on the same
 * weights, both with the decode kept float).
 */
export function defaultRuntimePairs(): RuntimePair[] {
  const et = path.join(PACKAGE_ROOT, 'models', 'yolov8-fall-executorch');
  const ort = path.join(PACKAGE_ROOT, 'models', 'yolov8-fall');
  const pairs: RuntimePair[] = [
    {
      name: 'yolov8s-fall',
      precision: 'fp32',
      onnx: path.join(ort, 'yolov8s-fall.onnx'),
      program: path.join(et, 'yolov8s-fall.pte'),
    },
    {
      name: 'yolov8s-fall',
      precision: 'int8',
      onnx: path.join(ort, 'yolov8s-fall.int8.qdq.onnx'),
      program: path.join(et, 'yolov8s-fall.int8.pte'),
    },
  ];
  return pairs.filter((p) => fs.existsSync(p.onnx) && fs.existsSync(p.program));
}

/** Both runtimes on `frame`, interleaved: `iterations` timed runs each after `warmup`. */
export async function compareRuntimes(
  pair: RuntimePair,
  frame: Frame,
  threads: number,
  iterations: number,
  warmup: number,
): Promise<RuntimeRow[]> {
  const sessions = [
    await EngineSession.load({ model: pair.onnx, threads }),
    await EngineSession.load({ model: pair.program, threads }),
  ];
  const times: number[][] = sessions.map(() => []);
  try {
    for (let i = 0; i < warmup + iterations; i++) {
      for (const [k, s] of sessions.entries()) {
        const r = await s.run(frame);
        if (i >= warmup) times[k]!.push(r.timings.inferenceMs);
      }
    }
    return sessions.map((s, k) => {
      const r = s.providerReport;
      return {
        model: pair.name,
        precision: pair.precision,
        runtime: r.runtime,
        placement: Object.entries(r.nodesByProvider)
          .map(([p, n]) => `${p} ${n}`)
          .join(', '),
        inference_ms_p50: percentile(times[k]!, 50),
        inference_ms_p95: percentile(times[k]!, 95),
      };
    });
  } finally {
    for (const s of sessions) s.dispose();
  }
}
