/**
 * npm run bench:engine [-- --model m.onnx --threads 2 --iterations 60 --json out.json]
 *
 * In one process and one run: the same model, frame and thread count through our addon and through
 * onnxruntime-node's JS API (the reference), interleaved; and our fused preprocessing against a
 * sharp resize (letterbox, bilinear) + JS normalize into NCHW float32. Without --model a seeded
 * 640x640 stand-in network is generated with tools/engine/make_bench_model.py.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as ort from 'onnxruntime-node';
import sharp from 'sharp';
import {
  EngineSession,
  PACKAGE_ROOT,
  formatTable,
  percentile,
  printedHelp,
  type Frame,
} from '../../src/index';
import { flagValue, parseBenchArgs } from './benchArgs';
import { compareRuntimes, defaultRuntimePairs, type RuntimeRow } from './runtimeComparison';

/** Printed by --help: this file's header. */
const USAGE = `npm run bench:engine [-- --model m.onnx --threads 2 --iterations 60 --json out.json]
                        [--program m.pte --twin m.onnx | --no-runtimes]

In one process and one run: the same model, frame and thread count through our addon and through
onnxruntime-node's JS API (the reference), interleaved; and our fused preprocessing against a
sharp resize (letterbox, bilinear) + JS normalize into NCHW float32. Without --model a seeded
640x640 stand-in network is generated with tools/engine/make_bench_model.py.
Then the runtimes: one model as ONNX (ONNX Runtime CPU) and as an ExecuTorch program (XNNPACK),
both through the addon, interleaved, FP32 and INT8 (default: bootstrap's yolov8s-fall and its
programs, step 76; --program/--twin for another FP32 pair; skipped when none exists or with
--no-runtimes).`;

const SRC_W = 1280;
const SRC_H = 720;

function benchModel(): string {
  const out = path.join(PACKAGE_ROOT, '.cache', 'engine-bench', 'bench_net.onnx');
  if (fs.existsSync(out)) return out;
  fs.mkdirSync(path.dirname(out), { recursive: true });
  const py = path.join(PACKAGE_ROOT, '.cache', 'tools-venv', 'bin', 'python');
  const r = spawnSync(
    py,
    [path.join(PACKAGE_ROOT, 'tools', 'engine', 'make_bench_model.py'), out],
    {
      encoding: 'utf8',
    },
  );
  if (r.status !== 0) throw new Error(`make_bench_model.py failed: ${r.stderr}`);
  return out;
}

function frame(): Frame {
  const data = new Uint8Array(SRC_W * SRC_H * 3);
  for (let y = 0; y < SRC_H; y++)
    for (let x = 0; x < SRC_W; x++) {
      const i = (y * SRC_W + x) * 3;
      data[i] = (x * 255) / SRC_W;
      data[i + 1] = (y * 255) / SRC_H;
      data[i + 2] = (x ^ y) & 255;
    }
  return { data, width: SRC_W, height: SRC_H, step: SRC_W * 3, encoding: 'rgb8' };
}

/** The sharp path: letterbox resize (bilinear) + pad 114, then normalize /255 into NCHW float32. */
async function sharpPreprocess(f: Frame, w: number, h: number): Promise<Float32Array> {
  const { data } = await sharp(f.data, { raw: { width: f.width, height: f.height, channels: 3 } })
    .resize(w, h, { fit: 'contain', kernel: 'linear', background: { r: 114, g: 114, b: 114 } })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const out = new Float32Array(3 * w * h);
  const plane = w * h;
  for (let i = 0; i < plane; i++) {
    out[i] = data[3 * i]! / 255;
    out[plane + i] = data[3 * i + 1]! / 255;
    out[2 * plane + i] = data[3 * i + 2]! / 255;
  }
  return out;
}

async function main(): Promise<void> {
  if (printedHelp(process.argv.slice(2), USAGE)) return;
  const args = parseBenchArgs(process.argv.slice(2));
  const modelPath = path.resolve(flagValue(args.rest, '--model') ?? benchModel());
  const threads = Number(flagValue(args.rest, '--threads') ?? Math.min(2, os.cpus().length));
  const iterations = Number(flagValue(args.rest, '--iterations') ?? 60);
  const warmup = 5;
  const f = frame();

  const ours = await EngineSession.load({ model: modelPath, threads });
  const spec = ours.inputSpec;
  const ref = await ort.InferenceSession.create(modelPath, {
    intraOpNumThreads: threads,
    interOpNumThreads: 1,
    graphOptimizationLevel: 'all',
    executionProviders: ['cpu'],
  });
  const inputName = ref.inputNames[0]!;
  const dims =
    spec.layout === 'nchw'
      ? [1, spec.channels, spec.height, spec.width]
      : [1, spec.height, spec.width, spec.channels];
  const refInput = await sharpPreprocess(f, spec.width, spec.height);

  const addonInfer: number[] = [];
  const addonTotal: number[] = [];
  const addonPre: number[] = [];
  const refMs: number[] = [];
  const sharpMs: number[] = [];
  for (let i = 0; i < warmup + iterations; i++) {
    const r = await ours.run(f);
    const t0 = performance.now();
    await ref.run({ [inputName]: new ort.Tensor('float32', refInput, dims) });
    const t1 = performance.now();
    const s0 = performance.now();
    await sharpPreprocess(f, spec.width, spec.height);
    const s1 = performance.now();
    if (i < warmup) continue;
    addonInfer.push(r.timings.inferenceMs);
    addonTotal.push(r.timings.totalMs);
    addonPre.push(r.timings.preprocessMs);
    refMs.push(t1 - t0);
    sharpMs.push(s1 - s0);
  }
  ours.dispose();
  await ref.release();

  const programFlag = flagValue(args.rest, '--program');
  const twinFlag = flagValue(args.rest, '--twin');
  if ((programFlag === undefined) !== (twinFlag === undefined))
    throw new Error('--program and --twin go together');
  const pairs = args.rest.includes('--no-runtimes')
    ? []
    : programFlag !== undefined && twinFlag !== undefined
      ? [
          {
            name: path.basename(twinFlag, '.onnx'),
            precision: 'fp32' as const,
            onnx: path.resolve(twinFlag),
            program: path.resolve(programFlag),
          },
        ]
      : defaultRuntimePairs();
  const runtimes: RuntimeRow[] = [];
  for (const pair of pairs)
    runtimes.push(...(await compareRuntimes(pair, f, threads, Math.min(iterations, 30), 3)));

  const result = {
    model: path.basename(modelPath),
    threads,
    iterations,
    frame: `${SRC_W}x${SRC_H} rgb8`,
    input: `${spec.width}x${spec.height} ${spec.layout} ${spec.type}`,
    addon_ms_p50: percentile(addonInfer, 50),
    addon_ms_p95: percentile(addonInfer, 95),
    addon_total_ms_p50: percentile(addonTotal, 50),
    reference_ms_p50: percentile(refMs, 50),
    reference_ms_p95: percentile(refMs, 95),
    preprocess_ms_p50: percentile(addonPre, 50),
    sharp_preprocess_ms_p50: percentile(sharpMs, 50),
  };
  const ratio = result.addon_ms_p50 / result.reference_ms_p50;
  const speedup = result.sharp_preprocess_ms_p50 / result.preprocess_ms_p50;
  console.log(
    formatTable([
      {
        what: 'inference (addon, session.Run)',
        p50_ms: result.addon_ms_p50,
        p95_ms: result.addon_ms_p95,
      },
      {
        what: 'inference (onnxruntime-node run)',
        p50_ms: result.reference_ms_p50,
        p95_ms: result.reference_ms_p95,
      },
      {
        what: 'addon run() call to result',
        p50_ms: result.addon_total_ms_p50,
        p95_ms: percentile(addonTotal, 95),
      },
      {
        what: 'preprocess (addon, fused)',
        p50_ms: result.preprocess_ms_p50,
        p95_ms: percentile(addonPre, 95),
      },
      {
        what: 'preprocess (sharp + JS normalize)',
        p50_ms: result.sharp_preprocess_ms_p50,
        p95_ms: percentile(sharpMs, 95),
      },
    ]),
  );
  console.log(
    `model ${result.model}, ${threads} thread(s), ${iterations} iterations: addon/reference inference = ${ratio.toFixed(3)}, ` +
      `preprocessing ${speedup.toFixed(1)}x faster than sharp`,
  );
  if (runtimes.length > 0) {
    console.log(
      formatTable(
        runtimes.map((r) => ({
          model: `${r.model} ${r.precision}`,
          runtime: r.runtime,
          placement: r.placement,
          p50_ms: r.inference_ms_p50,
          p95_ms: r.inference_ms_p95,
        })),
      ),
    );
    for (const precision of ['fp32', 'int8'] as const) {
      const onnxRow = runtimes.find(
        (r) => r.precision === precision && r.runtime === 'onnxruntime',
      );
      const programRow = runtimes.find(
        (r) => r.precision === precision && r.runtime === 'executorch',
      );
      if (!programRow && onnxRow)
        console.log(
          `runtimes ${precision}: no ExecuTorch program of ${onnxRow.model} at this precision`,
        );
      if (onnxRow && programRow)
        console.log(
          `runtimes ${precision}, ${threads} thread(s), interleaved: ExecuTorch (XNNPACK) / ONNX Runtime (CPU) inference p50 = ${(programRow.inference_ms_p50 / onnxRow.inference_ms_p50).toFixed(3)}`,
        );
    }
  }
  if (args.jsonPath) {
    fs.mkdirSync(path.dirname(path.resolve(args.jsonPath)), { recursive: true });
    fs.writeFileSync(
      args.jsonPath,
      JSON.stringify(
        {
          ...result,
          addon_over_reference: ratio,
          preprocess_speedup: speedup,
          cpu: os.cpus()[0]?.model ?? 'unknown',
          date: new Date().toISOString(),
          runtimes,
        },
        null,
        2,
      ) + '\n',
    );
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
