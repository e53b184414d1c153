/**
 * npm run bench:models [-- --iterations 20 --json out.json --png out.png --precision fp32,int8
 *                          --providers cpu,htp --htp-iterations 3]
 *
 * Per model (every manifest in models/), precision and provider available here: p50/p95 of
 * preprocess, inference and head time over real photos, through the same pipeline the nodes use.
 * Prints a table, saves JSON and a PNG chart. Which processor ran the model comes from ONNX
 * Runtime's own node assignment, never from what was requested.
 *
 * Provider htp runs the INT8 QDQ models through the QNN provider. Without a Hexagon device (any
 * x86-64 machine) its HTP library is a simulator: those rows show node placement and that the
 * graphs compile for v68; their times are simulator times, not device times.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import sharp from 'sharp';
import {
  ModelPipeline,
  findModelManifests,
  formatTable,
  listPhotos,
  loadRgbFrame,
  packagePath,
  percentile,
  printedHelp,
  type Box,
  type Frame,
  type Precision,
} from '../../src/index';
import { barChartSvg } from './barChartSvg';
import { flagValue, parseBenchArgs } from './benchArgs';

/** Printed by --help: this file's header. */
const USAGE = `npm run bench:models [-- --iterations 20 --json out.json --png out.png --precision fp32,int8
                         --providers cpu,htp --htp-iterations 3]

Per model (every manifest in models/), precision and provider available here: p50/p95 of
preprocess, inference and head time over real photos, through the same pipeline the nodes use.
Prints a table, saves JSON and a PNG chart. Which processor ran the model comes from ONNX
Runtime's own node assignment, never from what was requested.

Provider htp runs the INT8 QDQ models through the QNN provider. Without a Hexagon device (any
x86-64 machine) its HTP library is a simulator: those rows show node placement and that the
graphs compile for v68; their times are simulator times, not device times.`;

interface Entry {
  model: string;
  weights: string;
  precision: Precision;
  provider: string;
  /** Graph nodes per execution provider, from ONNX Runtime's assignment record. */
  nodes_by_provider: Record<string, number>;
  threads: number;
  iterations: number;
  preprocess_ms_p50: number;
  preprocess_ms_p95: number;
  inference_ms_p50: number;
  inference_ms_p95: number;
  head_ms_p50: number;
  head_ms_p95: number;
  total_ms_p50: number;
}

async function frames(dir: string, limit: number): Promise<Frame[]> {
  return Promise.all(listPhotos(dir).slice(0, limit).map(loadRgbFrame));
}

const r2 = (v: number): number => Math.round(v * 100) / 100;

async function main(): Promise<void> {
  if (printedHelp(process.argv.slice(2), USAGE)) return;
  const args = parseBenchArgs(process.argv.slice(2));
  const iterations = Number(flagValue(args.rest, '--iterations') ?? 20);
  const threads = Number(flagValue(args.rest, '--threads') ?? 2);
  const precisions = (flagValue(args.rest, '--precision') ?? 'fp32,int8').split(',') as Precision[];
  const providers = (flagValue(args.rest, '--providers') ?? 'cpu').split(',') as ('cpu' | 'htp')[];
  const htpIterations = Number(flagValue(args.rest, '--htp-iterations') ?? 3);
  const pngPath = flagValue(args.rest, '--png') ?? packagePath('bench-results', 'models.png');
  const jsonPath = args.jsonPath ?? packagePath('bench-results', 'models.json');
  const photos = await frames(packagePath('.cache', 'photos'), 8);
  // HRNet is timed on a fixed person box per photo (the centre half), so its cost is one crop.
  const personBox = (f: Frame): Box => ({
    x1: f.width * 0.3,
    y1: f.height * 0.1,
    x2: f.width * 0.7,
    y2: f.height * 0.95,
  });
  const entries: Entry[] = [];
  for (const manifest of findModelManifests(packagePath('models'), { skipExamples: true })) {
    const combos = providers.flatMap(
      (provider): { provider: 'cpu' | 'htp'; precision: Precision }[] =>
        provider === 'htp'
          ? [{ provider, precision: 'int8' as Precision }]
          : precisions.map((precision) => ({ provider, precision })),
    );
    for (const { provider, precision } of combos) {
      let p: ModelPipeline;
      try {
        // 8 MB of VTCM: with 0 (device maximum) the simulator fails to finalize yolov8n-pose.
        p = await ModelPipeline.load(manifest, {
          provider,
          precision,
          threads,
          ...(provider === 'htp' ? { htp: { vtcm_mb: 8 } } : {}),
        });
      } catch (e) {
        process.stderr.write(
          `${path.basename(manifest)} ${provider} ${precision}: not loadable: ${e instanceof Error ? e.message : String(e)}\n`,
        );
        continue;
      }
      const runs = provider === 'htp' ? htpIterations : iterations;
      const pre: number[] = [];
      const inf: number[] = [];
      const head: number[] = [];
      const total: number[] = [];
      await p.run(photos[0]!, p.needsPersonBoxes ? [personBox(photos[0]!)] : []); // warm-up
      for (let i = 0; i < runs; i++) {
        const f = photos[i % photos.length]!;
        const r = await p.run(f, p.needsPersonBoxes ? [personBox(f)] : []);
        pre.push(r.timings.preprocessMs);
        inf.push(r.timings.inferenceMs);
        head.push(r.timings.headMs);
        total.push(r.timings.totalMs);
      }
      const report = p.providerReport;
      entries.push({
        model: p.name,
        weights: p.manifest.weights,
        precision,
        provider: provider === 'htp' ? 'htp (simulator on x86-64)' : 'cpu',
        nodes_by_provider: { ...report.nodesByProvider },
        threads,
        iterations: runs,
        preprocess_ms_p50: r2(percentile(pre, 50)),
        preprocess_ms_p95: r2(percentile(pre, 95)),
        inference_ms_p50: r2(percentile(inf, 50)),
        inference_ms_p95: r2(percentile(inf, 95)),
        head_ms_p50: r2(percentile(head, 50)),
        head_ms_p95: r2(percentile(head, 95)),
        total_ms_p50: r2(percentile(total, 50)),
      });
      p.dispose();
      process.stderr.write(`${p.name} ${provider} ${precision}: done\n`);
    }
  }
  const table = entries.map((e) => ({
    model: e.model,
    precision: e.precision,
    provider: e.provider,
    nodes: Object.entries(e.nodes_by_provider)
      .map(([k, v]) => `${k.replace('ExecutionProvider', '')}:${v}`)
      .join(' '),
    'pre p50/p95': `${e.preprocess_ms_p50} / ${e.preprocess_ms_p95}`,
    'infer p50/p95': `${e.inference_ms_p50} / ${e.inference_ms_p95}`,
    'head p50/p95': `${e.head_ms_p50} / ${e.head_ms_p95}`,
  }));
  process.stdout.write(formatTable(table) + '\n');
  fs.mkdirSync(path.dirname(path.resolve(jsonPath)), { recursive: true });
  fs.writeFileSync(jsonPath, JSON.stringify(entries, null, 2) + '\n');
  const svg = barChartSvg(
    `Model stage times, p50 (ms), CPU provider, ${threads} threads`,
    'ms',
    ['preprocess', 'inference', 'head'],
    entries.map((e) => ({
      label: `${e.model} ${e.precision}`,
      values: [e.preprocess_ms_p50, e.inference_ms_p50, e.head_ms_p50],
    })),
  );
  fs.mkdirSync(path.dirname(path.resolve(pngPath)), { recursive: true });
  await sharp(Buffer.from(svg)).png().toFile(pngPath);
  process.stdout.write(`wrote ${jsonPath} and ${pngPath}\n`);
}

if (require.main === module) {
  main().catch((e: unknown) => {
    process.stderr.write(`${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}\n`);
    process.exit(1);
  });
}
