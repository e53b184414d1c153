/**
 * npm run bench:take [-- --frames 600 --json out.json]
 *
 * What the one-copy take saves (src/ros/directTake.ts): two receiver processes take the same
 * rclpy camera (640x480, then 1280x720 rgb8 at 30 Hz) at the same time, one with the one-copy take
 * and one with rmw's ordinary two copies (HTP_DIRECT_TAKE=0), each running ImageIntake and
 * nothing else. Receiving the same frames at the same moments, they see the same machine, which
 * back-to-back runs on a shared 2-core machine do not. Reports CPU per frame of each process and of
 * its main thread, after 30 frames of warm-up.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as readline from 'node:readline';
import { formatTable, packagePath, printedHelp, runMain } from '../../src/index';
import { BenchFlags, parseBenchArgs } from './benchArgs';
import { runImagePeer } from './imagePeerPublisher';
import type { TakeReceiverResult } from './takeReceiver';

const USAGE = `npm run bench:take [-- --frames 600 --json out.json]

Two receiver processes take the same rclpy camera (640x480, then 1280x720 rgb8 at 30 Hz) at the
same time, one with the one-copy take and one with rmw's two copies (HTP_DIRECT_TAKE=0), and
report CPU per frame of each process and of its main thread.`;

const RESOLUTIONS: readonly [number, number][] = [
  [640, 480],
  [1280, 720],
];
const RATE_HZ = 30;
const WARMUP = 30;
const RECEIVER = packagePath('dist', 'bench', 'src', 'takeReceiver.js');

interface Row {
  resolution: string;
  take: string;
  cpu_ms_per_frame: number;
  main_ms_per_frame: number;
}

/** A receiver child; resolves once it printed "ready", with its result to come. */
function startReceiver(
  topic: string,
  frames: number,
  directTake: boolean,
): Promise<{ result: Promise<TakeReceiverResult> }> {
  const child = spawn('node', [RECEIVER, topic, String(frames), String(WARMUP)], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, HTP_DIRECT_TAKE: directTake ? '1' : '0' },
  });
  const lines = readline.createInterface({ input: child.stdout });
  return new Promise((ready, failed) => {
    const result = new Promise<TakeReceiverResult>((resolve, reject) => {
      lines.on('line', (line) => {
        if (line === 'ready') ready({ result });
        else if (line.startsWith('{')) resolve(JSON.parse(line) as TakeReceiverResult);
      });
      child.on('exit', (code) => {
        const e = new Error(`take receiver exited with ${code} before its result`);
        reject(e);
        failed(e);
      });
    });
    result.catch(() => undefined);
  });
}

async function measure(width: number, height: number, frames: number): Promise<Row[]> {
  const topic = `/take_bench_${process.pid}_${width}x${height}`;
  const receivers = await Promise.all([
    startReceiver(topic, frames, true),
    startReceiver(topic, frames, false),
  ]);
  const seconds = (WARMUP + frames) / RATE_HZ + 3;
  const [published, ...results] = await Promise.all([
    runImagePeer(width, height, seconds, topic, RATE_HZ),
    ...receivers.map((r) => r.result),
  ]);
  process.stderr.write(`${width}x${height}: ${published.sent} frames at ${published.rate_hz} Hz\n`);
  return results.map((r) => ({
    resolution: `${width}x${height}`,
    take: r.take,
    cpu_ms_per_frame: round(r.cpuMsPerFrame),
    main_ms_per_frame: round(r.mainMsPerFrame),
  }));
}

async function main(): Promise<void> {
  if (printedHelp(process.argv.slice(2), USAGE)) return;
  const args = parseBenchArgs(process.argv.slice(2));
  const flags = new BenchFlags(args.rest);
  const frames = Number(flags.value('--frames') ?? 600);
  flags.finish();
  if (!Number.isInteger(frames) || frames <= 0)
    throw new Error('--frames needs a positive integer');
  const rows: Row[] = [];
  for (const [w, h] of RESOLUTIONS) rows.push(...(await measure(w, h, frames)));
  const machine = {
    cpu: os.cpus()[0]?.model ?? 'unknown CPU',
    cores: os.cpus().length,
    date: new Date().toISOString(),
  };
  process.stdout.write(`${machine.cpu}, ${machine.cores} cores, ${machine.date}\n`);
  process.stdout.write(formatTable(rows.map((r) => ({ ...r }))) + '\n');
  if (args.jsonPath) {
    fs.mkdirSync(path.dirname(path.resolve(args.jsonPath)), { recursive: true });
    const doc = { ...machine, frames, rows };
    fs.writeFileSync(args.jsonPath, JSON.stringify(doc, null, 2) + '\n');
    process.stdout.write(`wrote ${args.jsonPath}\n`);
  }
}

function round(v: number): number {
  return Math.round(v * 1000) / 1000;
}

if (require.main === module) runMain(main);
