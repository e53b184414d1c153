/**
 * npm run bench:quantized-input [-- --model NAME|manifest --iterations 30 --threads 2 --json out.json]
 *
 * An INT8 QDQ model fed two ways in one process, interleaved frame by frame over the same real
 * photos: `float` (the preprocessing writes float32, ONNX Runtime's input QuantizeLinear quantizes
 * it) and `quantized` (the preprocessing writes uint8 into the graph whose input quantize was
 * folded away, see foldInputQuantize). Reports p50/p95 of the engine's preprocess and inference
 * times, the input tensor's size and the CPU node count, on the CPU provider.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  ModelPipeline,
  formatTable,
  listPhotos,
  loadRgbFrame,
  packagePath,
  percentile,
  printedHelp,
  resolveModelReference,
  type Int8Input,
  type RunTimings,
} from '../../src/index';
import { flagValue, parseBenchArgs } from './benchArgs';
import { writeBenchJson } from './benchOutput';

/** Printed by --help: this file's header. */
const USAGE = `npm run bench:quantized-input [-- --model NAME|manifest --iterations 30 --threads 2 --json out.json]

An INT8 QDQ model fed two ways in one process, interleaved frame by frame over the same real
photos: \`float\` (the preprocessing writes float32, ONNX Runtime's input QuantizeLinear quantizes
it) and \`quantized\` (the preprocessing writes uint8 into the graph whose input quantize was
folded away, see foldInputQuantize). Reports p50/p95 of the engine's preprocess and inference
times, the input tensor's size and the CPU node count, on the CPU provider.`;

interface Row {
  feed: Int8Input;
  input_type: string;
  input_bytes: number;
  cpu_nodes: number;
  /** ModelPipeline.load, including the rewrite for the quantized feed. */
  load_ms: number;
  iterations: number;
  preprocess_ms_p50: number;
  preprocess_ms_p95: number;
  inference_ms_p50: number;
  inference_ms_p95: number;
  total_ms_p50: number;
}

const r2 = (v: number): number => Math.round(v * 100) / 100;
const BYTES: Readonly<Record<string, number>> = { float32: 4, uint8: 1, int8: 1 };

async function main(): Promise<void> {
  if (printedHelp(process.argv.slice(2), USAGE)) return;
  const args = parseBenchArgs(process.argv.slice(2));
  const iterations = Number(flagValue(args.rest, '--iterations') ?? 30);
  const threads = Number(flagValue(args.rest, '--threads') ?? 2);
  const model = resolveModelReference(flagValue(args.rest, '--model') ?? 'yolov8s-fall');
  if (!Number.isInteger(iterations) || iterations < 1)
    throw new Error('--iterations: expected >= 1');
  const photos = await Promise.all(
    listPhotos(packagePath('.cache', 'photos')).slice(0, 8).map(loadRgbFrame),
  );
  const feeds: Int8Input[] = ['float', 'quantized'];
  const pipelines = new Map<Int8Input, ModelPipeline>();
  const loadMs = new Map<Int8Input, number>();
  for (const feed of feeds) {
    const t0 = performance.now();
    pipelines.set(
      feed,
      await ModelPipeline.load(model, {
        provider: 'cpu',
        precision: 'int8',
        threads,
        int8Input: feed,
      }),
    );
    loadMs.set(feed, performance.now() - t0);
  }
  const timings = new Map<Int8Input, RunTimings[]>(feeds.map((f) => [f, []]));
  try {
    for (const p of pipelines.values()) await p.session.run(photos[0]!); // warm-up
    // Interleaved so that both feeds share whatever else the machine is doing.
    for (let i = 0; i < iterations; i++) {
      const frame = photos[i % photos.length]!;
      for (const feed of i % 2 === 0 ? feeds : [...feeds].reverse()) {
        const r = await pipelines.get(feed)!.session.run(frame);
        timings.get(feed)!.push(r.timings);
      }
    }
    const rows: Row[] = feeds.map((feed) => {
      const p = pipelines.get(feed)!;
      const t = timings.get(feed)!;
      const q = (k: keyof RunTimings, pct: number): number =>
        r2(
          percentile(
            t.map((x) => x[k]),
            pct,
          ),
        );
      const spec = p.session.inputSpec;
      return {
        feed,
        input_type: spec.type,
        input_bytes: spec.width * spec.height * spec.channels * (BYTES[spec.type] ?? 0),
        cpu_nodes: p.providerReport.cpuNodes.length,
        load_ms: r2(loadMs.get(feed)!),
        iterations,
        preprocess_ms_p50: q('preprocessMs', 50),
        preprocess_ms_p95: q('preprocessMs', 95),
        inference_ms_p50: q('inferenceMs', 50),
        inference_ms_p95: q('inferenceMs', 95),
        total_ms_p50: q('totalMs', 50),
      };
    });
    const name = pipelines.get('quantized')!.name;
    console.log(`${name} INT8 on the CPU, ${threads} threads, ${iterations} frames per feed`);
    console.log(
      formatTable(
        rows.map((r) => ({
          feed: r.feed,
          input: r.input_type,
          bytes: r.input_bytes,
          'cpu nodes': r.cpu_nodes,
          'load ms': r.load_ms,
          'preprocess p50/p95 ms': `${r.preprocess_ms_p50} / ${r.preprocess_ms_p95}`,
          'inference p50/p95 ms': `${r.inference_ms_p50} / ${r.inference_ms_p95}`,
          'total p50 ms': r.total_ms_p50,
        })),
      ),
    );
    const feed = pipelines.get('quantized')!.inputFeed;
    if (feed.fed === 'float')
      console.log(`note: the quantized feed fell back to float (${feed.reason})`);
    if (args.jsonPath) {
      fs.mkdirSync(path.dirname(path.resolve(args.jsonPath)), { recursive: true });
      writeBenchJson(args.jsonPath, {
        model: name,
        precision: 'int8',
        provider: 'cpu',
        threads,
        rows,
      });
    }
  } finally {
    for (const p of pipelines.values()) p.dispose();
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : String(e));
  process.exit(1);
});
