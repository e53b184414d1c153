/**
 * bench:soak --container: a day of frames compressed into one run. The perception_container of
 * config/pipelines.yaml (yolo11n detector, BlazePose on its people, selfie segmentation; every
 * model on the CPU) takes an rclpy camera stand-in's 640x480 rgb8 photos at --rate Hz for
 * --seconds. Once a second this process reads the container's RSS from /proc and its JS heap
 * from the diagnostics (native memory = RSS - JS heap), and every result message's age (stamp to
 * arrival); in the middle it runs --cycles deactivate/activate cycles of all three pipelines
 * through their lifecycle services. It reports RSS and native memory over time (PNG), frames in
 * vs processed vs dropped per pipeline, p50/p95 latency per --window seconds, and growth after
 * --warmup (JSON).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type * as Rclnodejs from 'rclnodejs';
import sharp from 'sharp';
import { CdrReader, formatTable, loadRclnodejs, packagePath, readHeader } from '../../src/index';
import { BenchFlags, parseBenchArgs } from './benchArgs';
import {
  FrameCounts,
  frameCounts,
  LatencyReading,
  LatencyWindow,
  latencyDrift,
  latencyWindows,
} from './containerSoakSummary';
import { writeBenchFrames } from './e2eFrames';
import {
  breakdownChartSvg,
  ChartContext,
  ChartedSample,
  memoryChartSvg,
} from './containerSoakCharts';
import { startBenchContainer, startFramePublisher } from './benchProcesses';
import { diagnosticsMemory, rssKindsOf } from './memoryBreakdown';
import { readProcessUsage } from './processUsage';
import { SoakSummary, summarizeSoak } from './soakSummary';
import { wallMs } from './graphTime';

export const CONTAINER_USAGE = `npm run bench:soak -- --container [--seconds 3600 --warmup 300 --rate 30
                      --window 300 --cycles 5 --json out.json --png out.png]

The perception_container of config/pipelines.yaml (yolo11n, BlazePose on its people, selfie
segmentation; CPU) at --rate Hz of 640x480 rgb8 for --seconds: RSS and native memory (RSS - JS
heap) once a second, frames in / processed / dropped per pipeline, p50/p95 stamp-to-arrival
latency per --window seconds, --cycles deactivate/activate cycles of every pipeline in the
middle, growth after --warmup. JSON and a PNG chart.`;

const TOPIC = '/soak_container/image';
const WIDTH = 640;
const HEIGHT = 480;
/** The pipelines of config/pipelines.yaml, their result topic and its message type. */
const PIPELINES = [
  { name: 'detector', topic: '/detector/detections', type: 'vision_msgs/msg/Detection2DArray' },
  { name: 'pose', topic: '/pose/poses', type: 'htp_perception/msg/PersonPoseArray' },
  { name: 'segmentation', topic: '/segmentation/segmentation', type: 'sensor_msgs/msg/Image' },
] as const;
type PipelineName = (typeof PIPELINES)[number]['name'];
const ACTIVATE = 3;
const DEACTIVATE = 4;
/** The issue's goal: memory growth after warm-up, per hour. */
const GROWTH_GOAL_PCT_PER_H = 2;

interface Options {
  readonly seconds: number;
  readonly warmup: number;
  readonly rate: number;
  readonly windowS: number;
  readonly cycles: number;
  readonly jsonPath: string;
  readonly pngPath: string;
}

function parseOptions(argv: readonly string[]): Options {
  const a = parseBenchArgs(argv.filter((x) => x !== '--container'));
  const flags = new BenchFlags(a.rest);
  const o: Options = {
    seconds: a.seconds ?? 3600,
    warmup: flags.int('--warmup', 300, 0),
    rate: flags.int('--rate', 30, 1),
    windowS: flags.int('--window', 300, 10),
    cycles: flags.int('--cycles', 5, 0),
    jsonPath: a.jsonPath ?? packagePath('bench-results', 'soak-container.json'),
    pngPath: flags.value('--png') ?? packagePath('bench-results', 'soak-container.png'),
  };
  flags.finish();
  if (o.warmup >= o.seconds) throw new Error('--warmup must be shorter than --seconds');
  return o;
}

interface MemorySample extends ChartedSample {
  readonly cpu_percent: number;
}

export interface ContainerSoakReport extends SoakSummary {
  readonly date: string;
  readonly cpu: string;
  readonly cores: number;
  readonly pipelines: string;
  readonly resolution: string;
  readonly rate_hz: number;
  readonly seconds: number;
  readonly warmup_s: number;
  readonly frames_sent: number;
  readonly native_mb_after_warmup: number;
  readonly native_mb_end: number;
  readonly native_growth_pct: number;
  readonly growth_pct_per_hour: number;
  readonly native_growth_pct_per_hour: number;
  readonly cycles: { readonly at_s: number; readonly count: number; readonly ms: number };
  readonly frames: Readonly<Record<PipelineName, FrameCounts>>;
  readonly latency: Readonly<
    Record<
      PipelineName,
      {
        readonly windows: readonly LatencyWindow[];
        readonly drift: ReturnType<typeof latencyDrift>;
      }
    >
  >;
  readonly goals: { readonly growth_pct_per_hour_max: number };
  readonly memory: readonly MemorySample[];
}

const byPipeline = <T>(f: (name: PipelineName) => T): Record<PipelineName, T> => ({
  detector: f('detector'),
  pose: f('pose'),
  segmentation: f('segmentation'),
});

async function runSoak(o: Options): Promise<ContainerSoakReport> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'htp-soak-container-'));
  const rcl = loadRclnodejs();
  await rcl.init();
  const bench = new rcl.Node('soak_container_bench');
  let startedAt = 0;
  const readings = new Map<PipelineName, LatencyReading[]>(PIPELINES.map((p) => [p.name, []]));
  for (const p of PIPELINES) {
    // Raw, header only: this process's own cost must not disturb the container it measures.
    bench.createSubscription(
      p.type,
      p.topic,
      { isRaw: true, qos: rcl.QoS.profileSensorData },
      (m: unknown) => {
        if (startedAt === 0) return;
        const now = wallMs();
        const h = readHeader(new CdrReader(m as Buffer));
        const stampMs = Number(h.stamp.sec) * 1000 + Number(h.stamp.nanosec) / 1e6;
        readings.get(p.name)!.push({
          t_s: (now - startedAt) / 1000,
          latency_ms: now - stampMs,
        });
      },
    );
  }
  const diagnostics = new Map<PipelineName, Map<string, string>>();
  bench.createSubscription('diagnostic_msgs/msg/DiagnosticArray', '/diagnostics', (m) => {
    for (const s of (m as Rclnodejs.diagnostic_msgs.msg.DiagnosticArray).status) {
      const name = s.hardware_id.replace(/^\//, '') as PipelineName;
      if (PIPELINES.some((p) => p.name === name)) {
        diagnostics.set(name, new Map(s.values.map((kv) => [kv.key, kv.value])));
      }
    }
  });
  const lifecycle = new Map(
    PIPELINES.map((p) => [
      p.name,
      bench.createClient(
        'lifecycle_msgs/srv/ChangeState',
        `/${p.name}/change_state`,
      ) as Rclnodejs.Client<'lifecycle_msgs/srv/ChangeState'>,
    ]),
  );
  const change = async (name: PipelineName, id: number): Promise<void> => {
    const r = await lifecycle
      .get(name)!
      .sendRequestAsync({ transition: { id, label: '' } }, { timeout: 120_000 });
    if (!r.success) throw new Error(`${name} refused transition ${id}`);
  };
  bench.spin();
  const frames = await writeBenchFrames(packagePath('.cache', 'photos'), WIDTH, HEIGHT, tmp);
  const container = startBenchContainer(packagePath('config', 'pipelines.yaml'), TOPIC);
  const cam = startFramePublisher(TOPIC, WIDTH, HEIGHT, frames, { noWait: true });
  try {
    for (const [name, client] of lifecycle) {
      if (!(await client.waitForService(120_000))) {
        throw new Error(`no /${name}/change_state service:\n${container.log}`);
      }
    }
    await cam.nextLine(/^ready$/, 60_000);
    // Wait for every pipeline to be active (autostart) before the clock starts.
    for (let i = 0; i < 240; i++) {
      if (PIPELINES.every((p) => diagnostics.get(p.name)?.get('lifecycle_state') === 'active'))
        break;
      await new Promise((r) => setTimeout(r, 500));
    }
    cam.send(`rate ${o.rate} ${o.seconds}`);
    startedAt = wallMs();
    const memory: MemorySample[] = [];
    let prev = readProcessUsage(container.pid);
    let prevAt = startedAt;
    const cycleAt = Math.floor(o.seconds / 2);
    let cycleMs = 0;
    for (let k = 1; k <= o.seconds; k++) {
      // On a fixed schedule, so a late wake-up does not shift later samples.
      await new Promise((r) => setTimeout(r, Math.max(0, startedAt + k * 1000 - wallMs())));
      const now = wallMs();
      const p = readProcessUsage(container.pid);
      const heap = Number(diagnostics.get('detector')?.get('process_js_heap_mb') ?? NaN);
      memory.push({
        ...rssKindsOf(p.status),
        ...diagnosticsMemory(
          diagnostics.get('detector'),
          PIPELINES.map((pl) => diagnostics.get(pl.name)),
        ),
        t_s: Number(((now - startedAt) / 1000).toFixed(3)),
        rss_mb: Number(p.rssMb.toFixed(2)),
        js_heap_mb: heap,
        native_mb: Number((p.rssMb - heap).toFixed(2)),
        cpu_percent: Number((((p.cpuS - prev.cpuS) / ((now - prevAt) / 1000)) * 100).toFixed(1)),
      });
      prev = p;
      prevAt = now;
      if (k === cycleAt && o.cycles > 0) {
        const t0 = wallMs();
        for (let c = 0; c < o.cycles; c++) {
          for (const pl of [...PIPELINES].reverse()) await change(pl.name, DEACTIVATE);
          for (const pl of PIPELINES) await change(pl.name, ACTIVATE);
        }
        cycleMs = wallMs() - t0;
        process.stderr.write(`${o.cycles} lifecycle cycles in ${cycleMs.toFixed(0)} ms\n`);
      }
      if (k % 60 === 0) {
        const counts = PIPELINES.map((pl) => `${pl.name} ${readings.get(pl.name)!.length}`);
        process.stderr.write(
          `${k} s: RSS ${p.rssMb.toFixed(1)} MB, results ${counts.join(', ')}\n`,
        );
      }
    }
    const done = await cam.nextLine(/^done (\d+)/, 60_000);
    const summary = summarizeSoak(
      memory.map((m) => ({
        t_s: m.t_s,
        rss_mb: m.rss_mb,
        cpu_percent: m.cpu_percent,
        detections_per_s: 0,
      })),
      o.warmup,
    );
    const native = summarizeSoak(
      memory.map((m) => ({ t_s: m.t_s, rss_mb: m.native_mb, cpu_percent: 0, detections_per_s: 0 })),
      o.warmup,
    );
    const hours = (o.seconds - o.warmup - 60) / 3600;
    const perHour = (pct: number): number => Number((pct / Math.max(hours, 1 / 60)).toFixed(2));
    return {
      date: new Date().toISOString(),
      cpu: os.cpus()[0]?.model ?? 'unknown',
      cores: os.cpus().length,
      pipelines: PIPELINES.map((p) => p.name).join(', ') + ' (config/pipelines.yaml, CPU)',
      resolution: `${WIDTH}x${HEIGHT}`,
      rate_hz: o.rate,
      seconds: o.seconds,
      warmup_s: o.warmup,
      frames_sent: Number(done[1]),
      ...summary,
      native_mb_after_warmup: native.rss_mb_after_warmup,
      native_mb_end: native.rss_mb_end,
      native_growth_pct: native.growth_pct,
      growth_pct_per_hour: perHour(summary.growth_pct),
      native_growth_pct_per_hour: perHour(native.growth_pct),
      cycles: { at_s: cycleAt, count: o.cycles, ms: Number(cycleMs.toFixed(0)) },
      frames: byPipeline((name) => frameCounts(diagnostics.get(name) ?? new Map())),
      latency: byPipeline((name) => {
        const windows = latencyWindows(readings.get(name)!, o.windowS, o.seconds);
        return { windows, drift: latencyDrift(windows, o.warmup) };
      }),
      goals: { growth_pct_per_hour_max: GROWTH_GOAL_PCT_PER_H },
      memory,
    };
  } finally {
    await cam.stop(5000);
    await container.stop();
    bench.destroy();
    rcl.shutdown();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

/** Runs the container soak and writes its JSON and PNG; prints the tables. */
export async function containerSoakMain(argv: readonly string[]): Promise<void> {
  const o = parseOptions(argv);
  const r = await runSoak(o);
  const out = process.stdout;
  out.write(
    `${r.pipelines}, ${r.resolution} at ${r.rate_hz} Hz for ${r.seconds} s, ${r.cpu} (${r.cores} cores); ${r.frames_sent} frames sent\n`,
  );
  out.write(
    `${formatTable([
      {
        figure: 'RSS after warm-up / end / peak (MB)',
        value: `${r.rss_mb_after_warmup} / ${r.rss_mb_end} / ${r.rss_mb_peak}`,
      },
      {
        figure: 'RSS growth after warm-up (% per hour)',
        value: `${r.growth_pct_per_hour} (goal < ${GROWTH_GOAL_PCT_PER_H})`,
      },
      {
        figure: 'native (RSS - JS heap) after warm-up / end (MB)',
        value: `${r.native_mb_after_warmup} / ${r.native_mb_end}`,
      },
      { figure: 'native growth (% per hour)', value: r.native_growth_pct_per_hour },
      { figure: 'container CPU % of one core (median)', value: r.cpu_percent_median },
      {
        figure: `lifecycle cycles at ${r.cycles.at_s} s`,
        value: `${r.cycles.count} in ${r.cycles.ms} ms`,
      },
    ])}\n`,
  );
  out.write(`${formatTable(PIPELINES.map((p) => ({ pipeline: p.name, ...r.frames[p.name] })))}\n`);
  const rows = PIPELINES.flatMap((p) =>
    r.latency[p.name].windows.map((w) => ({
      pipeline: p.name,
      window_s: `${w.from_s}-${w.to_s}`,
      messages: w.messages,
      p50_ms: w.p50_ms,
      p95_ms: w.p95_ms,
    })),
  );
  out.write(`${formatTable(rows)}\n`);
  for (const p of PIPELINES) {
    const d = r.latency[p.name].drift;
    if (d)
      out.write(
        `${p.name}: latency drift first -> last window after warm-up: p50 ${d.p50_pct} %, p95 ${d.p95_pct} %\n`,
      );
  }
  fs.mkdirSync(path.dirname(path.resolve(o.jsonPath)), { recursive: true });
  fs.writeFileSync(o.jsonPath, `${JSON.stringify(r, null, 2)}\n`);
  const chart: ChartContext = {
    resolution: r.resolution,
    rateHz: r.rate_hz,
    cpuPercentMedian: r.cpu_percent_median,
    warmupS: o.warmup,
  };
  const breakdownPng = o.pngPath.replace(/(\.png)?$/, '-native.png');
  fs.mkdirSync(path.dirname(path.resolve(o.pngPath)), { recursive: true });
  await sharp(Buffer.from(memoryChartSvg(r.memory, chart)))
    .png()
    .toFile(o.pngPath);
  await sharp(Buffer.from(breakdownChartSvg(r.memory, chart)))
    .png()
    .toFile(breakdownPng);
  out.write(`wrote ${o.jsonPath}, ${o.pngPath} and ${breakdownPng}\n`);
}
