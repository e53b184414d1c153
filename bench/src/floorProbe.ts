/**
 * node dist/bench/src/floorProbe.js --topic IMAGE_TOPIC [--name NODE]
 *
 * The floor of `npm run bench:e2e`: the cheapest node rclnodejs allows that does what the
 * perception node does at its edges. It takes the camera topic raw (sensor-data QoS, as the
 * perception node does), reads only the header, and publishes at once a detections-sized
 * vision_msgs/Detection2DArray (five detections, our own CDR, as the perception node publishes
 * them) on `/<name>/detections` (reliable, keep last 5, as our outputs are). Its header stamp is
 * the probe's wall clock at publish and its frame_id the image stamp ("SEC.NANOSEC"), so the
 * benchmark's receiver splits image stamp -> arrival into the way in (stamp -> our callback,
 * plus a header read and five detections' encoding) and the hop out. What the perception node
 * adds above this is what only our node costs.
 */
import {
  CdrReader,
  detection2DArray,
  encodeDetection2DArray,
  loadRclnodejs,
  makeQos,
  readHeader,
  runMain,
} from '../../src/rosPeer';
import { STANDIN_PEOPLE } from './standinPeople';

const USAGE = `usage: node dist/bench/src/floorProbe.js --topic IMAGE_TOPIC [--name NODE]

A bare rclnodejs node for bench:e2e's floor: takes IMAGE_TOPIC raw (sensor-data QoS), reads its
header and publishes a five-detection vision_msgs/Detection2DArray on /NODE/detections (reliable,
depth 5) with header.stamp = publish time and header.frame_id = the image stamp "SEC.NANOSEC".
Prints "ready" once subscribed; runs until SIGINT/SIGTERM. NODE defaults to e2e_floor_probe.`;

interface Options {
  readonly topic: string;
  readonly name: string;
}

function parse(argv: readonly string[]): Options | 'help' {
  if (argv.includes('--help') || argv.includes('-h')) return 'help';
  let topic: string | undefined;
  let name = 'e2e_floor_probe';
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const v = argv[i + 1];
    if ((a === '--topic' || a === '--name') && (v === undefined || v.startsWith('--'))) {
      throw new Error(`${a} needs a value\n${USAGE}`);
    }
    if (a === '--topic') topic = argv[++i];
    else if (a === '--name') name = argv[++i]!;
    else throw new Error(`unknown argument '${a}'\n${USAGE}`);
  }
  if (!topic) throw new Error(`--topic is required\n${USAGE}`);
  return { topic, name };
}

/** The five stand-in people as pixel boxes: a message the size the perception node sends. */
const FIVE = STANDIN_PEOPLE.map((p) => ({
  box: { x1: p.cx - p.w / 2, y1: p.cy - p.h / 2, x2: p.cx + p.w / 2, y2: p.cy + p.h / 2 },
  classId: 0,
  score: p.score,
}));

async function main(): Promise<void> {
  const o = parse(process.argv.slice(2));
  if (o === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const rcl = loadRclnodejs();
  await rcl.init();
  const node = new rcl.Node(o.name);
  const out = node.createPublisher('vision_msgs/msg/Detection2DArray', `/${o.name}/detections`, {
    qos: makeQos(rcl, 'reliable', 5),
  });
  node.createSubscription(
    'sensor_msgs/msg/Image',
    o.topic,
    { isRaw: true, qos: makeQos(rcl, 'sensor_data') },
    (m: unknown) => {
      const image = readHeader(new CdrReader(m as Buffer));
      const now = performance.timeOrigin + performance.now();
      const sec = Math.floor(now / 1000);
      const msg = detection2DArray(
        {
          stamp: { sec, nanosec: Math.round((now - sec * 1000) * 1e6) },
          frameId: `${image.stamp.sec}.${image.stamp.nanosec}`,
        },
        FIVE,
      );
      out.publish(encodeDetection2DArray(msg));
    },
  );
  node.spin();
  process.stdout.write('ready\n');
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  node.destroy();
  rcl.shutdown();
}

if (require.main === module) runMain(main);
