/**
 * npm run bench:cameras [-- --cameras 1,2,4,6 --seconds 15 --warmup-s 5 --rate 30
 *                          --modes shared,batched,per-camera --backends htp-standin,cpu-yolo11n
 *                          --batch-window-ms 10 --json out.json --png out.png]
 *
 * What each added camera costs. N rclpy camera stand-ins publish different photos (640x480 rgb8)
 * at --rate Hz on /<camera>/image_raw; the cameras are served
 *  - shared: by one perception_node with cameras:=[...] (one model session, one run loop, the
 *    camera that waited longest first, one frame per run),
 *  - batched: the same node with the model's batch-N copy for N cameras (N >= 2: the stand-in
 *    built at batch N, or `model import yolo11n --batch N` of a copy of yolo11n), the cameras'
 *    frames in one run (waiting up to --batch-window-ms for each other), or
 *  - per-camera: by a perception_container with one pipeline per camera, each with its own model
 *    (today's way without `cameras`),
 * with the HTP stand-in (the detector's input and output on a graph that computes ~nothing, so
 * the figures are the node's own work) or the real COCO detector (yolo11n FP32) on the CPU. Per
 * camera: frames in / processed / dropped, stamp-to-result p50/p95; for the process: CPU ms per
 * camera-frame (after --warmup-s), RSS loaded and at the end, native memory (malloc in use + ONNX
 * Runtime arenas, from its diagnostics), model sessions. JSON, a table, and a PNG chart of CPU per
 * camera-frame and RSS against N.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type * as Rclnodejs from 'rclnodejs';
import sharp from 'sharp';
import {
  CdrReader,
  formatTable,
  loadRclnodejs,
  packagePath,
  printedHelp,
  readHeader,
  runMain,
  stampMs,
} from '../../src/index';
import { BenchFlags, parseBenchArgs } from './benchArgs';
import { writeBenchJson } from './benchOutput';
import { startBenchContainer, startBenchNode, startFramePublisher } from './benchProcesses';
import {
  camerasGrowth,
  camerasRow,
  type CamerasBackend,
  type CamerasMode,
  type CamerasRow,
  type ConfigMeasure,
} from './camerasRows';
import { writeBenchFrames } from './e2eFrames';
import { writeHtpStandin } from './htpStandinModel';
import { type LineProcess } from './lineProcess';
import { lineChartSvg } from './lineChartSvg';
import { readProcessUsage } from './processUsage';
import { waitForPublisher, wallMs } from './graphTime';
import { diagnosticsMemory } from './memoryBreakdown';

const USAGE = `npm run bench:cameras [-- --cameras 1,2,4,6 --seconds 15 --warmup-s 5 --rate 30
                          --modes shared,batched,per-camera --backends htp-standin,cpu-yolo11n
                          --batch-window-ms 10 --json out.json --png out.png]

N camera stand-ins (640x480 rgb8, different photos, --rate Hz) served by one perception_node
with cameras:=[...] (shared: one model session, a frame per run; batched: its batch-N copy, the
cameras' frames in one run, N >= 2) or by a container with a pipeline per camera (per-camera: a
model each), on the HTP stand-in or yolo11n on the CPU. Per camera frames in /
processed / dropped and stamp-to-result p50/p95; per process CPU ms per camera-frame, RSS,
native memory, model sessions. JSON, a table and a PNG chart against N.`;

const WIDTH = 640;
const HEIGHT = 480;
const CAMERA_NAMES = ['front', 'rear', 'left', 'right', 'front_low', 'rear_low'] as const;
const NODE = 'cams_bench';
const MODES: readonly CamerasMode[] = ['shared', 'batched', 'per-camera'];
const BACKENDS: readonly CamerasBackend[] = ['htp-standin', 'cpu-yolo11n'];

interface Options {
  readonly counts: readonly number[];
  readonly seconds: number;
  readonly warmupS: number;
  readonly rate: number;
  readonly modes: readonly CamerasMode[];
  readonly backends: readonly CamerasBackend[];
  readonly batchWindowMs: number;
  readonly json: string | undefined;
  readonly png: string | undefined;
}

function listOf<T extends string>(raw: string | undefined, all: readonly T[], flag: string): T[] {
  if (raw === undefined) return [...all];
  const out = raw.split(',');
  for (const v of out) {
    if (!all.includes(v as T)) throw new Error(`${flag}: '${v}' is not one of ${all.join(', ')}`);
  }
  return out as T[];
}

function parseOptions(argv: readonly string[]): Options {
  const a = parseBenchArgs(argv);
  const flags = new BenchFlags(a.rest);
  const counts = (flags.value('--cameras') ?? '1,2,4,6').split(',').map(Number);
  for (const n of counts) {
    if (!Number.isInteger(n) || n < 1 || n > CAMERA_NAMES.length) {
      throw new Error(`--cameras: ${n} is not a count from 1 to ${CAMERA_NAMES.length}`);
    }
  }
  const warmupS = flags.int('--warmup-s', 5, 0);
  const rate = flags.int('--rate', 30, 1);
  const modes = listOf(flags.value('--modes'), MODES, '--modes');
  const backends = listOf(flags.value('--backends'), BACKENDS, '--backends');
  const batchWindowMs = flags.int('--batch-window-ms', 10, 0);
  const png = flags.value('--png');
  flags.finish();
  const seconds = a.seconds ?? 15;
  if (warmupS >= seconds) throw new Error('--warmup-s must be shorter than --seconds');
  return { counts, seconds, warmupS, rate, modes, backends, batchWindowMs, json: a.jsonPath, png };
}

/** Results of every camera as they arrive, and the latest diagnostics values per status. */
class Receiver {
  /** Per output topic: arrival stamp-to-result latencies (ms) and when each arrived. */
  private readonly results = new Map<string, { at: number; latencyMs: number }[]>();
  private readonly subscriptions: Rclnodejs.Subscription[] = [];
  readonly statuses = new Map<string, ReadonlyMap<string, string>>();

  constructor(private readonly node: Rclnodejs.Node) {
    node.createSubscription('diagnostic_msgs/msg/DiagnosticArray', '/diagnostics', (m) => {
      for (const s of (m as Rclnodejs.diagnostic_msgs.msg.DiagnosticArray).status) {
        this.statuses.set(s.hardware_id, new Map(s.values.map((kv) => [kv.key, kv.value])));
      }
    });
  }

  /** Listens to `topics` (raw, the header only: deserializing would cost this process, not ours). */
  watch(topics: readonly string[]): void {
    for (const s of this.subscriptions) this.node.destroySubscription(s);
    this.subscriptions.length = 0;
    this.results.clear();
    for (const topic of topics) {
      const got: { at: number; latencyMs: number }[] = [];
      this.results.set(topic, got);
      this.subscriptions.push(
        this.node.createSubscription(
          'vision_msgs/msg/Detection2DArray',
          topic,
          { isRaw: true },
          (m: unknown) => {
            const at = wallMs();
            got.push({ at, latencyMs: at - stampMs(readHeader(new CdrReader(m as Buffer)).stamp) });
          },
        ),
      );
    }
  }

  /** The results on `topic` that arrived at or after `from` (wall ms). */
  since(topic: string, from: number): { at: number; latencyMs: number }[] {
    return (this.results.get(topic) ?? []).filter((r) => r.at >= from);
  }

  publisherOf(topic: string, timeoutMs: number): Promise<void> {
    return waitForPublisher(this.node, topic, timeoutMs);
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function sessionParameters(backend: CamerasBackend, model: string): Record<string, string> {
  return backend === 'htp-standin'
    ? { model, precision: 'int8', threads: '1', tracking: 'true' }
    : { model, precision: 'fp32', threads: '2', tracking: 'true' };
}

/**
 * The batch-n model of `backend`: the stand-in built at batch n, or the batch-n copy of a copy of
 * yolo11n made by the user's own command (`model import --batch n`, which proves it per slot).
 */
function batchedModel(backend: CamerasBackend, n: number, tmp: string): string {
  if (backend === 'htp-standin') {
    return writeHtpStandin(
      packagePath('models', 'yolov8-fall', 'yolov8s-fall.manifest.json'),
      path.join(tmp, 'standins'),
      n,
    );
  }
  const dir = path.join(tmp, 'yolo11n');
  const manifest = path.join(dir, 'yolo11n.manifest.json');
  if (!fs.existsSync(manifest)) {
    fs.mkdirSync(dir, { recursive: true });
    for (const f of ['yolo11n.manifest.json', 'yolo11n.onnx', 'yolo11n.int8.qdq.onnx']) {
      fs.copyFileSync(packagePath('models', 'yolo11n', f), path.join(dir, f));
    }
  }
  const r = spawnSync(
    process.execPath,
    [
      packagePath('dist', 'src', 'cli', 'main.js'),
      'model',
      'import',
      manifest,
      '--batch',
      String(n),
      '--force',
    ],
    { encoding: 'utf8' },
  );
  if (r.status !== 0) throw new Error(`model import yolo11n --batch ${n}: ${r.stderr.trim()}`);
  return path.join(dir, `yolo11n-b${n}.manifest.json`);
}

/** A container with a pipeline `cams_<camera>` per camera, each its own model. */
function perCameraParams(
  cameras: readonly string[],
  params: Record<string, string>,
  dir: string,
): string {
  const inline = Object.entries(params)
    .map(([k, v]) => `${k}: ${/^[\w.-]+$/.test(v) ? v : JSON.stringify(v)}`)
    .join(', ');
  const lines = [
    'perception_container:',
    `  ros__parameters: {pipelines: [${cameras.map((c) => `cams_${c}`).join(', ')}]}`,
    ...cameras.flatMap((c) => [`cams_${c}:`, `  ros__parameters: {${inline}, cameras: [${c}]}`]),
    '',
  ];
  const file = path.join(dir, `per-camera-${cameras.length}.yaml`);
  fs.writeFileSync(file, lines.join('\n'));
  return file;
}

async function measure(
  backend: CamerasBackend,
  mode: CamerasMode,
  n: number,
  o: Options,
  frames: readonly string[],
  rx: Receiver,
  standin: string,
  tmp: string,
): Promise<ConfigMeasure> {
  const cameras = CAMERA_NAMES.slice(0, n);
  const model =
    mode === 'batched'
      ? batchedModel(backend, n, tmp)
      : backend === 'htp-standin'
        ? standin
        : 'yolo11n';
  const params = {
    ...sessionParameters(backend, model),
    ...(mode === 'batched' ? { batch_window_ms: String(o.batchWindowMs) } : {}),
  };
  const shared = mode !== 'per-camera';
  const proc = shared
    ? startBenchNode(NODE, '/cams_bench_unused', { ...params, cameras: `[${cameras.join(', ')}]` })
    : startBenchContainer(perCameraParams(cameras, params, tmp), '/cams_bench_unused');
  const pubs: LineProcess[] = [];
  try {
    const last = shared ? NODE : `cams_${cameras[cameras.length - 1]!}`;
    await proc.printed(new RegExp(`${last}\\]: model .*nodes by provider`), 180_000);
    const topic = (c: string) =>
      shared ? `/${NODE}/${c}/detections` : `/cams_${c}/${c}/detections`;
    const topics = cameras.map(topic);
    rx.watch(topics);
    for (const t of topics) await rx.publisherOf(t, 30_000);
    const rssLoadedMb = readProcessUsage(proc.pid).rssMb;
    cameras.forEach((c, i) => {
      // Each camera starts at another photo, so no two show the same frame at once.
      const mine = frames.map((_, k) => frames[(k + i * 3) % frames.length]!);
      pubs.push(startFramePublisher(`/${c}/image_raw`, WIDTH, HEIGHT, mine));
    });
    for (const p of pubs) await p.nextLine(/^ready$/, 60_000);
    const started = wallMs();
    for (const p of pubs) p.send(`rate ${o.rate} ${o.seconds}`);
    await sleep(o.warmupS * 1000);
    const windowFrom = wallMs();
    const cpu0 = readProcessUsage(proc.pid).cpuS;
    const sent = await Promise.all(
      pubs.map(async (p) =>
        Number((await p.nextLine(/^done (\d+) /, o.seconds * 1000 + 30_000))[1]),
      ),
    );
    const windowTo = wallMs();
    const end = readProcessUsage(proc.pid);
    const inWindow = topics.reduce(
      (t, topic) => t + rx.since(topic, windowFrom).filter((r) => r.at <= windowTo).length,
      0,
    );
    // The last frames' results are at most one round of inference behind, and a status of the
    // node published after the phase.
    await sleep(1500);
    const statusOf = (id: string) => rx.statuses.get(`/${id}`);
    const nodeIds = shared ? [NODE] : cameras.map((c) => `cams_${c}`);
    const memory = diagnosticsMemory(statusOf(nodeIds[0]!), nodeIds.map(statusOf));
    const sessions = nodeIds.reduce(
      (t, id) => t + Number(statusOf(id)?.get('model_sessions') ?? NaN),
      0,
    );
    const perCamera = cameras.map((c, i) => {
      const got = rx.since(topics[i]!, started);
      return {
        camera: c,
        sent: sent[i]!,
        processed: got.length,
        latencyMs: got.filter((r) => r.at >= windowFrom).map((r) => r.latencyMs),
      };
    });
    const m: ConfigMeasure = {
      backend,
      mode,
      cameras: perCamera,
      phaseS: (windowTo - started) / 1000,
      cpuMs: (end.cpuS - cpu0) * 1000,
      windowS: (windowTo - windowFrom) / 1000,
      resultsInWindow: inWindow,
      rssLoadedMb,
      rssEndMb: end.rssMb,
      nativeMb: memory.malloc_in_use_mb + memory.arena_reserved_mb,
      modelSessions: sessions,
      framesPerRun: Number(statusOf(nodeIds[0]!)?.get('frames_per_batched_run') || NaN),
    };
    process.stderr.write(
      `${backend} ${mode} N=${n}: ${perCamera.map((c) => `${c.camera} ${c.processed}/${c.sent}`).join(', ')}\n`,
    );
    return m;
  } finally {
    for (const p of pubs) p.send('quit');
    await Promise.all(pubs.map((p) => p.stop()));
    await proc.stop();
  }
}

function printRows(rows: readonly CamerasRow[]): void {
  console.log(
    formatTable(
      rows.map((r) => ({
        backend: r.backend,
        mode: r.mode,
        N: r.n,
        'in / processed / dropped': `${r.sent} / ${r.processed} / ${r.dropped}`,
        'processed Hz': r.processed_hz,
        'latency p50 / p95 ms': `${r.latency_ms_p50} / ${r.latency_ms_p95}`,
        'CPU ms / camera-frame': r.cpu_ms_per_camera_frame,
        'CPU % of a core': r.cpu_percent_of_one_core,
        'RSS loaded / end MB': `${r.rss_loaded_mb} / ${r.rss_end_mb}`,
        'native MB': r.native_mb,
        sessions: r.model_sessions,
        'frames / run': r.frames_per_run,
      })),
    ),
  );
}

async function writeChart(rows: readonly CamerasRow[], file: string): Promise<void> {
  const series = (value: (r: CamerasRow) => number) =>
    [...new Set(rows.map((r) => `${r.backend} ${r.mode}`))].map((label) => ({
      label,
      markers: true,
      points: rows
        .filter((r) => `${r.backend} ${r.mode}` === label)
        .map((r) => [r.n, value(r)] as const),
    }));
  const cpu = lineChartSvg(
    series((r) => r.cpu_ms_per_camera_frame),
    {
      title: `CPU per camera-frame against cameras (${os.cpus()[0]?.model ?? 'CPU'})`,
      xLabel: 'cameras',
      yLabel: 'ms per camera-frame',
    },
  );
  const rss = lineChartSvg(
    series((r) => r.rss_end_mb),
    {
      title: 'RSS of the process against cameras',
      xLabel: 'cameras',
      yLabel: 'MB',
    },
  );
  const [a, b] = await Promise.all([cpu, rss].map((s) => sharp(Buffer.from(s)).png().toBuffer()));
  const ma = await sharp(a!).metadata();
  const mb = await sharp(b!).metadata();
  await sharp({
    create: {
      width: Math.max(ma.width!, mb.width!),
      height: ma.height! + mb.height!,
      channels: 3,
      background: '#ffffff',
    },
  })
    .composite([
      { input: a!, top: 0, left: 0 },
      { input: b!, top: ma.height!, left: 0 },
    ])
    .png()
    .toFile(file);
  console.log(`wrote ${file}`);
}

async function main(): Promise<void> {
  if (printedHelp(process.argv.slice(2), USAGE)) return;
  const o = parseOptions(process.argv.slice(2));
  process.env.ROS_DOMAIN_ID = process.env.HTP_BENCH_DOMAIN_ID ?? String(100 + (process.pid % 100));
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'htp-cameras-'));
  const rcl = loadRclnodejs();
  try {
    const frames = await writeBenchFrames(
      packagePath('.cache', 'photos'),
      WIDTH,
      HEIGHT,
      path.join(tmp, 'frames'),
    );
    const standin = writeHtpStandin(
      packagePath('models', 'yolov8-fall', 'yolov8s-fall.manifest.json'),
      tmp,
    );
    await rcl.init();
    const node = new rcl.Node('cameras_bench_receiver');
    const rx = new Receiver(node);
    node.spin();
    const rows: CamerasRow[] = [];
    for (const backend of o.backends) {
      for (const mode of o.modes) {
        for (const n of o.counts) {
          // One camera has nothing to batch with: its row is shared's.
          if (mode === 'batched' && n < 2) continue;
          rows.push(camerasRow(await measure(backend, mode, n, o, frames, rx, standin, tmp)));
        }
      }
    }
    printRows(rows);
    const growth = camerasGrowth(rows);
    console.log(
      formatTable(
        growth.map((g) => ({
          backend: g.backend,
          mode: g.mode,
          'RSS loaded MB / added camera': g.rss_loaded_mb_per_added_camera,
          'RSS end MB / added camera': g.rss_end_mb_per_added_camera,
          'CPU per camera-frame vs first N': Object.entries(g.cpu_per_camera_frame_vs_first)
            .map(([n, v]) => `N=${n}: ${v}`)
            .join(', '),
        })),
      ),
    );
    const figures = {
      date: new Date().toISOString(),
      cpu: os.cpus()[0]?.model ?? 'unknown',
      cores: os.cpus().length,
      options: o,
      rows,
      growth,
    };
    if (o.json) writeBenchJson(o.json, figures);
    if (o.png) await writeChart(rows, o.png);
    node.destroy();
  } finally {
    if (rcl.isShutdown && !rcl.isShutdown()) rcl.shutdown();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

if (require.main === module) runMain(main);
