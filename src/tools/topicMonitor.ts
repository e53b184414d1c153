/**
 * topic_monitor <topic> [--seconds N] [--compressed]: receives an image topic through the raw
 * intake and prints rate, publish-to-receive latency and frame geometry, like `ros2 topic hz`
 * (which the wheel install lacks) plus the checks that matter for a camera stream.
 */
import { loadRclnodejs, runMain } from '../ros/rosEnvironment';
import { ImageIntake, IntakeFrame } from '../ros/imageIntake';
import { percentile } from '../util/percentile';
import { printedHelp } from '../util/commandHelp';
import { stampMs } from '../ros/rosHeader';

/** Printed by --help: this file's header. */
const USAGE = `usage: node dist/src/tools/topicMonitor.js <topic> [--seconds N] [--compressed]

topic_monitor <topic> [--seconds N] [--compressed]: receives an image topic through the raw
intake and prints rate, publish-to-receive latency and frame geometry, like \`ros2 topic hz\`
(which the wheel install lacks) plus the checks that matter for a camera stream.`;

async function main(): Promise<void> {
  if (printedHelp(process.argv.slice(2), USAGE)) return;
  const args = process.argv.slice(2);
  const topic = args.find((a) => !a.startsWith('--'));
  if (!topic || args.includes('--help')) {
    process.stdout.write('usage: topic_monitor <image topic> [--seconds N] [--compressed]\n');
    process.exit(topic ? 0 : 2);
  }
  const secIdx = args.indexOf('--seconds');
  const seconds = secIdx >= 0 ? Number(args[secIdx + 1]) : 10;
  const rcl = loadRclnodejs();
  await rcl.init();
  const node = new rcl.Node('topic_monitor');
  const frames: { at: number; latencyMs: number; desc: string }[] = [];
  const describe = (f: IntakeFrame): string =>
    f.kind === 'raw'
      ? `${f.frame.width}x${f.frame.height} ${f.frame.encoding}`
      : `${f.frame.format} ${f.frame.data.length} B`;
  const intake = new ImageIntake(
    rcl,
    node,
    { topic, transport: args.includes('--compressed') ? 'compressed' : 'raw', qos: 'sensor_data' },
    (f) => {
      const s = f.frame.header.stamp;
      frames.push({
        at: f.receivedAt,
        latencyMs: Date.now() - stampMs(s),
        desc: describe(f),
      });
    },
  );
  node.spin();
  await new Promise((r) => setTimeout(r, seconds * 1000));
  const span = frames.length > 1 ? (frames[frames.length - 1]!.at - frames[0]!.at) / 1000 : 0;
  const kinds = [...new Set(frames.map((f) => f.desc))];
  const lat = frames.map((f) => f.latencyMs);
  process.stdout.write(
    [
      `topic ${intake.topic}: ${frames.length} frames in ${seconds} s` +
        (span > 0 ? `, ${((frames.length - 1) / span).toFixed(1)} Hz` : ''),
      `latency from header stamp: p50 ${percentile(lat, 50).toFixed(1)} ms, p95 ${percentile(lat, 95).toFixed(1)} ms`,
      `frames: ${kinds.slice(0, 5).join(', ')}${kinds.length > 5 ? ', ...' : ''}`,
      `rejected: ${intake.counters.rejected} ${JSON.stringify(intake.counters.rejectedByCode)}`,
    ].join('\n') + '\n',
  );
  node.destroy();
  rcl.shutdown();
  process.exit(frames.length > 0 ? 0 : 1);
}

if (require.main === module) runMain(main);
