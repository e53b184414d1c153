/**
 * Run as a child process by directTake.test.ts: one rclnodejs process with two raw subscriptions
 * on each topic, one asking for the one-copy take (`directTake`) and one ordinary, and a publisher
 * that sends serialized messages as they are (well-formed images of several sizes, a truncated
 * one, one with trailing bytes, a CompressedImage). Each message is published until both
 * subscriptions have taken it. Prints one JSON line: which take each subscription got and, per
 * message, whether each subscription delivered exactly the bytes that were sent.
 */
import type * as Rclnodejs from 'rclnodejs';
import { encodeCompressedImage } from '../../src/ros/codecs/compressedImageCodec';
import { rawSubscriptionOptions, takeKind } from '../../src/ros/directTake';
import { encodeImage } from '../../src/ros/codecs/imageCodec';
import { loadRclnodejs } from '../../src/ros/rosEnvironment';

function image(width: number, height: number, frameId: string, fill: number): Buffer {
  const data = new Uint8Array(width * height * 3);
  for (let i = 0; i < data.length; i++) data[i] = (i * 31 + fill) & 0xff;
  return encodeImage({
    header: { stamp: { sec: fill, nanosec: 7 }, frameId },
    height,
    width,
    encoding: 'rgb8',
    step: width * 3,
    data,
  });
}

interface Step {
  readonly name: string;
  readonly type: 'sensor_msgs/msg/Image' | 'sensor_msgs/msg/CompressedImage';
  readonly bytes: Buffer;
}

const large = image(640, 480, 'cam', 1);
const STEPS: readonly Step[] = [
  { name: '640x480 rgb8', type: 'sensor_msgs/msg/Image', bytes: large },
  { name: '5x3 rgb8, odd frame_id', type: 'sensor_msgs/msg/Image', bytes: image(5, 3, 'odd', 2) },
  {
    name: '1280x720 rgb8 (outgrows the buffer)',
    type: 'sensor_msgs/msg/Image',
    bytes: image(1280, 720, 'cam', 3),
  },
  { name: '640x480 rgb8 again', type: 'sensor_msgs/msg/Image', bytes: image(640, 480, 'cam', 4) },
  {
    name: 'truncated image',
    type: 'sensor_msgs/msg/Image',
    bytes: large.subarray(0, large.length - 1001),
  },
  {
    name: 'image with 9 trailing bytes',
    type: 'sensor_msgs/msg/Image',
    bytes: Buffer.concat([image(64, 48, 'cam', 5), Buffer.alloc(9, 0xee)]),
  },
  {
    name: 'CompressedImage',
    type: 'sensor_msgs/msg/CompressedImage',
    bytes: encodeCompressedImage({
      header: { stamp: { sec: 6, nanosec: 0 }, frameId: 'cam' },
      format: 'jpeg',
      data: new Uint8Array(70_000).fill(0x5a),
    }),
  },
];

interface Taker {
  readonly subscription: Rclnodejs.Subscription;
  readonly received: Buffer[];
}

async function main(): Promise<void> {
  const rcl = loadRclnodejs();
  await rcl.init();
  const node = rcl.createNode(`direct_take_${process.pid}`);
  const takers = new Map<string, { direct: Taker; ordinary: Taker }>();
  const publishers = new Map<string, Rclnodejs.Publisher<'sensor_msgs/msg/Image'>>();
  for (const type of ['sensor_msgs/msg/Image', 'sensor_msgs/msg/CompressedImage'] as const) {
    const topic = `/direct_take_${process.pid}_${type.split('/')[2]}`;
    const make = (options: object): Taker => {
      const received: Buffer[] = [];
      const subscription = node.createSubscription(type, topic, options, (m: unknown) => {
        received.push(Buffer.from(m as Buffer)); // a copy: the pooled buffer is reused
      });
      return { subscription, received };
    };
    takers.set(type, {
      direct: make(rawSubscriptionOptions(rcl.QoS.profileDefault)),
      ordinary: make({ isRaw: true }),
    });
    publishers.set(type, node.createPublisher(type as 'sensor_msgs/msg/Image', topic));
  }
  node.spin(5);

  const results = [];
  for (const step of STEPS) {
    const t = takers.get(step.type)!;
    const got = (taker: Taker): boolean => taker.received.some((b) => b.equals(step.bytes));
    const deadline = Date.now() + 10_000;
    while (!(got(t.direct) && got(t.ordinary)) && Date.now() < deadline) {
      publishers.get(step.type)!.publish(step.bytes as never);
      await new Promise((r) => setTimeout(r, 50));
    }
    results.push({
      name: step.name,
      bytes: step.bytes.length,
      direct: got(t.direct),
      ordinary: got(t.ordinary),
    });
  }
  const sent = STEPS.map((s) => s.bytes);
  const strays = [...takers.values()]
    .flatMap((t) => [...t.direct.received, ...t.ordinary.received])
    .filter((b) => !sent.some((s) => s.equals(b))).length;
  const kinds = Object.fromEntries(
    [...takers.entries()].map(([type, t]) => [
      type,
      { direct: takeKind(t.direct.subscription), ordinary: takeKind(t.ordinary.subscription) },
    ]),
  );
  process.stdout.write(`${JSON.stringify({ kinds, results, strays })}\n`);
  node.destroy();
  rcl.shutdown();
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
