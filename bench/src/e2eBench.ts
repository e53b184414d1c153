/**
 * npm run bench:e2e [-- --frames 300 --seconds 30 --warmup 10 --ultralytics-frames 100
 *                      --cpu-warmup-s 10
 *                      --rows 640x480:fp32,1280x720:int8,640x480:htp-standin
 *                      --json out.json --skip-ultralytics]
 *
 * What a robot gets from the detector end to end, next to what the model alone costs. Three real
 * ROS 2 processes over DDS: an rclpy camera stand-in (tools/ros/frame_publisher.py) publishes real
 * photos as rgb8 at 640x480 and 1280x720, the perception node (yolov8s-fall, CPU provider, FP32
 * then INT8) detects, and this process receives the detections. Per resolution and precision:
 *  - paced (--warmup, then --frames): one frame at a time, the next only once the detections of
 *    the previous one arrived, so nothing queues: e2e latency = image stamp -> detections
 *    received; the node's diagnostics right after give its per-stage p50s over the same frames
 *    (its window holds the last 300 frames: with the default --frames 300 exactly these, with
 *    fewer the warm-up frames as well);
 *  - 30 Hz (--seconds): detections received per second.
 * Then Ultralytics predict() (benchmark-only venv, made on first use) with the package's .pt and
 * with the same ONNX file, on the same photos, one image per call, with its own per-stage times.
 *
 * What only our node costs, in the same run:
 *  - the floor, per resolution: a bare rclnodejs node (floorProbe.ts) in the node's place, paced
 *    the same way, that receives the image raw and publishes a detections-sized message at once;
 *    every row reports floor_ms_p50 and overhead_above_floor_ms_p50 (overhead minus floor);
 *  - htp-standin rows: the node with a model of the detector's input and output that computes
 *    nothing and returns five people (htpStandinModel.ts), tracking on, so every stage but
 *    inference does its real work, as on the HTP; node_stages_ms_p50 (DDS callback -> publish
 *    returned) and node_cpu_ms_per_frame (the node process's user + system CPU over the 30 Hz
 *    phase per frame published) are on every row, and are the figures that matter on these; so
 *    are the node's minor page faults per frame over the same span and its RSS at the end.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type * as Rclnodejs from 'rclnodejs';
import {
  CdrReader,
  formatTable,
  loadRclnodejs,
  packagePath,
  percentile,
  printedHelp,
  readHeader,
  runMain,
  stampMs,
} from '../../src/index';
import { BenchFlags, parseBenchArgs } from './benchArgs';
import { writeBenchFrames } from './e2eFrames';
import {
  E2ePrecision,
  E2eRow,
  e2eRow,
  FloorRun,
  NODE_STAGES,
  NodeRun,
  NodeSpan,
  NodeStage,
  UltralyticsRun,
} from './e2eRows';
import {
  startBenchContainer,
  startBenchNode,
  startFloorProbe,
  startFramePublisher,
} from './benchProcesses';
import { writeHtpStandin, writeHtpStandinContainer } from './htpStandinModel';
import { LineProcess } from './lineProcess';
import { readProcessUsage, readThreadCpu, threadCpuDeltaMs } from './processUsage';
import { ensureUltralytics, runUltralytics } from './ultralyticsSide';
import { waitForPublisher, wallMs } from './graphTime';

/** Printed by --help: this file's header. */
const USAGE = `npm run bench:e2e [-- --frames 300 --seconds 30 --warmup 10 --ultralytics-frames 100
                     --cpu-warmup-s 10
                     --rows 640x480:fp32,1280x720:int8,640x480:htp-standin
                     --json out.json --skip-ultralytics]

What a robot gets from the detector end to end, next to what the model alone costs. Three real
ROS 2 processes over DDS: an rclpy camera stand-in (tools/ros/frame_publisher.py) publishes real
photos as rgb8 at 640x480 and 1280x720, the perception node (yolov8s-fall, CPU provider, FP32
then INT8) detects, and this process receives the detections. Per resolution and precision:
 - paced (--warmup, then --frames): one frame at a time, the next only once the detections of
   the previous one arrived, so nothing queues: e2e latency = image stamp -> detections
   received; the node's diagnostics right after give its per-stage p50s over the same frames
   (its window holds the last 300 frames: with the default --frames 300 exactly these, with
   fewer the warm-up frames as well);
 - 30 Hz (--seconds): detections received per second.
Then Ultralytics predict() (benchmark-only venv, made on first use) with the package's .pt and
with the same ONNX file, on the same photos, one image per call, with its own per-stage times.

What only our node costs, in the same run:
 - the floor, per resolution: a bare rclnodejs node (floorProbe.ts) in the node's place, paced
   the same way, that receives the image raw and publishes a detections-sized message at once;
   every row reports floor_ms_p50 and overhead_above_floor_ms_p50 (overhead minus floor);
 - htp-standin rows: the node with a model of the detector's input and output that computes
   nothing and returns five people (htpStandinModel.ts), tracking on, so every stage but
   inference does its real work, as on the HTP; node_stages_ms_p50 (DDS callback -> publish
   returned) and node_cpu_ms_per_frame (the node process's user + system CPU over the 30 Hz
   phase per frame published) are on every row, and are the figures that matter on these; so
   are the node's minor page faults per frame over the same span and its RSS at the end.`;

const NODE = 'e2e_bench_det';
const PROBE = 'e2e_floor_probe';
const TOPIC = '/e2e_bench/image';
const RESOLUTIONS: readonly [number, number][] = [
  [640, 480],
  [1280, 720],
];
const PRECISIONS: readonly E2ePrecision[] = [
  'fp32',
  'int8',
  'htp-standin',
  'htp-standin-container',
];
/** The container row runs at this resolution only. */
const CONTAINER_RESOLUTION = '640x480';
const NODE_SPANS: readonly NodeSpan[] = ['stamp_to_publish', 'callback_to_publish'];
const RATE_HZ = 30;
/** A paced frame whose detections have not come by then is counted lost (best-effort input). */
const PACED_TIMEOUT_MS = 5000;
const MODEL_DIR = packagePath('models', 'yolov8-fall');

interface Options {
  readonly frames: number;
  readonly seconds: number;
  readonly warmup: number;
  readonly ultralyticsFrames: number;
  /** Seconds of the 30 Hz phase before the node's CPU is read (0: the whole phase). */
  readonly cpuWarmupS: number;
  readonly skipUltralytics: boolean;
  /** Only these rows ("640x480:fp32", ...); all of them when absent. */
  readonly rows: readonly string[] | undefined;
  readonly jsonPath: string | undefined;
}

function parseOptions(argv: readonly string[]): Options {
  const a = parseBenchArgs(argv);
  const flags = new BenchFlags(a.rest);
  const frames = flags.int('--frames', 300, 1);
  const warmup = flags.int('--warmup', 10, 0);
  const ultralyticsFrames = flags.int('--ultralytics-frames', 100, 1);
  // V8 is still optimizing the per-frame code for the first seconds at 30 Hz, even after the
  // paced phase (a three-pipeline container: ~30 functions optimized in its first 10 s at 30 Hz,
  // 0.4-0.8 ms of CPU per frame that a node running for hours does not pay): the CPU is read
  // after it, over the last two thirds of the phase.
  const cpuWarmupS = flags.int('--cpu-warmup-s', 10, 0);
  const rows = flags.value('--rows')?.split(',');
  const skipUltralytics = flags.has('--skip-ultralytics');
  flags.finish();
  return {
    frames,
    seconds: a.seconds ?? 30,
    warmup,
    ultralyticsFrames,
    cpuWarmupS,
    skipUltralytics,
    rows,
    jsonPath: a.jsonPath,
  };
}

const stampKey = (s: { sec: number; nanosec: number }): string => `${s.sec}.${s.nanosec}`;

/** This process's view of the graph: detections as they arrive, the node's latest diagnostics. */
class Receiver {
  /** Arrival wall time of each detections message, by image stamp. */
  readonly arrivals = new Map<string, number>();
  /** The floor probe's messages, by image stamp: its publish time and their arrival. */
  readonly probeArrivals = new Map<string, { sentAt: number; at: number }>();
  received = 0;
  probeReceived = 0;
  private diagnostics = new Map<string, string>();
  private diagnosticsSeen = 0;
  private wake: (() => void) | undefined;

  constructor(private readonly node: Rclnodejs.Node) {
    // Raw, reading the header only: rclnodejs' conversion of a Detection2DArray into JS objects
    // costs this process about a millisecond per message, which belongs to no robot's pipeline
    // (a C++ or rclpy consumer deserializes in microseconds) yet would count as overhead.
    node.createSubscription(
      'vision_msgs/msg/Detection2DArray',
      `/${NODE}/detections`,
      { isRaw: true },
      (m: unknown) => {
        const at = wallMs();
        const header = readHeader(new CdrReader(m as Buffer));
        this.arrivals.set(stampKey(header.stamp), at);
        this.received++;
        this.wake?.();
      },
    );
    node.createSubscription(
      'vision_msgs/msg/Detection2DArray',
      `/${PROBE}/detections`,
      { isRaw: true },
      (m: unknown) => {
        const at = wallMs();
        // The probe stamps its publish time and names the image's stamp in frame_id.
        const header = readHeader(new CdrReader(m as Buffer));
        this.probeArrivals.set(header.frameId, { sentAt: stampMs(header.stamp), at });
        this.probeReceived++;
        this.wake?.();
      },
    );
    node.createSubscription('diagnostic_msgs/msg/DiagnosticArray', '/diagnostics', (m) => {
      for (const s of (m as Rclnodejs.diagnostic_msgs.msg.DiagnosticArray).status) {
        if (s.hardware_id.replace(/^\//, '') !== NODE) continue;
        this.diagnostics = new Map(s.values.map((kv) => [kv.key, kv.value]));
        this.diagnosticsSeen++;
        this.wake?.();
      }
    });
  }

  /**
   * Waits until a publisher of `topic` is known here (waitForPublisher): a paced frame whose
   * result went out before the writer met this reader would count in the node's stage window but
   * not in e2e.
   */
  publisherOf(topic: string, timeoutMs: number): Promise<void> {
    return waitForPublisher(this.node, topic, timeoutMs);
  }

  /** Waits for `check` to hold, re-checking whenever a message arrives; false on timeout. */
  async until(check: () => boolean, timeoutMs: number): Promise<boolean> {
    const until = Date.now() + timeoutMs;
    while (!check()) {
      const left = until - Date.now();
      if (left <= 0) return false;
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.wake = () => {
          clearTimeout(t);
          this.wake = undefined;
          resolve();
        };
      });
    }
    return true;
  }

  /**
   * Stage p50s from a diagnostics message published after everything before this call: the
   * second one from now (the first may have been computed just before the last frame).
   */
  async nodeP50(): Promise<Record<NodeStage | NodeSpan, number>> {
    const target = this.diagnosticsSeen + 2;
    if (!(await this.until(() => this.diagnosticsSeen >= target, 10_000))) {
      throw new Error(`no diagnostics from ${NODE} on /diagnostics`);
    }
    const out = {} as Record<NodeStage | NodeSpan, number>;
    for (const s of [...NODE_STAGES, ...NODE_SPANS]) {
      const v = Number(this.diagnostics.get(`${s}_ms_p50`));
      if (!Number.isFinite(v)) throw new Error(`${NODE} diagnostics carry no ${s}_ms_p50`);
      out[s] = v;
    }
    return out;
  }
}

/** One frame at a time: publish, wait for its detections, then the next. */
async function paced(
  cam: LineProcess,
  rx: Receiver,
  count: number,
): Promise<{ e2e: number[]; lost: number }> {
  const e2e: number[] = [];
  let lost = 0;
  for (let i = 0; i < count; i++) {
    cam.send('next');
    const [, sec, nsec] = await cam.nextLine(/^sent (\d+) (\d+)$/, 10_000);
    const stamp = { sec: Number(sec), nanosec: Number(nsec) };
    const key = stampKey(stamp);
    if (await rx.until(() => rx.arrivals.has(key), PACED_TIMEOUT_MS)) {
      e2e.push(rx.arrivals.get(key)! - stampMs(stamp));
    } else {
      lost++;
    }
    rx.arrivals.clear();
  }
  return { e2e, lost };
}

/**
 * The camera at 30 Hz for `seconds`. The node's CPU is read from /proc after `warmupS` (at most a
 * third of the phase; V8 still compiles the per-frame code in the first seconds of a stream) and
 * at its end, against the detections received in between: what a running node costs per frame.
 */
async function at30Hz(
  cam: LineProcess,
  rx: Receiver,
  seconds: number,
  nodePid: number,
  warmupS: number,
  /** Messages the measured process has published so far (the node's or the floor probe's). */
  published: () => number = () => rx.received,
): Promise<{
  sent: number;
  received: number;
  seconds: number;
  e2e: number[];
  cpuMs: number;
  cpuFrames: number;
  /** Where in the phase the CPU reading started and ended, s. */
  cpuWindowS: [number, number];
  threadCpuMs: Array<[string, number]>;
  /** The measured process's minor page faults over the same span as cpuMs. */
  minorFaults: number;
  /** Its RSS at the end of the phase, MB. */
  rssMb: number;
}> {
  rx.arrivals.clear();
  const before = published();
  cam.send(`rate ${RATE_HZ} ${seconds}`);
  const phaseStart = performance.now();
  const reading = (): {
    usage: ReturnType<typeof readProcessUsage>;
    threads: Map<string, number>;
    received: number;
    atS: number;
  } => ({
    usage: readProcessUsage(nodePid),
    threads: readThreadCpu(nodePid),
    received: published(),
    atS: (performance.now() - phaseStart) / 1000,
  });
  let warm = reading();
  const warmTimer = setTimeout(
    () => (warm = reading()),
    Math.min(warmupS * 1000, (seconds * 1000) / 3),
  );
  const [, sent, elapsed] = await cam.nextLine(/^done (\d+) ([\d.]+)$/, seconds * 1000 + 30_000);
  clearTimeout(warmTimer);
  const end = reading();
  // The last frame's detections are at most one inference behind.
  await new Promise((r) => setTimeout(r, 1000));
  const e2e = [...rx.arrivals.entries()].map(([k, at]) => {
    const [s, ns] = k.split('.').map(Number);
    return at - stampMs({ sec: s!, nanosec: ns! });
  });
  return {
    sent: Number(sent),
    received: published() - before,
    seconds: Number(elapsed),
    e2e,
    cpuMs: (end.usage.cpuS - warm.usage.cpuS) * 1000,
    cpuFrames: end.received - warm.received,
    cpuWindowS: [warm.atS, end.atS],
    threadCpuMs: threadCpuDeltaMs(warm.threads, end.threads),
    minorFaults: end.usage.minorFaults - warm.usage.minorFaults,
    rssMb: end.usage.rssMb,
  };
}

/**
 * The floor at one resolution: the bare probe in place of the perception node, paced the same
 * way (warm-up, then --frames), so the two differ only by what our node does.
 */
async function measureFloor(
  [w, h]: readonly [number, number],
  frames: readonly string[],
  rx: Receiver,
  o: Options,
): Promise<FloorRun> {
  const probe = startFloorProbe(PROBE, TOPIC);
  try {
    await probe.nextLine(/^ready$/, 60_000);
    const cam = startFramePublisher(TOPIC, w, h, frames);
    try {
      await cam.nextLine(/^ready$/, 60_000);
      await rx.publisherOf(`/${PROBE}/detections`, 30_000);
      const paced: { inMs: number[]; outMs: number[]; totalMs: number[] } = {
        inMs: [],
        outMs: [],
        totalMs: [],
      };
      for (let i = 0; i < o.warmup + o.frames; i++) {
        cam.send('next');
        const [, sec, nsec] = await cam.nextLine(/^sent (\d+) (\d+)$/, 10_000);
        const stamp = { sec: Number(sec), nanosec: Number(nsec) };
        const key = stampKey(stamp);
        if (!(await rx.until(() => rx.probeArrivals.has(key), PACED_TIMEOUT_MS))) continue;
        const got = rx.probeArrivals.get(key)!;
        rx.probeArrivals.clear();
        if (i < o.warmup) continue;
        paced.inMs.push(got.sentAt - stampMs(stamp));
        paced.outMs.push(got.at - got.sentAt);
        paced.totalMs.push(got.at - stampMs(stamp));
      }
      // What the bare node's process spends per frame at 30 Hz, measured as for the rows.
      const rate = await at30Hz(
        cam,
        rx,
        o.seconds,
        probe.pid,
        o.cpuWarmupS,
        () => rx.probeReceived,
      );
      const floor: FloorRun = {
        ...paced,
        cpuMs: rate.cpuMs,
        cpuFrames: rate.cpuFrames,
        cpuWindowS: rate.cpuWindowS,
        threadCpuMs: rate.threadCpuMs,
      };
      cam.send('quit');
      process.stderr.write(
        `${w}x${h} floor: ${floor.totalMs.length} frames, p50 ${percentile(floor.totalMs, 50).toFixed(2)} ms (in ${percentile(floor.inMs, 50).toFixed(2)}, out ${percentile(floor.outMs, 50).toFixed(2)}); CPU ${(floor.cpuMs / Math.max(1, floor.cpuFrames)).toFixed(2)} ms per frame at 30 Hz\n`,
      );
      return floor;
    } finally {
      await cam.stop(5000);
    }
  } finally {
    await probe.stop(5000);
  }
}

/** Node parameters per row kind: the real detector, or the HTP stand-in with tracking on. */
function rowParameters(precision: E2ePrecision, standinManifest: string): Record<string, string> {
  // The fall detector, as the Ultralytics side runs its best.pt (the same weights): not the
  // nodes' default model.
  if (precision !== 'htp-standin') {
    return { precision, model: path.join(MODEL_DIR, 'yolov8s-fall.manifest.json') };
  }
  // Tracking on: ByteTrack's work is part of what a robot's node does per frame.
  return { model: standinManifest, precision: 'int8', tracking: 'true', threads: '1' };
}

/**
 * One node process per resolution and precision: its stage window (the last 300 frames) then
 * holds this row's paced frames only, never the previous row's.
 */
async function measureNode(
  precision: E2ePrecision,
  [w, h]: readonly [number, number],
  frames: readonly string[],
  rx: Receiver,
  o: Options,
  standin: { readonly manifest: string; readonly container: string },
): Promise<NodeRun> {
  const loadAvg = os.loadavg()[0]!;
  const container = precision === 'htp-standin-container';
  const node = container
    ? startBenchContainer(standin.container, TOPIC)
    : startBenchNode(NODE, TOPIC, rowParameters(precision, standin.manifest));
  try {
    // The container configures its pipelines in order: the last one's report means all are up.
    await node.printed(
      container ? /e2e_bench_seg\]: model .*nodes by provider/ : /nodes by provider/,
      120_000,
    );
    const cam = startFramePublisher(TOPIC, w, h, frames);
    try {
      await cam.nextLine(/^ready$/, 60_000);
      await rx.publisherOf(`/${NODE}/detections`, 30_000);
      // Paced first: the node's stage window then holds only paced frames (the warm-up ones
      // too, until --frames fills it), and the 30 Hz phase's queueing cannot leak into it.
      await paced(cam, rx, o.warmup);
      const p = await paced(cam, rx, o.frames);
      const nodeP50 = await rx.nodeP50();
      const rate = await at30Hz(cam, rx, o.seconds, node.pid, o.cpuWarmupS);
      process.stderr.write(
        `${w}x${h} ${precision}: paced ${p.e2e.length} (lost ${p.lost}), e2e p50 ${percentile(p.e2e, 50).toFixed(2)} ms, inference p50 ${nodeP50.inference} ms; 30 Hz: ${rate.received}/${rate.sent}\n`,
      );
      cam.send('quit');
      return {
        width: w,
        height: h,
        precision,
        pacedE2eMs: p.e2e,
        pacedLost: p.lost,
        rateSent: rate.sent,
        rateReceived: rate.received,
        rateSeconds: rate.seconds,
        rateE2eMs: rate.e2e,
        nodeP50,
        rateCpuMs: rate.cpuMs,
        rateCpuFrames: rate.cpuFrames,
        rateCpuWindowS: rate.cpuWindowS,
        rateThreadCpuMs: rate.threadCpuMs,
        rateMinorFaults: rate.minorFaults,
        rssMb: rate.rssMb,
        loadAvg,
      };
    } finally {
      await cam.stop(5000);
    }
  } finally {
    await node.stop();
  }
}

function printTables(rows: readonly E2eRow[]): void {
  const main = rows.map((r) => ({
    resolution: r.resolution,
    precision: r.precision,
    'e2e p50/p95 ms': `${r.e2e_ms_p50.toFixed(2)} / ${r.e2e_ms_p95.toFixed(2)}`,
    'engine p50 ms': r.engine_ms_p50,
    'overhead p50 ms': r.overhead_ms_p50,
    'overhead/engine': r.overhead_ratio,
    'floor p50 ms': r.floor_ms_p50 ?? '-',
    'over floor ms': r.overhead_above_floor_ms_p50 ?? '-',
    'node stages p50 ms': r.node_stages_ms_p50,
    'node CPU ms/frame': r.node_cpu_ms_per_frame ?? '-',
    'node faults/frame': r.node_minor_faults_per_frame ?? '-',
    'node RSS MB': r.node_rss_mb,
    'floor CPU ms/frame': r.floor_cpu_ms_per_frame ?? '-',
    'fps @30 Hz': r.fps_30hz,
    'Ultralytics .pt p50 ms': r.ultralytics_pt_ms_p50 ?? '-',
    'Ultralytics ONNX p50 ms': r.ultralytics_onnx_ms_p50 ?? '-',
  }));
  process.stdout.write(`${formatTable(main)}\n\nnode stages, p50 ms (paced frames)\n`);
  const stages = rows.map((r) => ({
    row: `${r.resolution} ${r.precision}`,
    ...r.stages_ms_p50,
    'rest (dds out)': r.dds_out_ms_p50,
  }));
  process.stdout.write(`${formatTable(stages)}\n`);
  const top = (byThread: Readonly<Record<string, number>>): string =>
    Object.entries(byThread)
      .slice(0, 6)
      .map(([n, ms]) => `${n} ${ms}`)
      .join(', ');
  const threads = rows
    .filter((r) => Object.keys(r.node_cpu_ms_per_frame_by_thread).length > 0)
    .map((r) => ({
      row: `${r.resolution} ${r.precision}`,
      'node CPU ms/frame by thread (30 Hz)': top(r.node_cpu_ms_per_frame_by_thread),
      'floor CPU ms/frame by thread': top(r.floor_cpu_ms_per_frame_by_thread),
    }));
  if (threads.length > 0) process.stdout.write(`\n${formatTable(threads)}\n`);
  const u = rows.flatMap((r) =>
    (
      [
        ['.pt', r.ultralytics_pt_stages_ms_p50],
        ['ONNX', r.ultralytics_onnx_stages_ms_p50],
      ] as const
    )
      .filter(([, f]) => f !== null)
      .map(([kind, f]) => ({
        row: `${r.resolution} ${r.precision}`,
        ultralytics: kind,
        'predict() p50': f!.total_ms_p50,
        preprocess: f!.preprocess_ms_p50,
        inference: f!.inference_ms_p50,
        postprocess: f!.postprocess_ms_p50,
      })),
  );
  if (u.length > 0) {
    process.stdout.write(`\nUltralytics predict(), p50 ms (its own speed per stage)\n`);
    process.stdout.write(`${formatTable(u)}\n`);
  }
}

async function main(): Promise<void> {
  if (printedHelp(process.argv.slice(2), USAGE)) return;
  const o = parseOptions(process.argv.slice(2));
  // A domain of its own, so the benchmark never meets other ROS 2 graphs on this machine.
  process.env.ROS_DOMAIN_ID = process.env.HTP_BENCH_DOMAIN_ID ?? String(100 + (process.pid % 100));
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'htp-e2e-'));
  try {
    const frames = new Map<string, string[]>();
    for (const [w, h] of RESOLUTIONS) {
      frames.set(
        `${w}x${h}`,
        await writeBenchFrames(packagePath('.cache', 'photos'), w, h, path.join(tmp, `${w}x${h}`)),
      );
    }
    const rcl = loadRclnodejs();
    await rcl.init();
    const node = new rcl.Node('e2e_bench_receiver');
    const rx = new Receiver(node);
    node.spin();
    const standin = {
      manifest: writeHtpStandin(path.join(MODEL_DIR, 'yolov8s-fall.manifest.json'), tmp),
      container: writeHtpStandinContainer(
        {
          detector: path.join(MODEL_DIR, 'yolov8s-fall.manifest.json'),
          pose: packagePath('models', 'hrnet', 'hrnet-w32-256x192.manifest.json'),
          segmentation: packagePath(
            'models',
            'deeplabv3',
            'deeplabv3-mobilenetv3-large-520.manifest.json',
          ),
        },
        tmp,
        'e2e_bench',
      ),
    };
    const wanted = (res: string, precision: E2ePrecision): boolean =>
      (precision !== 'htp-standin-container' || res === CONTAINER_RESOLUTION) &&
      (!o.rows || o.rows.includes(`${res}:${precision}`));
    const floors = new Map<string, FloorRun>();
    for (const [w, h] of RESOLUTIONS) {
      const res = `${w}x${h}`;
      if (!PRECISIONS.some((p) => wanted(res, p))) continue;
      floors.set(res, await measureFloor([w, h], frames.get(res)!, rx, o));
    }
    const runs: NodeRun[] = [];
    for (const precision of PRECISIONS) {
      for (const [w, h] of RESOLUTIONS) {
        if (!wanted(`${w}x${h}`, precision)) continue;
        runs.push(await measureNode(precision, [w, h], frames.get(`${w}x${h}`)!, rx, o, standin));
      }
    }
    node.destroy();
    rcl.shutdown();

    const ultra = new Map<string, UltralyticsRun>();
    if (!o.skipUltralytics) {
      const setup = ensureUltralytics();
      const models: [string, string][] = [
        ['pt', setup.pt],
        ['fp32', path.join(MODEL_DIR, 'yolov8s-fall.onnx')],
        ['int8', path.join(MODEL_DIR, 'yolov8s-fall.int8.qdq.onnx')],
      ];
      for (const [w, h] of RESOLUTIONS) {
        for (const [kind, file] of models) {
          const r = runUltralytics(
            setup,
            file,
            w,
            h,
            frames.get(`${w}x${h}`)!,
            o.ultralyticsFrames,
            3,
          );
          ultra.set(`${w}x${h} ${kind}`, r);
          process.stderr.write(
            `${w}x${h} Ultralytics ${path.basename(file)}: predict() p50 ${percentile(r.total_ms, 50).toFixed(2)} ms\n`,
          );
        }
      }
    }
    const rows = runs.map((r) => {
      const res = `${r.width}x${r.height}`;
      const real = !r.precision.startsWith('htp-standin');
      return e2eRow(
        r,
        real ? ultra.get(`${res} pt`) : undefined,
        real ? ultra.get(`${res} ${r.precision}`) : undefined,
        floors.get(res),
      );
    });
    printTables(rows);
    if (o.jsonPath) {
      fs.mkdirSync(path.dirname(path.resolve(o.jsonPath)), { recursive: true });
      fs.writeFileSync(o.jsonPath, `${JSON.stringify(rows, null, 2)}\n`);
      process.stdout.write(`wrote ${o.jsonPath}\n`);
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

if (require.main === module) runMain(main);
