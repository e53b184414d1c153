/**
 * npm run bench:transport [-- --seconds 10 --json out.json]
 *
 * A separate rclpy process publishes rgb8 images at 30 Hz; this process receives them first through
 * rclnodejs' default deserializing subscription, then through our raw intake, one after the other
 * in the same run, and reports the rate each kept up with and the publish-to-receive latency.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type * as Rclnodejs from 'rclnodejs';
import {
  ImageIntake,
  formatTable,
  loadRclnodejs,
  makeQos,
  percentile,
  printedHelp,
  runMain,
  stampMs,
} from '../../src/index';
import { parseBenchArgs } from './benchArgs';
import { runImagePeer } from './imagePeerPublisher';

/** Printed by --help: this file's header. */
const USAGE = `npm run bench:transport [-- --seconds 10 --json out.json]

A separate rclpy process publishes rgb8 images at 30 Hz; this process receives them first through
rclnodejs' default deserializing subscription, then through our raw intake, one after the other
in the same run, and reports the rate each kept up with and the publish-to-receive latency.`;

const RESOLUTIONS: readonly [number, number][] = [
  [640, 480],
  [1280, 720],
];
const RATE_HZ = 30;

interface PhaseResult {
  publishedHz: number;
  receivedHz: number;
  received: number;
  sent: number;
  latencyMsP50: number;
  latencyMsP95: number;
  /** CPU time this process spent per received frame (main thread and DDS threads), in ms. */
  cpuMsPerFrame: number;
}

interface Entry {
  resolution: string;
  published_hz: number;
  default_hz: number;
  raw_hz: number;
  default_latency_ms_p50: number;
  raw_latency_ms_p50: number;
  default_latency_ms_p95: number;
  raw_latency_ms_p95: number;
  default_cpu_ms_per_frame: number;
  raw_cpu_ms_per_frame: number;
  seconds: number;
}

async function phase(
  rcl: typeof Rclnodejs,
  node: Rclnodejs.Node,
  mode: 'default' | 'raw',
  width: number,
  height: number,
  seconds: number,
): Promise<PhaseResult> {
  const topic = `bench_${mode}_${width}x${height}`;
  const latencies: number[] = [];
  let bytes = 0;
  let cleanup: () => void;
  if (mode === 'default') {
    const sub = node.createSubscription(
      'sensor_msgs/msg/Image',
      topic,
      { qos: makeQos(rcl, 'sensor_data') },
      (msg: unknown) => {
        const m = msg as unknown as {
          header: { stamp: { sec: number; nanosec: number } };
          data: ArrayLike<number>;
        };
        bytes += m.data.length;
        latencies.push(Date.now() - stampMs(m.header.stamp));
      },
    );
    cleanup = () => node.destroySubscription(sub);
  } else {
    const intake = new ImageIntake(
      rcl,
      node,
      { topic, transport: 'raw', qos: 'sensor_data', qosCheckPeriodMs: 0 },
      (f) => {
        bytes += f.frame.data.length;
        latencies.push(Date.now() - stampMs(f.frame.header.stamp));
      },
    );
    cleanup = () => intake.destroy();
  }
  const cpuBefore = process.cpuUsage();
  const pub = await runImagePeer(width, height, seconds, topic, RATE_HZ);
  await new Promise((r) => setTimeout(r, 300));
  cleanup();
  const cpu = process.cpuUsage(cpuBefore);
  if (bytes === 0) throw new Error(`${mode} subscription received nothing on ${topic}`);
  const window = pub.sent / pub.rate_hz;
  return {
    publishedHz: pub.rate_hz,
    receivedHz: latencies.length / window,
    received: latencies.length,
    sent: pub.sent,
    latencyMsP50: percentile(latencies, 50),
    latencyMsP95: percentile(latencies, 95),
    cpuMsPerFrame: (cpu.user + cpu.system) / 1000 / latencies.length,
  };
}

async function main(): Promise<void> {
  if (printedHelp(process.argv.slice(2), USAGE)) return;
  const args = parseBenchArgs(process.argv.slice(2));
  const seconds = args.seconds ?? 10;
  const rcl = loadRclnodejs();
  await rcl.init();
  const node = new rcl.Node('transport_bench');
  node.spin();
  const entries: Entry[] = [];
  for (const [w, h] of RESOLUTIONS) {
    const d = await phase(rcl, node, 'default', w, h, seconds);
    const r = await phase(rcl, node, 'raw', w, h, seconds);
    entries.push({
      resolution: `${w}x${h}`,
      published_hz: round(Math.min(d.publishedHz, r.publishedHz)),
      default_hz: round(d.receivedHz),
      raw_hz: round(r.receivedHz),
      default_latency_ms_p50: round(d.latencyMsP50),
      raw_latency_ms_p50: round(r.latencyMsP50),
      default_latency_ms_p95: round(d.latencyMsP95),
      raw_latency_ms_p95: round(r.latencyMsP95),
      default_cpu_ms_per_frame: round(d.cpuMsPerFrame),
      raw_cpu_ms_per_frame: round(r.cpuMsPerFrame),
      seconds,
    });
    process.stderr.write(
      `${w}x${h}: default ${d.received}/${d.sent}, raw ${r.received}/${r.sent}\n`,
    );
  }
  process.stdout.write(formatTable(entries.map((e) => ({ ...e }))) + '\n');
  if (args.jsonPath) {
    fs.mkdirSync(path.dirname(path.resolve(args.jsonPath)), { recursive: true });
    fs.writeFileSync(args.jsonPath, JSON.stringify(entries, null, 2) + '\n');
    process.stdout.write(`wrote ${args.jsonPath}\n`);
  }
  node.destroy();
  rcl.shutdown();
}

function round(v: number): number {
  return Math.round(v * 100) / 100;
}

if (require.main === module) runMain(main);
