/**
 * npm run bench:peaks [-- --frames 600 --json out.json]
 *
 * Where HRNet's joint peaks are found, and what that costs per frame of five people: the HRNet
 * stand-in of bench:e2e (fixed heatmaps, ~0 inference) in both layouts (NCHW, the ONNX export;
 * NHWC, AI Hub's compiled model), five 256x192 crops of a 640x480 frame in one runMany, each
 * decoded by decodeHrnetHeatmaps, either scanning the heatmaps itself on the main thread (the
 * addon's planePeaks for NCHW, a strided TypeScript loop for NHWC) or given the peaks the engine
 * found on its worker (the engine option outputPeaks). Reports the head's time per frame (p50)
 * and the process's CPU per frame (user + system over the measured frames).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Frame } from '../core/frame';
import { EngineSession } from '../engine/engineSession';
import { nativeOutputKernels } from '../engine/outputKernels';
import { decodeHrnetHeatmaps } from '../families/hrnet/decodeHrnetHeatmaps';
import { planHrnetCrop } from '../heads/planHrnetCrop';
import { formatTable } from '../util/formatTable';
import { percentile } from '../util/percentile';
import { printedHelp } from '../util/commandHelp';
import { BenchFlags, parseBenchArgs } from './benchArgs';
import { htpStandinPoseBytes } from './htpStandinModel';
import { runBench, writeBenchJson } from './benchOutput';

const USAGE = `npm run bench:peaks [-- --frames 600 --json out.json]

Where HRNet's joint peaks are found, and what that costs per frame of five people: the HRNet
stand-in of bench:e2e (fixed heatmaps, ~0 inference) in both layouts (NCHW, the ONNX export;
NHWC, AI Hub's compiled model), five 256x192 crops of a 640x480 frame in one runMany, each
decoded by decodeHrnetHeatmaps, either scanning the heatmaps itself on the main thread or given
the peaks the engine found on its worker (the engine option outputPeaks). Reports the head's time
per frame (p50) and the process's CPU per frame (user + system over the measured frames).`;

const W = 640;
const H = 480;
const WARMUP = 100;

interface Figures {
  readonly layout: 'NCHW' | 'NHWC';
  readonly peaks: 'head' | 'engine';
  readonly head_ms_p50: number;
  readonly process_cpu_ms_per_frame: number;
}

async function measure(
  file: string,
  layout: 'NCHW' | 'NHWC',
  onWorker: boolean,
  frames: number,
): Promise<Figures> {
  const s = await EngineSession.load({
    model: file,
    threads: 1,
    preprocess: { resize: 'stretch', padValue: 0 },
    ...(onWorker ? { outputPeaks: { output: 'heatmaps', layout } } : {}),
  });
  const kernels = nativeOutputKernels();
  const frame: Frame = {
    data: new Uint8Array(W * H * 3).fill(100),
    width: W,
    height: H,
    step: W * 3,
    encoding: 'rgb8',
  };
  const rois = [0, 1, 2, 3, 4].map((i) => ({
    ...planHrnetCrop({ x1: 40 + i * 120, y1: 140, x2: 120 + i * 120, y2: 340 }, W, H).region,
    outside: 'pad' as const,
  }));
  const heads: number[] = [];
  let cpu = process.cpuUsage();
  try {
    for (let i = 0; i < WARMUP + frames; i++) {
      if (i === WARMUP) cpu = process.cpuUsage();
      const runs = await s.runMany(frame, rois);
      const h0 = performance.now();
      for (const r of runs) {
        decodeHrnetHeatmaps(r.outputs[0]!, [r.transform], {
          layout,
          planePeaks: kernels.planePeaks,
          peaks: r.channelPeaks,
        });
      }
      if (i >= WARMUP) heads.push(performance.now() - h0);
    }
  } finally {
    s.dispose();
  }
  const used = process.cpuUsage(cpu);
  return {
    layout,
    peaks: onWorker ? 'engine' : 'head',
    head_ms_p50: +percentile(heads, 50).toFixed(3),
    process_cpu_ms_per_frame: +((used.user + used.system) / 1000 / frames).toFixed(3),
  };
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (printedHelp(argv, USAGE)) return;
  const args = parseBenchArgs(argv);
  const flags = new BenchFlags(args.rest);
  const frames = flags.int('--frames', 600, 1);
  flags.finish();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'htp-peaks-'));
  try {
    const results: Figures[] = [];
    for (const layout of ['NCHW', 'NHWC'] as const) {
      const file = path.join(tmp, `pose-${layout}.onnx`);
      fs.writeFileSync(file, htpStandinPoseBytes(layout));
      for (const onWorker of [false, true]) {
        results.push(await measure(file, layout, onWorker, frames));
      }
    }
    const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
    console.log(`${new Date().toISOString()}, ${cpu}, ${os.cpus().length} cores, ${frames} frames`);
    console.log(
      formatTable(
        results.map((r) => ({
          heatmaps: r.layout,
          'peaks found by': r.peaks === 'head' ? 'the head (main thread)' : 'the engine (worker)',
          'head p50 ms / frame': r.head_ms_p50,
          'process CPU ms / frame': r.process_cpu_ms_per_frame,
        })),
      ),
    );
    if (args.jsonPath) {
      const out = { date: new Date().toISOString(), cpu, cores: os.cpus().length, frames, results };
      writeBenchJson(args.jsonPath, out);
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

if (require.main === module) runBench(main);
