/**
 * detection_monitor <detector node name> [--seconds N] [--save FILE]: watches a detector over
 * ROS 2 like an operator would: detections per second and per class (names from LabelInfo),
 * latency from the image stamp, and the annotated JPEG stream (the last frame saved to FILE).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadRclnodejs, runMain } from '../ros/rosEnvironment';
import { makeQos } from '../ros/qosProfile';
import { decodeCompressedImage } from '../ros/compressedImageCodec';
import { percentile } from '../util/percentile';

interface DetArray {
  header: { stamp: { sec: number; nanosec: number } };
  detections: { results: { hypothesis: { class_id: string; score: number } }[] }[];
}
interface Labels {
  class_map: { class_id: number; class_name: string }[];
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const name = args.find((a) => !a.startsWith('--')) ?? 'detector';
  const at = (f: string): string | undefined =>
    args.includes(f) ? args[args.indexOf(f) + 1] : undefined;
  const seconds = Number(at('--seconds') ?? 10);
  const save = at('--save');
  const rcl = loadRclnodejs();
  await rcl.init();
  const node = new rcl.Node('detection_monitor');
  const names = new Map<string, string>();
  const perClass = new Map<string, number>();
  const latencies: number[] = [];
  let messages = 0;
  let jpegs = 0;
  let lastJpeg: Uint8Array | undefined;
  const latched = makeQos(rcl, 'reliable', 1);
  latched.durability = rcl.QoS.DurabilityPolicy.RMW_QOS_POLICY_DURABILITY_TRANSIENT_LOCAL;
  node.createSubscription(
    'vision_msgs/msg/LabelInfo',
    `/${name}/labels`,
    { qos: latched },
    (m: unknown) => {
      for (const c of (m as Labels).class_map) names.set(String(c.class_id), c.class_name);
    },
  );
  node.createSubscription(
    'vision_msgs/msg/Detection2DArray',
    `/${name}/detections`,
    (m: unknown) => {
      const d = m as DetArray;
      messages++;
      latencies.push(Date.now() - (d.header.stamp.sec * 1000 + d.header.stamp.nanosec / 1e6));
      for (const det of d.detections) {
        const id = det.results[0]?.hypothesis.class_id ?? '?';
        perClass.set(id, (perClass.get(id) ?? 0) + 1);
      }
    },
  );
  node.createSubscription(
    'sensor_msgs/msg/CompressedImage',
    `/${name}/annotated/compressed`,
    { isRaw: true, qos: makeQos(rcl, 'sensor_data') },
    (buf: unknown) => {
      jpegs++;
      lastJpeg = Uint8Array.from(decodeCompressedImage(buf as Buffer).data);
    },
  );
  node.spin();
  await new Promise((r) => setTimeout(r, seconds * 1000));
  const classes = [...perClass.entries()]
    .map(([id, n]) => `${names.get(id) ?? id} ${n}`)
    .join(', ');
  process.stdout.write(
    [
      `/${name}/detections: ${messages} messages in ${seconds} s (${(messages / seconds).toFixed(1)} Hz)`,
      `detections per class: ${classes || 'none'}`,
      `latency from image stamp to detections: p50 ${latencies.length ? percentile(latencies, 50).toFixed(1) : '-'} ms`,
      `/${name}/annotated/compressed: ${jpegs} JPEG frames`,
    ].join('\n') + '\n',
  );
  if (save && lastJpeg) {
    fs.mkdirSync(path.dirname(path.resolve(save)), { recursive: true });
    fs.writeFileSync(save, lastJpeg);
    process.stdout.write(`last annotated frame saved to ${save}\n`);
  }
  node.destroy();
  rcl.shutdown();
  process.exit(messages > 0 ? 0 : 1);
}

if (require.main === module) runMain(main);
