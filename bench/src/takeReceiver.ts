/**
 * One receiver of `npm run bench:take`, run as a child process: ImageIntake on a topic (the take
 * it gets follows HTP_DIRECT_TAKE), nothing else. Prints "ready", then, after `warmup` frames and
 * `frames` more, one JSON line: its take and the process' and main thread's CPU per frame over
 * the measured frames.
 */
import { ImageIntake, loadRclnodejs, printedHelp, runMain } from '../../src/index';
import { readProcessUsage, readThreadCpu } from './processUsage';

const USAGE = `usage: node dist/bench/src/takeReceiver.js TOPIC FRAMES WARMUP

One receiver of npm run bench:take: ImageIntake on TOPIC (its take follows HTP_DIRECT_TAKE);
prints "ready", then after WARMUP and FRAMES more frames one JSON line with its CPU per frame.`;

export interface TakeReceiverResult {
  readonly take: string;
  readonly frames: number;
  readonly cpuMsPerFrame: number;
  readonly mainMsPerFrame: number;
}

async function main(): Promise<void> {
  if (printedHelp(process.argv.slice(2), USAGE)) return;
  const [topic, framesArg, warmupArg] = process.argv.slice(2);
  const frames = Number(framesArg);
  const warmup = Number(warmupArg);
  if (!topic || !(frames > 0) || !(warmup >= 0)) throw new Error(USAGE);
  const rcl = loadRclnodejs();
  await rcl.init();
  const node = rcl.createNode(`take_receiver_${process.pid}`);
  let received = 0;
  let start = { cpuS: 0, main: 0 };
  const cpuNow = (): { cpuS: number; main: number } => ({
    cpuS: readProcessUsage(process.pid).cpuS,
    main: readThreadCpu(process.pid).get('main') ?? 0,
  });
  const done = new Promise<TakeReceiverResult>((resolve) => {
    const intake = new ImageIntake(
      rcl,
      node,
      { topic, transport: 'raw', qos: 'sensor_data', qosCheckPeriodMs: 0 },
      () => {
        received++;
        if (received === warmup) start = cpuNow();
        if (received === warmup + frames) {
          const end = cpuNow();
          resolve({
            take: intake.counters.take,
            frames,
            cpuMsPerFrame: ((end.cpuS - start.cpuS) * 1000) / frames,
            mainMsPerFrame: ((end.main - start.main) * 1000) / frames,
          });
        }
      },
    );
  });
  node.spin(5);
  process.stdout.write('ready\n');
  process.stdout.write(`${JSON.stringify(await done)}\n`);
  node.destroy();
  rcl.shutdown();
}

if (require.main === module) runMain(main);
