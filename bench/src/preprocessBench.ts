/**
 * npm run bench:preprocess [-- --iterations 300 --json out.json]
 *
 * The preprocessing of bench:e2e's stand-in container on a 640x480 camera photo, through the
 * addon's widest vector paths, on the AVX2 paths (a child with HTP_ENGINE_SIMD=avx2: no AVX-512)
 * and on the plain loops they replace (a child with HTP_ENGINE_SIMD=off); all give the same bytes,
 * checked by test/integration/engine/simdPaths.test.ts. The inputs: the detector's
 * 640x640 letterbox (on the source grid), segmentation's 520x520 letterbox and top-down pose's
 * five person crops (256x192, one runMany per frame). Reports p50 / p95 of the engine's
 * preprocessing time per call (per crop for pose), INT8 stand-ins fed uint8 as the nodes feed them.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  ModelPipeline,
  formatTable,
  packagePath,
  percentile,
  planHrnetCrop,
  printedHelp,
  resolveModelReference,
  type Frame,
} from '../../src/index';
import { BenchFlags, parseBenchArgs } from './benchArgs';
import { writeBenchFrames } from './e2eFrames';
import { STANDIN_PEOPLE, writeHtpStandinContainer } from './htpStandinModel';
import { runBench, writeBenchJson } from './benchOutput';

/** Printed by --help: this file's header. */
const USAGE = `npm run bench:preprocess [-- --iterations 300 --json out.json]

The preprocessing of bench:e2e's stand-in container on a 640x480 camera photo, through the
addon's widest vector paths, on the AVX2 paths (a child with HTP_ENGINE_SIMD=avx2: no AVX-512)
and on the plain loops they replace (a child with HTP_ENGINE_SIMD=off); all give the same bytes,
checked by test/integration/engine/simdPaths.test.ts. The inputs: the detector's
640x640 letterbox (on the source grid), segmentation's 520x520 letterbox and top-down pose's
five person crops (256x192, one runMany per frame). Reports p50 / p95 of the engine's
preprocessing time per call (per crop for pose), INT8 stand-ins fed uint8 as the nodes feed them.`;

const W = 640;
const H = 480;
/** Where the child writes its figures (internal flag). */
const CHILD_FLAG = '--child-out';

type Figures = Record<'detector' | 'segmentation' | 'pose crop', { p50: number; p95: number }>;

async function measure(iterations: number, dir: string, frameFile: string): Promise<Figures> {
  // writeHtpStandinContainer writes each stand-in's manifest as <dir>/<name>.manifest.json.
  const load = (name: string): Promise<ModelPipeline> =>
    ModelPipeline.load(resolveModelReference(path.join(dir, `${name}.manifest.json`)), {
      provider: 'cpu',
      precision: 'int8',
      threads: 1,
    });
  const [det, seg, pose] = [
    await load('htp-standin'),
    await load('htp-standin-seg'),
    await load('htp-standin-pose'),
  ];
  const frame: Frame = {
    data: new Uint8Array(fs.readFileSync(frameFile)),
    width: W,
    height: H,
    step: W * 3,
    encoding: 'rgb8',
  };
  // The stand-in's five people, from the detector's 640x640 letterbox back to the 640x480 frame.
  const padY = (640 - H) / 2;
  const crops = STANDIN_PEOPLE.map((p) => ({
    ...planHrnetCrop(
      {
        x1: p.cx - p.w / 2,
        y1: p.cy - p.h / 2 - padY,
        x2: p.cx + p.w / 2,
        y2: p.cy + p.h / 2 - padY,
      },
      W,
      H,
    ).region,
    outside: 'pad' as const,
  }));
  const t = { detector: [] as number[], segmentation: [] as number[], 'pose crop': [] as number[] };
  try {
    for (let i = 0; i < iterations + 10; i++) {
      const d = await det.session.run(frame);
      const s = await seg.session.run(frame);
      const p = await pose.session.runMany(frame, crops);
      if (i < 10) continue; // warm-up
      t.detector.push(d.timings.preprocessMs);
      t.segmentation.push(s.timings.preprocessMs);
      t['pose crop'].push(...p.map((r) => r.timings.preprocessMs));
    }
  } finally {
    for (const m of [det, seg, pose]) m.session.dispose();
  }
  const q = (a: number[]): { p50: number; p95: number } => ({
    p50: +percentile(a, 50).toFixed(3),
    p95: +percentile(a, 95).toFixed(3),
  });
  return {
    detector: q(t.detector),
    segmentation: q(t.segmentation),
    'pose crop': q(t['pose crop']),
  };
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (printedHelp(argv, USAGE)) return;
  const args = parseBenchArgs(argv);
  const flags = new BenchFlags(args.rest);
  const iterations = flags.int('--iterations', 300, 1);
  const childOut = flags.value(CHILD_FLAG);
  const dir = flags.value('--dir');
  const frameFile = flags.value('--frame');
  flags.finish();
  if (childOut && dir && frameFile) {
    fs.writeFileSync(childOut, JSON.stringify(await measure(iterations, dir, frameFile)));
    return;
  }
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'htp-preprocess-'));
  try {
    const models = packagePath('models');
    writeHtpStandinContainer(
      {
        detector: path.join(models, 'yolov8-fall', 'yolov8s-fall.manifest.json'),
        pose: path.join(models, 'hrnet', 'hrnet-w32-256x192.manifest.json'),
        segmentation: path.join(
          models,
          'deeplabv3',
          'deeplabv3-mobilenetv3-large-520.manifest.json',
        ),
      },
      tmp,
      'preprocess_bench',
    );
    const [frameFile0] = await writeBenchFrames(
      packagePath('.cache', 'photos'),
      W,
      H,
      path.join(tmp, 'frames'),
    );
    if (!frameFile0) throw new Error('no photos in .cache/photos (run scripts/bootstrap.sh)');
    const vector = await measure(iterations, tmp, frameFile0);
    // The same figures in a child per narrower setting: AVX2 only (the AVX-512 paths off; the
    // same paths as `vector` on a CPU without AVX-512), then the plain loops.
    const child = (setting: 'avx2' | 'off'): Figures => {
      const out = path.join(tmp, `${setting}.json`);
      const r = spawnSync(
        process.execPath,
        [
          __filename,
          '--iterations',
          String(iterations),
          CHILD_FLAG,
          out,
          '--dir',
          tmp,
          '--frame',
          frameFile0,
        ],
        { env: { ...process.env, HTP_ENGINE_SIMD: setting }, encoding: 'utf8' },
      );
      if (r.status !== 0) throw new Error(`HTP_ENGINE_SIMD=${setting} child failed: ${r.stderr}`);
      return JSON.parse(fs.readFileSync(out, 'utf8')) as Figures;
    };
    const avx2 = child('avx2');
    const plain = child('off');
    const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
    const rows = (Object.keys(vector) as (keyof Figures)[]).map((k) => ({
      input: k,
      'vector p50 / p95 ms': `${vector[k].p50} / ${vector[k].p95}`,
      'AVX2 at most p50 / p95 ms': `${avx2[k].p50} / ${avx2[k].p95}`,
      'plain p50 / p95 ms': `${plain[k].p50} / ${plain[k].p95}`,
      'plain / vector (p50)': (plain[k].p50 / vector[k].p50).toFixed(2),
    }));
    console.log(
      `${new Date().toISOString()}, ${cpu}, ${os.cpus().length} cores, ${iterations} frames`,
    );
    console.log(formatTable(rows));
    if (args.jsonPath) {
      writeBenchJson(args.jsonPath, {
        date: new Date().toISOString(),
        cpu,
        cores: os.cpus().length,
        iterations,
        vector,
        avx2,
        plain,
      });
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

if (require.main === module) runBench(main);
