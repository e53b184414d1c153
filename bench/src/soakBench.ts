/**
 * npm run bench:soak [-- --seconds 600 --warmup 60 --precision int8 --width 640 --height 480
 *                       --rate 30 --json out.json --png out.png]
 * npm run bench:soak -- --container [...]: the three-pipeline container, see containerSoak.ts.
 *
 * The detector as a robot runs it, for minutes: an rclpy camera stand-in
 * (tools/ros/frame_publisher.py) streams real photos as rgb8 at --rate Hz; the perception node
 * (yolov8s-fall, CPU provider, --precision) starts unconfigured, this process configures it and
 * activates it through its lifecycle services while frames are already flowing, then reads the
 * node's RSS and CPU time from /proc once a second for --seconds. It reports the time from the
 * activate request to the first detections received, RSS after one minute, and RSS growth from
 * the end of the warm-up to the last minute (medians over one-minute windows), as JSON and as a
 * PNG chart of RSS over time.
 */
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
} from '../../src/index';
import { BenchFlags, parseBenchArgs } from './benchArgs';
import { writeBenchFrames } from './e2eFrames';
import { lineChartSvg } from './lineChartSvg';
import { startBenchNode, startFramePublisher } from './benchProcesses';
import { readProcessUsage } from './processUsage';
import { SoakSample, SoakSummary, summarizeSoak } from './soakSummary';
import { CONTAINER_USAGE, containerSoakMain } from './containerSoak';
import { wallMs } from './graphTime';

/** Printed by --help: this file's header. */
const USAGE = `npm run bench:soak [-- --seconds 600 --warmup 60 --precision int8 --width 640 --height 480
                      --rate 30 --json out.json --png out.png]

The detector as a robot runs it, for minutes: an rclpy camera stand-in
(tools/ros/frame_publisher.py) streams real photos as rgb8 at --rate Hz; the perception node
(yolov8s-fall, CPU provider, --precision) starts unconfigured, this process configures it and
activates it through its lifecycle services while frames are already flowing, then reads the
node's RSS and CPU time from /proc once a second for --seconds. It reports the time from the
activate request to the first detections received, RSS after one minute, and RSS growth from
the end of the warm-up to the last minute (medians over one-minute windows), as JSON and as a
PNG chart of RSS over time.`;

const NODE = 'soak_det';
const TOPIC = '/soak_bench/image';
/** lifecycle_msgs/msg/Transition ids. */
const CONFIGURE = 1;
const ACTIVATE = 3;
/** The goals, drawn on the chart and printed beside the figures. */
const RSS_GOAL_MB = 250;
const GROWTH_GOAL_PCT = 5;
const FIRST_DETECTION_GOAL_MS = 1500;

interface Options {
  readonly seconds: number;
  readonly warmup: number;
  readonly precision: 'fp32' | 'int8';
  readonly width: number;
  readonly height: number;
  readonly rate: number;
  readonly jsonPath: string;
  readonly pngPath: string;
}

function parseOptions(argv: readonly string[]): Options {
  const a = parseBenchArgs(argv);
  const flags = new BenchFlags(a.rest);
  const precision = flags.value('--precision') ?? 'int8';
  if (precision !== 'fp32' && precision !== 'int8') {
    throw new Error(`--precision is fp32 or int8, not ${precision}`);
  }
  const o: Options = {
    seconds: a.seconds ?? 600,
    warmup: flags.int('--warmup', 60, 0),
    precision,
    width: flags.int('--width', 640, 16),
    height: flags.int('--height', 480, 16),
    rate: flags.int('--rate', 30, 1),
    jsonPath: a.jsonPath ?? packagePath('bench-results', 'soak.json'),
    pngPath: flags.value('--png') ?? packagePath('bench-results', 'soak.png'),
  };
  flags.finish();
  if (o.warmup >= o.seconds) throw new Error('--warmup must be shorter than --seconds');
  return o;
}

async function changeState(
  client: Rclnodejs.Client<'lifecycle_msgs/srv/ChangeState'>,
  id: number,
  label: string,
): Promise<void> {
  const r = await client.sendRequestAsync({ transition: { id, label: '' } }, { timeout: 120_000 });
  if (!r.success) throw new Error(`${NODE} refused to ${label}`);
}

/** What `--json` holds. */
interface SoakReport extends SoakSummary {
  readonly date: string;
  readonly cpu: string;
  readonly cores: number;
  readonly model: string;
  readonly provider: 'cpu';
  readonly precision: 'fp32' | 'int8';
  readonly resolution: string;
  readonly rate_hz: number;
  readonly seconds: number;
  readonly warmup_s: number;
  readonly configure_ms: number;
  readonly activate_reply_ms: number;
  readonly first_detection_ms_after_activate: number;
  readonly rss_mb_configured_idle: number;
  readonly detections_received: number;
  readonly goals: {
    readonly rss_mb_after_1min_max: number;
    readonly growth_pct_max: number;
    readonly first_detection_ms_max: number;
  };
  readonly samples: readonly SoakSample[];
}

async function soak(o: Options): Promise<SoakReport> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'htp-soak-'));
  const rcl = loadRclnodejs();
  await rcl.init();
  const bench = new rcl.Node('soak_bench');
  let received = 0;
  let firstAt: number | undefined;
  // Raw, header only: this process's own cost must not disturb the node it measures.
  bench.createSubscription(
    'vision_msgs/msg/Detection2DArray',
    `/${NODE}/detections`,
    { isRaw: true },
    (m: unknown) => {
      readHeader(new CdrReader(m as Buffer));
      firstAt ??= wallMs();
      received++;
    },
  );
  const lifecycle = bench.createClient(
    'lifecycle_msgs/srv/ChangeState',
    `/${NODE}/change_state`,
  ) as Rclnodejs.Client<'lifecycle_msgs/srv/ChangeState'>;
  bench.spin();
  const frames = await writeBenchFrames(packagePath('.cache', 'photos'), o.width, o.height, tmp);
  const node = startBenchNode(NODE, TOPIC, {
    precision: o.precision,
    autostart: 'false',
  });
  const cam = startFramePublisher(TOPIC, o.width, o.height, frames, { noWait: true });
  try {
    if (!(await lifecycle.waitForService(60_000))) {
      throw new Error(`no /${NODE}/change_state service:\n${node.log}`);
    }
    await cam.nextLine(/^ready$/, 60_000);
    // The camera streams from before configure to past the end; it is stopped, not drained.
    cam.send(`rate ${o.rate} ${o.seconds + 600}`);
    const configureStart = wallMs();
    await changeState(lifecycle, CONFIGURE, 'configure');
    const configureMs = wallMs() - configureStart;
    const idle = readProcessUsage(node.pid);
    const activateAt = wallMs();
    await changeState(lifecycle, ACTIVATE, 'activate');
    const activateReplyMs = wallMs() - activateAt;
    while (firstAt === undefined) {
      if (wallMs() - activateAt > 60_000) throw new Error(`no detections 60 s after activate`);
      await new Promise((r) => setTimeout(r, 5));
    }
    const firstDetectionMs = firstAt - activateAt;
    process.stderr.write(
      `configure ${configureMs.toFixed(0)} ms, first detection ${firstDetectionMs.toFixed(0)} ms after activate\n`,
    );
    const samples: SoakSample[] = [];
    let prev = readProcessUsage(node.pid);
    let prevAt = wallMs();
    let prevReceived = received;
    for (let k = 1; k <= o.seconds; k++) {
      // On a fixed schedule from activation, so a late wake-up does not shift later samples.
      await new Promise((r) => setTimeout(r, Math.max(0, activateAt + k * 1000 - wallMs())));
      const now = wallMs();
      const p = readProcessUsage(node.pid);
      const dt = (now - prevAt) / 1000;
      samples.push({
        t_s: Number(((now - activateAt) / 1000).toFixed(3)),
        rss_mb: Number(p.rssMb.toFixed(2)),
        cpu_percent: Number((((p.cpuS - prev.cpuS) / dt) * 100).toFixed(1)),
        detections_per_s: Number(((received - prevReceived) / dt).toFixed(2)),
      });
      prev = p;
      prevAt = now;
      prevReceived = received;
      if (k % 60 === 0) {
        process.stderr.write(`${k} s: RSS ${p.rssMb.toFixed(1)} MB, ${received} detections\n`);
      }
    }
    const summary = summarizeSoak(samples, o.warmup);
    return {
      date: new Date().toISOString(),
      cpu: os.cpus()[0]?.model ?? 'unknown',
      cores: os.cpus().length,
      model: 'yolov8s-fall',
      provider: 'cpu',
      precision: o.precision,
      resolution: `${o.width}x${o.height}`,
      rate_hz: o.rate,
      seconds: o.seconds,
      warmup_s: o.warmup,
      configure_ms: Number(configureMs.toFixed(1)),
      activate_reply_ms: Number(activateReplyMs.toFixed(1)),
      first_detection_ms_after_activate: Number(firstDetectionMs.toFixed(1)),
      rss_mb_configured_idle: Number(idle.rssMb.toFixed(2)),
      ...summary,
      detections_received: received,
      goals: {
        rss_mb_after_1min_max: RSS_GOAL_MB,
        growth_pct_max: GROWTH_GOAL_PCT,
        first_detection_ms_max: FIRST_DETECTION_GOAL_MS,
      },
      samples,
    };
  } finally {
    await cam.stop(5000);
    await node.stop();
    bench.destroy();
    rcl.shutdown();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (printedHelp(argv, `${USAGE}\n\n${CONTAINER_USAGE}`)) return;
  // A domain of its own, so the benchmark never meets other ROS 2 graphs on this machine.
  process.env.ROS_DOMAIN_ID = process.env.HTP_BENCH_DOMAIN_ID ?? String(100 + (process.pid % 100));
  if (argv.includes('--container')) return containerSoakMain(argv);
  const o = parseOptions(argv);
  const r = await soak(o);
  const verdict = (ok: boolean): string => (ok ? 'met' : 'NOT met');
  const rows = [
    {
      figure: 'first detection after activate (ms)',
      value: r.first_detection_ms_after_activate,
      goal: `<= ${FIRST_DETECTION_GOAL_MS}`,
      '': verdict(r.first_detection_ms_after_activate <= FIRST_DETECTION_GOAL_MS),
    },
    {
      figure: 'RSS after 1 min (MB)',
      value: r.rss_mb_after_1min,
      goal: `<= ${RSS_GOAL_MB}`,
      '': verdict(r.rss_mb_after_1min <= RSS_GOAL_MB),
    },
    {
      figure: `RSS growth after ${o.warmup} s warm-up (%)`,
      value: r.growth_pct,
      goal: `< ${GROWTH_GOAL_PCT}`,
      '': verdict(r.growth_pct < GROWTH_GOAL_PCT),
    },
    {
      figure: 'RSS end / peak (MB)',
      value: `${r.rss_mb_end} / ${r.rss_mb_peak}`,
      goal: '',
      '': '',
    },
    { figure: 'configure (ms)', value: r.configure_ms, goal: '', '': '' },
    { figure: 'detections/s (median)', value: r.detections_per_s_median, goal: '', '': '' },
    { figure: 'node CPU % of one core (median)', value: r.cpu_percent_median, goal: '', '': '' },
  ];
  process.stdout.write(
    `${r.precision} ${r.resolution} at ${o.rate} Hz for ${o.seconds} s, ${r.cpu}\n${formatTable(rows)}\n`,
  );
  fs.mkdirSync(path.dirname(path.resolve(o.jsonPath)), { recursive: true });
  fs.writeFileSync(o.jsonPath, `${JSON.stringify(r, null, 2)}\n`);
  const svg = lineChartSvg(
    [{ label: 'node RSS (MB)', points: r.samples.map((s) => [s.t_s, s.rss_mb] as const) }],
    {
      title: `perception node, yolov8s-fall ${r.precision} on the CPU, ${r.resolution} at ${o.rate} Hz`,
      xLabel: 'seconds since activate',
      yLabel: 'RSS (MB)',
      guides: [{ y: RSS_GOAL_MB, label: `goal ${RSS_GOAL_MB} MB` }],
      band: { from: 0, to: o.warmup, label: 'warm-up' },
    },
  );
  fs.mkdirSync(path.dirname(path.resolve(o.pngPath)), { recursive: true });
  await sharp(Buffer.from(svg)).png().toFile(o.pngPath);
  process.stdout.write(`wrote ${o.jsonPath} and ${o.pngPath}\n`);
}

if (require.main === module) runMain(main);
