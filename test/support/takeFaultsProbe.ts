/**
 * Run as a child process by takeMallocWindow.test.ts: one process that, like a perception node,
 * has the engine addon loaded (glibc thresholds fixed) and takes 640x480 rgb8 frames through a raw
 * subscription, with the take window open or closed (argv[2]: on | off). Prints one JSON line:
 * the frames taken and the minor page faults per frame over the measured ones.
 */
import { nativeAddon } from '../../src/engine/nativeAddon';
import { encodeImage } from '../../src/ros/codecs/imageCodec';
import { loadRclnodejs } from '../../src/ros/rosEnvironment';
import { setTakeMallocWindow } from '../../src/ros/takeMallocWindow';

const WARMUP = 10;
const MEASURED = 80;

async function main(): Promise<void> {
  const open = process.argv[2] === 'on';
  const rcl = loadRclnodejs();
  await rcl.init();
  const thresholds = nativeAddon().mallocThresholds();
  const windowOpen = setTakeMallocWindow(open ? thresholds : null);
  const node = rcl.createNode(`take_faults_${process.pid}`);
  const topic = `/take_faults_${process.pid}`;
  const publisher = node.createPublisher('sensor_msgs/msg/Image', topic);
  const frame = encodeImage({
    header: { stamp: { sec: 1, nanosec: 0 }, frameId: 'cam' },
    height: 480,
    width: 640,
    encoding: 'rgb8',
    step: 640 * 3,
    data: new Uint8Array(640 * 480 * 3).fill(7),
  });
  let taken = 0;
  let faultsAtStart = 0;
  let faultsAtEnd = 0;
  const done = new Promise<void>((resolve) => {
    node.createSubscription('sensor_msgs/msg/Image', topic, { isRaw: true }, (msg: unknown) => {
      if ((msg as Buffer).length !== frame.length) throw new Error('a frame of the wrong size');
      taken++;
      if (taken === WARMUP) faultsAtStart = process.resourceUsage().minorPageFault;
      if (taken === WARMUP + MEASURED) {
        faultsAtEnd = process.resourceUsage().minorPageFault;
        resolve();
        return;
      }
      // One publish per take, so the publisher's own faults weigh the same with the window open
      // or closed however slowly a loaded machine delivers.
      publisher.publish(frame);
    });
  });
  node.spin(10);
  // The first frames go out before discovery has matched the subscription and are lost; publish
  // again only while nothing arrives.
  let takenAtLastTick = 0;
  const kick = setInterval(() => {
    if (taken === takenAtLastTick) publisher.publish(frame);
    takenAtLastTick = taken;
  }, 100);
  await done;
  clearInterval(kick);
  process.stdout.write(
    `${JSON.stringify({ windowOpen, thresholds, faultsPerFrame: (faultsAtEnd - faultsAtStart) / MEASURED })}\n`,
  );
  node.destroy();
  rcl.shutdown();
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
