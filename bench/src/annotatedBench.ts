/**
 * npm run bench:annotated [-- --seconds 20 --rate 5 --json out.json]
 *
 * What the teleop stream costs the detections. A perception node (yolov8s-fall on the CPU) and an
 * image source run as their own processes; this process receives ~/detections and measures the
 * latency from each image's stamp to the arrival of its detections, first with nobody watching the
 * annotated stream, then while it also subscribes to ~/annotated/compressed (badge, JPEG, default
 * bounds). Same node, same camera; the two phases alternate twice (no, yes, no, yes) so a change
 * of load on the machine falls on both, and each row pools its two windows.
 */
import { ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type * as Rclnodejs from 'rclnodejs';
import {
  decodeCompressedImage,
  formatTable,
  loadRclnodejs,
  packagePath,
  percentile,
  printedHelp,
  runMain,
  stampMs,
} from '../../src/index';
import { parseBenchArgs } from './benchArgs';

/** Printed by --help: this file's header. */
const USAGE = `npm run bench:annotated [-- --seconds 20 --rate 5 --json out.json]

What the teleop stream costs the detections. A perception node (yolov8s-fall on the CPU) and an
image source run as their own processes; this process receives ~/detections and measures the
latency from each image's stamp to the arrival of its detections, first with nobody watching the
annotated stream, then while it also subscribes to ~/annotated/compressed (badge, JPEG, default
bounds). Same node, same camera; the two phases alternate twice (no, yes, no, yes) so a change
of load on the machine falls on both, and each row pools its two windows.`;

const NODE = 'annotated_bench_det';

interface Phase {
  /** 'no' or 'yes': whether ~/annotated/compressed had a subscriber. */
  readonly compressed_subscriber: string;
  readonly camera_hz: number;
  readonly detections_hz: number;
  readonly detection_latency_ms_p50: number;
  readonly detection_latency_ms_p95: number;
  readonly annotated_hz: number;
  readonly jpeg_kb_mean: number;
  readonly seconds: number;
}

function start(script: string, args: string[]): { child: ChildProcess; output: () => string } {
  const child = spawn(
    'node',
    [packagePath('dist', 'src', 'nodes', script), '--ros-args', ...args],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  return { child, output: () => out };
}

async function waitFor(p: { output: () => string }, pattern: RegExp, ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (!pattern.test(p.output())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${pattern}:\n${p.output()}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

interface Samples {
  readonly latencies: number[];
  readonly jpegBytes: number[];
  seconds: number;
}

async function phase(
  node: Rclnodejs.Node,
  watchCompressed: boolean,
  seconds: number,
  into: Samples,
): Promise<void> {
  const latencies: number[] = [];
  const jpegBytes: number[] = [];
  const dets = node.createSubscription(
    'vision_msgs/msg/Detection2DArray',
    `/${NODE}/detections`,
    (m) => {
      const d = m as Rclnodejs.vision_msgs.msg.Detection2DArray;
      latencies.push(Date.now() - stampMs(d.header.stamp));
    },
  );
  const jpeg = watchCompressed
    ? node.createSubscription(
        'sensor_msgs/msg/CompressedImage',
        `/${NODE}/annotated/compressed`,
        { isRaw: true },
        (buf: unknown) => jpegBytes.push(decodeCompressedImage(buf as Buffer).data.length),
      )
    : undefined;
  // Discovery and the first picture settle before the window opens.
  await new Promise((r) => setTimeout(r, 2000));
  latencies.length = 0;
  jpegBytes.length = 0;
  await new Promise((r) => setTimeout(r, seconds * 1000));
  node.destroySubscription(dets);
  if (jpeg) node.destroySubscription(jpeg);
  if (latencies.length === 0) throw new Error(`no detections from ${NODE} in ${seconds} s`);
  if (watchCompressed && jpegBytes.length === 0) {
    throw new Error('no annotated JPEG while subscribed');
  }
  into.latencies.push(...latencies);
  into.jpegBytes.push(...jpegBytes);
  into.seconds += seconds;
}

function summary(watchCompressed: boolean, s: Samples, cameraHz: number): Phase {
  const { latencies, jpegBytes, seconds } = s;
  const n = latencies.length;
  const pictures = jpegBytes.length;
  const round = (v: number): number => Math.round(v * 100) / 100;
  return {
    compressed_subscriber: watchCompressed ? 'yes' : 'no',
    camera_hz: cameraHz,
    detections_hz: round(n / seconds),
    detection_latency_ms_p50: round(percentile(latencies, 50)),
    detection_latency_ms_p95: round(percentile(latencies, 95)),
    annotated_hz: round(pictures / seconds),
    jpeg_kb_mean: round(pictures ? jpegBytes.reduce((a, b) => a + b, 0) / pictures / 1024 : 0),
    seconds,
  };
}

async function main(): Promise<void> {
  if (printedHelp(process.argv.slice(2), USAGE)) return;
  const args = parseBenchArgs(process.argv.slice(2));
  const seconds = args.seconds ?? 20;
  const rateAt = args.rest.indexOf('--rate');
  const cameraHz = rateAt >= 0 ? Number(args.rest[rateAt + 1]) : 5;
  if (!(cameraHz > 0)) throw new Error('--rate needs a positive number of frames per second');
  // A domain of its own, so the benchmark never meets other ROS 2 graphs on this machine.
  process.env.ROS_DOMAIN_ID = process.env.HTP_BENCH_DOMAIN_ID ?? '79';
  const rcl = loadRclnodejs();
  await rcl.init();
  const node = new rcl.Node('annotated_bench');
  node.spin();
  const det = start('perceptionNode.js', [
    '-r',
    `__node:=${NODE}`,
    '-p',
    'threads:=1',
    '-p',
    'model:=yolov8s-fall',
  ]);
  const cam = start('imageSourceNode.js', [
    '-r',
    '__node:=annotated_bench_camera',
    '-p',
    `rate_hz:=${cameraHz.toFixed(1)}`,
  ]);
  try {
    await waitFor(det, /nodes by provider/, 120_000);
    const without: Samples = { latencies: [], jpegBytes: [], seconds: 0 };
    const watched: Samples = { latencies: [], jpegBytes: [], seconds: 0 };
    for (let round = 0; round < 2; round++) {
      await phase(node, false, seconds / 2, without);
      await phase(node, true, seconds / 2, watched);
    }
    const phases = [summary(false, without, cameraHz), summary(true, watched, cameraHz)];
    process.stdout.write(formatTable(phases.map((p) => ({ ...p }))) + '\n');
    if (args.jsonPath) {
      fs.mkdirSync(path.dirname(path.resolve(args.jsonPath)), { recursive: true });
      fs.writeFileSync(args.jsonPath, JSON.stringify(phases, null, 2) + '\n');
      process.stdout.write(`wrote ${args.jsonPath}\n`);
    }
  } finally {
    for (const p of [cam, det]) p.child.kill('SIGINT');
    node.destroy();
    rcl.shutdown();
  }
}

if (require.main === module) runMain(main);
