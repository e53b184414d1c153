/**
 * Run as a child process by malformedFlood.test.ts: the hostile camera. One rclnodejs node that
 * publishes serialized messages exactly as built (rclnodejs' raw publish: no type check, no
 * re-serialization, so CDR that does not parse goes out as it is) on the four topics a 3D
 * container subscribes: colour Image, CompressedImage, depth Image and CameraInfo. Malformed
 * messages (fast-check, seeded: targeted defects with real camera sizes, and the unit property
 * suites' hostile variants of valid messages) are interleaved with valid frames of a person at
 * 2 m, then valid frames alone follow. Each message's fate at the container's intake is predicted
 * with the production decoders (`accepted` or the FrameError code), so the test can check the
 * container's counts against what was sent. A witness process (this script with --witness)
 * subscribes to every topic the way the container does (the one-copy take for images, serialized
 * for CameraInfo) with a deep history, and predicts the fate of each message it takes from the
 * bytes it took: what reaches another process is not always what was sent (test/support/
 * takenPayload.ts: padded to 4 unless fragmented; the one-copy take loses a payload whose
 * encapsulation Fast CDR does not read, and leaves off the final padding the header declares).
 * Empty (0-byte) messages go out on a writer of their own per topic: Fast DDS sends one as a DATA
 * submessage without payload, which a reader in another process discards without acknowledging
 * it, so a reliable writer resends it until its history lets go of it (200 messages here) and the
 * reader gets nothing this writer sent after it meanwhile. On the flood's own writer that stalled
 * each topic for seconds at a time, and for good when one came within 200 messages of the end,
 * whatever the subscriber and its take. The messages Fast DDS never hands to the witness (those
 * empty ones, and what the witness' take loses) are counted apart, predicted from each message's
 * bytes with takenPayload, so that what was sent adds up: sent = delivered + dropped before the
 * take. Prints one JSON line (FloodSummary).
 *
 *   node malformedFlood.js '<FloodPlan as JSON>'
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import * as fs from 'node:fs';
import * as fc from 'fast-check';
import sharp from 'sharp';
import type * as Rclnodejs from 'rclnodejs';
import { CameraModel, CameraModelError } from '../../src/depth/cameraModel';
import { decodeCompressedImage } from '../../src/ros/codecs/compressedImageCodec';
import { decodeCameraInfo, decodeDepthImage } from '../../src/ros/codecs/depthCodecs';
import { FrameError } from '../../src/ros/frameError';
import { rawSubscriptionOptions, takeKind, type TakeKind } from '../../src/ros/directTake';
import { decodeImage } from '../../src/ros/codecs/imageCodec';
import { loadRclnodejs } from '../../src/ros/rosEnvironment';
import { matchedPublishers, matchedSubscriptions } from '../../src/ros/matchedSubscriptions';
import { fastDdsMajor, takenPayload } from './takenPayload';
import {
  encoded,
  hostileBytes,
  patternBytes,
  validCameraInfo,
  validCompressedImage,
  validDepthImage,
  validImage,
  writeCameraInfo,
  writeCompressedImage,
  writeImage,
  type Encoded,
  type TestCameraInfo,
  type TestHeader,
  type TestImage,
} from './rosMessageArbitraries';

export const FLOOD_INPUTS = ['image', 'compressed', 'depth', 'camera_info'] as const;
export type FloodInput = (typeof FLOOD_INPUTS)[number];

export interface FloodPlan {
  /** Fully qualified topic per input. */
  readonly topics: Readonly<Record<FloodInput, string>>;
  /** Malformed messages per input in each round (rounds go on until the container counted enough). */
  readonly perRound: Readonly<Record<FloodInput, number>>;
  /**
   * Stop once the container's diagnostics (these nodes' bad_frames, depth_bad_frames and
   * camera_info_bad) count this many bad messages, or after maxMalformed messages: the issue asks
   * for 10,000 that the container took.
   */
  readonly untilCounted: { readonly nodes: readonly string[]; readonly bad: number };
  readonly maxMalformed: number;
  /** One valid frame on every input after this many malformed messages (all inputs together). */
  readonly validEvery: number;
  /** Valid frames on every input after the flood. */
  readonly validAfter: number;
  readonly seed: number;
  /** A colour photo: the valid frames show it letterboxed into 640x480 (raw) and as its JPEG. */
  readonly photo: string;
  /**
   * A pause of pauseMs after every pauseEvery messages: the rate the container takes beside its
   * models, so that its readers' histories never fill (nor hold our writers back).
   */
  readonly pauseEvery: number;
  readonly pauseMs: number;
}

/** Where a message ends at the container's intake: accepted, or refused with this code. */
export type Outcome = string;

export interface FloodSummary {
  /** Per input: messages sent by predicted outcome (malformed and valid together). */
  readonly sent: Record<FloodInput, Record<Outcome, number>>;
  /**
   * Per input: messages a subscriber in another process taking the container's way (the witness)
   * received, by the outcome predicted from the bytes it received.
   */
  readonly delivered: Record<FloodInput, Record<Outcome, number>>;
  /**
   * Per input: messages sent that Fast DDS never hands to a subscriber in another process taking
   * the witness' way (takenPayload: empty ones; with the one-copy take, those whose encapsulation
   * Fast CDR does not read), predicted from the bytes sent. sent = delivered + this.
   */
  readonly droppedBeforeTake: Record<FloodInput, number>;
  /** Per input: how the witness took (the container's take is the same: its intake_take). */
  readonly take: Record<FloodInput, TakeKind>;
  /** Per input: how many of the sent messages were malformed (their outcomes included above). */
  readonly malformed: Record<FloodInput, number>;
  /** Bad messages the container's diagnostics counted when the flood stopped. */
  readonly countedAtStop: number;
  /** Malformed messages per generator family (what the flood was made of). */
  readonly families: Record<string, number>;
  /** Stamps (sec) of the valid frames sent during the flood and after it. */
  readonly validDuring: { readonly first: number; readonly last: number; readonly count: number };
  readonly validAfter: { readonly first: number; readonly last: number; readonly count: number };
  /** Wall time from the first to the last malformed message, in ms. */
  readonly floodMs: number;
}

/** Stamps of the valid frames: during the flood from here, after it from AFTER_SEC. */
export const DURING_SEC = 1000;
export const AFTER_SEC = 5000;

const W = 640;
const H = 480;
const F = 500;

interface Message {
  readonly family: string;
  readonly bytes: Uint8Array;
}

const LE = 0x0001 as const;

/** The frame id of the valid frames (the malformed ones have others). */
export const VALID_FRAME_ID = 'flood_valid_optical';

function header(sec: number, frameId = VALID_FRAME_ID): TestHeader {
  return { sec, nanosec: 0, frameId };
}

function cameraInfo(sec: number, over: Partial<TestCameraInfo> = {}): TestCameraInfo {
  return {
    header: header(sec),
    height: H,
    width: W,
    distortionModel: 'plumb_bob',
    d: [0, 0, 0, 0, 0],
    k: [F, 0, W / 2, 0, F, H / 2, 0, 0, 1],
    r: [1, 0, 0, 0, 1, 0, 0, 0, 1],
    p: [F, 0, W / 2, 0, 0, F, H / 2, 0, 0, 0, 1, 0],
    binning: [0, 0],
    roi: [0, 0, 0, 0],
    doRectify: 0,
    ...over,
  };
}

function image(
  sec: number,
  encoding: string,
  width: number,
  height: number,
  step: number,
  data: Uint8Array,
): TestImage {
  return { header: header(sec), height, width, encoding, isBigEndian: 0, step, data };
}

const small = fc.integer({ min: 0, max: 4096 });
const seedInt = fc.integer();

/**
 * Defects a camera driver or a bridge really produces, at camera sizes (while the property
 * suites' variants are small): wrong step, data shorter than the geometry, sizes that claim
 * gigabytes, zero or odd sizes, encodings we do not take, the message cut or padded.
 */
const colourDefects: fc.Arbitrary<Message> = fc.oneof(
  fc
    .tuple(fc.constantFrom('rgb8', 'bgr8', 'bgra8', 'mono8'), fc.integer({ min: 1, max: 1919 }))
    .map(([enc, step]) => ({
      family: 'image: step below a row',
      bytes: writeImage(LE, image(1, enc, W, H, step, patternBytes(64, step))),
    })),
  fc.tuple(fc.constantFrom('rgb8', 'yuyv', 'nv12'), small, seedInt).map(([enc, n, s]) => ({
    family: 'image: pixels cut short',
    bytes: writeImage(
      LE,
      image(1, enc, W, H, enc === 'rgb8' ? W * 3 : enc === 'yuyv' ? W * 2 : W, patternBytes(n, s)),
    ),
  })),
  fc
    .constantFrom(
      [16384, 16384, 16384 * 4],
      [0xffffffff, 1, 0xffffffff],
      [1, 0xffffffff, 3],
      [16385, 2, 16385 * 3],
      [12000, 12000, 36000],
    )
    .map(([w, h, step]) => ({
      family: 'image: size claiming gigabytes',
      bytes: writeImage(LE, image(1, 'rgb8', w!, h!, step!, patternBytes(32, w!))),
    })),
  fc.constantFrom([0, H], [W, 0], [0, 0]).map(([w, h]) => ({
    family: 'image: zero size',
    bytes: writeImage(LE, image(1, 'rgb8', w!, h!, w! * 3, patternBytes(16, 1))),
  })),
  fc.constantFrom(['yuyv', 641, 480], ['nv12', 640, 479], ['uyvy', 3, 2]).map(([e, w, h]) => ({
    family: 'image: odd size for a subsampled encoding',
    bytes: writeImage(LE, image(1, e as string, w as number, h as number, 4096, new Uint8Array(0))),
  })),
  fc
    .constantFrom('bayer_rggb8', 'rgb16', '16UC1', '32FC1', 'jpeg', '', 'RGB 8', 'rgb8\u00e9')
    .map((e) => ({
      family: 'image: encoding not taken',
      bytes: writeImage(LE, image(1, e, 4, 2, 12, patternBytes(24, 3))),
    })),
);

const depthDefects: fc.Arbitrary<Message> = fc.oneof(
  fc.tuple(fc.constantFrom('16UC1', '32FC1'), small, seedInt).map(([enc, n, s]) => ({
    family: 'depth: pixels cut short',
    bytes: writeImage(LE, image(1, enc, W, H, W * (enc === '16UC1' ? 2 : 4), patternBytes(n, s))),
  })),
  fc.constantFrom('16UC1', '32FC1').map((enc) => ({
    family: 'depth: step below a row',
    bytes: writeImage(LE, image(1, enc, W, H, W, patternBytes(W * H, 5))),
  })),
  fc.constantFrom('rgb8', 'mono8', '16SC1', '64FC1', '').map((enc) => ({
    family: 'depth: not a depth encoding',
    bytes: writeImage(LE, image(1, enc, 4, 2, 8, patternBytes(16, 6))),
  })),
  fc.constantFrom([0, H], [W, 0], [0xffffffff, 0xffffffff], [16385, 1]).map(([w, h]) => ({
    family: 'depth: zero or huge size',
    bytes: writeImage(LE, image(1, '16UC1', w!, h!, 2 * w!, patternBytes(16, 7))),
  })),
);

const cameraInfoDefects: fc.Arbitrary<Message> = fc.oneof(
  fc
    .constantFrom(
      [0, 0, W / 2, 0, F, H / 2, 0, 0, 1],
      [NaN, 0, W / 2, 0, F, H / 2, 0, 0, 1],
      [F, 0, Infinity, 0, F, H / 2, 0, 0, 1],
      [-F, 0, W / 2, 0, F, H / 2, 0, 0, 1],
      [0, 0, 0, 0, 0, 0, 0, 0, 0],
    )
    .map((k) => ({
      family: 'camera_info: K unusable',
      bytes: writeCameraInfo(LE, cameraInfo(1, { k })),
    })),
  fc.constantFrom([0, H], [W, 0], [0, 0]).map(([width, height]) => ({
    family: 'camera_info: zero size',
    bytes: writeCameraInfo(LE, cameraInfo(1, { width: width!, height: height! })),
  })),
  fc.constantFrom(65, 1000, 0x7fffffff, 0xffffffff).map((n) => ({
    family: 'camera_info: D length claims more',
    bytes: writeCameraInfo(LE, cameraInfo(1), n),
  })),
  fc.constantFrom(NaN, Infinity, -Infinity).map((v) => ({
    family: 'camera_info: D not finite',
    bytes: writeCameraInfo(LE, cameraInfo(1, { d: [0, v, 0, 0, 0] })),
  })),
);

function compressedDefects(jpeg: Uint8Array): fc.Arbitrary<Message> {
  const compressed = (format: string, data: Uint8Array) =>
    writeCompressedImage(LE, { header: header(1), format, data });
  return fc.oneof(
    fc.constantFrom('jpeg', 'png', '').map((format) => ({
      family: 'compressed: no data',
      bytes: compressed(format, new Uint8Array(0)),
    })),
    fc
      .tuple(fc.integer({ min: 1, max: jpeg.length - 1 }), fc.constantFrom('jpeg', 'png'))
      .map(([n, format]) => ({
        family: 'compressed: JPEG cut short',
        bytes: compressed(format, jpeg.subarray(0, n)),
      })),
    fc.tuple(fc.integer({ min: 1, max: 2048 }), seedInt).map(([n, s]) => ({
      family: 'compressed: JPEG marker then garbage',
      bytes: compressed(
        'jpeg',
        Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), patternBytes(n, s)]),
      ),
    })),
    fc.tuple(fc.integer({ min: 1, max: 2048 }), seedInt).map(([n, s]) => ({
      family: 'compressed: PNG signature then garbage',
      bytes: compressed(
        'png',
        Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), patternBytes(n, s)]),
      ),
    })),
    fc
      .tuple(fc.constantFrom('webp', 'theora', 'rgb8; compressedDepth', 'h264'), small, seedInt)
      .map(([format, n, s]) => ({
        family: 'compressed: unknown format, garbage',
        bytes: compressed(format, patternBytes(n + 1, s)),
      })),
  );
}

/** The property suites' hostile variants of valid messages (truncated, spliced, junk, ...). */
function suiteVariants(
  valid: fc.Arbitrary<Encoded<unknown>>,
  input: string,
): fc.Arbitrary<Message> {
  return hostileBytes(valid).map((h) => ({
    family: `${input}: ${h.kind}`,
    bytes: h.bytes,
  }));
}

function arbitraryFor(input: FloodInput, jpeg: Uint8Array): fc.Arbitrary<Message> {
  switch (input) {
    case 'image':
      return fc.oneof(colourDefects, suiteVariants(encoded(validImage, writeImage), 'image'));
    case 'compressed':
      return fc.oneof(
        compressedDefects(jpeg),
        suiteVariants(encoded(validCompressedImage, writeCompressedImage), 'compressed'),
      );
    case 'depth':
      return fc.oneof(depthDefects, suiteVariants(encoded(validDepthImage, writeImage), 'depth'));
    case 'camera_info':
      return fc.oneof(
        cameraInfoDefects,
        suiteVariants(encoded(validCameraInfo, writeCameraInfo), 'camera_info'),
      );
  }
}

/** What the container's intake does with `bytes` on `input`, by the production decoders. */
function predict(input: FloodInput, bytes: Uint8Array): Outcome {
  try {
    switch (input) {
      case 'image':
        decodeImage(bytes);
        break;
      case 'compressed':
        decodeCompressedImage(bytes);
        break;
      case 'depth':
        decodeDepthImage(bytes);
        break;
      case 'camera_info':
        CameraModel.fromCameraInfo(decodeCameraInfo(bytes).info);
        break;
    }
    return 'accepted';
  } catch (e) {
    if (e instanceof FrameError) return e.code;
    if (e instanceof CameraModelError) return 'BAD_CAMERA_INFO';
    throw e;
  }
}

/** The valid frames: a person letterboxed into 640x480 rgb8, its JPEG, 2 m of depth, the camera. */
async function validFrames(
  photo: string,
): Promise<(sec: number) => Record<FloodInput, Uint8Array>> {
  const { data } = await sharp(photo)
    .resize(W, H, { fit: 'contain', background: { r: 0, g: 0, b: 0 } })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const jpeg = fs.readFileSync(photo);
  const depth = Buffer.alloc(W * H * 2);
  for (let i = 0; i < W * H; i++) depth.writeUInt16LE(2000, i * 2);
  return (sec) => ({
    image: writeImage(LE, image(sec, 'rgb8', W, H, W * 3, data)),
    compressed: writeCompressedImage(LE, { header: header(sec), format: 'jpeg', data: jpeg }),
    depth: writeImage(LE, image(sec, '16UC1', W, H, W * 2, depth)),
    camera_info: writeCameraInfo(LE, cameraInfo(sec)),
  });
}

const TYPES: Readonly<Record<FloodInput, string>> = {
  image: 'sensor_msgs/msg/Image',
  compressed: 'sensor_msgs/msg/CompressedImage',
  depth: 'sensor_msgs/msg/Image',
  camera_info: 'sensor_msgs/msg/CameraInfo',
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main(): Promise<void> {
  const plan = JSON.parse(process.argv[2] ?? '') as FloodPlan;
  const jpeg = fs.readFileSync(plan.photo);
  const valid = await validFrames(plan.photo);

  const rcl = loadRclnodejs();
  await rcl.init();
  const node = rcl.createNode(`malformed_flood_${process.pid}`);
  const { QoS } = rcl;
  // Reliable, like the container's `input_qos: default` (a sample lost on the wire is resent; one
  // the reader's 10-deep history overwrites before the node takes it is gone: hence the pauses).
  const qos = new QoS(
    QoS.HistoryPolicy.RMW_QOS_POLICY_HISTORY_KEEP_LAST,
    200,
    QoS.ReliabilityPolicy.RMW_QOS_POLICY_RELIABILITY_RELIABLE,
    QoS.DurabilityPolicy.RMW_QOS_POLICY_DURABILITY_VOLATILE,
  );
  // The witness: what a subscriber in another process that takes the container's way gets.
  const witness = spawn(process.execPath, [__filename, '--witness', JSON.stringify(plan.topics)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const witnessLines: string[] = [];
  const lineWaiters: { text: string; resolve: () => void }[] = [];
  createInterface({ input: witness.stdout }).on('line', (l) => {
    witnessLines.push(l);
    for (const w of lineWaiters.filter((x) => x.text === l)) w.resolve();
  });
  /** Resolves once the witness printed `text` (or had printed it already). */
  const witnessSaid = (text: string): Promise<void> =>
    witnessLines.includes(text)
      ? Promise.resolve()
      : new Promise<void>((resolve) => lineWaiters.push({ text, resolve }));
  const publishers = Object.fromEntries(
    FLOOD_INPUTS.map((input) => [
      input,
      node.createPublisher(TYPES[input] as 'sensor_msgs/msg/Image', plan.topics[input], { qos }),
    ]),
  ) as Record<FloodInput, Rclnodejs.Publisher<'sensor_msgs/msg/Image'>>;
  // Empty messages never reach another process and hold back what their writer sends after
  // them (see above): they get writers of their own.
  const emptyPublishers = Object.fromEntries(
    FLOOD_INPUTS.map((input) => [
      input,
      node.createPublisher(TYPES[input] as 'sensor_msgs/msg/Image', plan.topics[input], { qos }),
    ]),
  ) as Record<FloodInput, Rclnodejs.Publisher<'sensor_msgs/msg/Image'>>;
  node.spin(5);
  const deadline = Date.now() + 60_000;
  // The container and our witness.
  await witnessSaid('ready');
  while (
    FLOOD_INPUTS.some(
      (i) =>
        matchedSubscriptions(publishers[i]) < 2 || matchedSubscriptions(emptyPublishers[i]) < 2,
    )
  ) {
    if (Date.now() > deadline) throw new Error('no subscriber on some flood topic after 60 s');
    await sleep(100);
  }
  const matchedAt = Date.now();
  // Both ends of a reliable match: a volatile reader that learns of our writer after a message
  // went out never gets that message, and it may learn of the writer a moment after the writer
  // learned of it. The witness says when each of its readers has matched both our writers.
  await witnessSaid('matched');
  // The container's readers are not visible from here: the time the witness's readers took to
  // match after ours matched theirs (the same discovery exchange), again, for the container's.
  await sleep(Math.max(200, 2 * (Date.now() - matchedAt)));

  const sent = Object.fromEntries(FLOOD_INPUTS.map((i) => [i, {}])) as Record<
    FloodInput,
    Record<Outcome, number>
  >;
  // What each take would never receive, for the witness' take to pick at the end.
  const fastDds = fastDdsMajor();
  const undeliverable = Object.fromEntries(
    FLOOD_INPUTS.map((i) => [i, { direct: 0, serialized: 0 }]),
  ) as Record<FloodInput, Record<TakeKind, number>>;
  const publish = (input: FloodInput, bytes: Uint8Array, outcome: Outcome): void => {
    const writer = bytes.length === 0 ? emptyPublishers[input] : publishers[input];
    writer.publish(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length) as never);
    sent[input][outcome] = (sent[input][outcome] ?? 0) + 1;
    for (const take of ['direct', 'serialized'] as const) {
      if (takenPayload(bytes, take, 'other process', fastDds) === undefined)
        undeliverable[input][take]++;
    }
  };
  const publishValid = (sec: number): void => {
    const frames = valid(sec);
    for (const input of FLOOD_INPUTS) {
      const outcome = predict(input, frames[input]);
      if (outcome !== 'accepted') throw new Error(`valid ${input} frame predicted ${outcome}`);
      publish(input, frames[input], outcome);
    }
  };

  // What the container counted so far, from its diagnostics (1 Hz).
  const counted = new Map<string, number>();
  node.createSubscription(
    'diagnostic_msgs/msg/DiagnosticArray',
    '/diagnostics',
    (m: { status: { name: string; values: { key: string; value: string }[] }[] }) => {
      for (const st of m.status) {
        const name = plan.untilCounted.nodes.find((n) => st.name === `htp_perception: /${n}`);
        if (!name) continue;
        const v = (k: string) => Number(st.values.find((x) => x.key === k)?.value ?? 0);
        counted.set(name, v('bad_frames') + v('depth_bad_frames') + v('camera_info_bad'));
      }
    },
  );
  const countedNow = () => [...counted.values()].reduce((a, b) => a + b, 0);

  const families: Record<string, number> = {};
  const started = Date.now();
  const malformed = Object.fromEntries(FLOOD_INPUTS.map((i) => [i, 0])) as Record<
    FloodInput,
    number
  >;
  let during = 0;
  let k = 0;
  for (let round = 0; countedNow() < plan.untilCounted.bad; round++) {
    // The round's malformed messages of every input, merged in proportion so that each input is
    // flooded all the time.
    const queue: { input: FloodInput; at: number; message: Message }[] = [];
    FLOOD_INPUTS.forEach((input, i) => {
      const n = plan.perRound[input];
      const seed = plan.seed + round * FLOOD_INPUTS.length + i;
      fc.sample(arbitraryFor(input, jpeg), { seed, numRuns: n }).forEach((message, j) =>
        queue.push({ input, at: (j + 0.5) / n, message }),
      );
    });
    queue.sort((a, b) => a.at - b.at);
    for (const { input, message } of queue) {
      if (countedNow() >= plan.untilCounted.bad || k >= plan.maxMalformed) break;
      families[message.family] = (families[message.family] ?? 0) + 1;
      publish(input, message.bytes, predict(input, message.bytes));
      malformed[input]++;
      if (++k % plan.validEvery === 0) publishValid(DURING_SEC + during++);
      if (k % plan.pauseEvery === 0) await sleep(plan.pauseMs);
    }
    if (k >= plan.maxMalformed) break;
  }
  const floodMs = Date.now() - started;
  for (let a = 0; a < plan.validAfter; a++) {
    publishValid(AFTER_SEC + a);
    await sleep(200);
  }
  for (const input of FLOOD_INPUTS) publishers[input].waitForAllAcked(5_000_000_000n);
  // The witness answers once it has taken everything (its count stopped moving).
  const answered = new Promise<void>((resolve) => witness.on('exit', () => resolve()));
  witness.stdin.end();
  await answered;
  const witnessed = JSON.parse(witnessLines[witnessLines.length - 1] ?? '') as WitnessReport;
  const delivered = witnessed.taken;

  const summary: FloodSummary = {
    sent,
    delivered,
    droppedBeforeTake: Object.fromEntries(
      FLOOD_INPUTS.map((i) => [i, undeliverable[i][witnessed.take[i]]]),
    ) as Record<FloodInput, number>,
    take: witnessed.take,
    malformed,
    countedAtStop: countedNow(),
    families,
    validDuring: { first: DURING_SEC, last: DURING_SEC + during - 1, count: during },
    validAfter: { first: AFTER_SEC, last: AFTER_SEC + plan.validAfter - 1, count: plan.validAfter },
    floodMs,
  };
  process.stdout.write(`${JSON.stringify(summary)}\n`);
  node.destroy();
  await rcl.shutdown();
}

/** The witness' last line: what it took per input by predicted outcome, and how it took. */
interface WitnessReport {
  readonly taken: Record<FloodInput, Record<Outcome, number>>;
  readonly take: Record<FloodInput, TakeKind>;
}

/**
 * The witness process: subscribes to the flood's topics the way the container does, counts what
 * it takes by the outcome predicted from the bytes taken, prints 'ready' once subscribed, and when
 * its stdin closes and its count has stopped moving, the counts as one JSON line (WitnessReport).
 */
async function witness(topics: Readonly<Record<FloodInput, string>>): Promise<void> {
  const rcl = loadRclnodejs();
  await rcl.init();
  const node = rcl.createNode(`malformed_flood_witness_${process.pid}`);
  const { QoS } = rcl;
  const deep = new QoS(
    QoS.HistoryPolicy.RMW_QOS_POLICY_HISTORY_KEEP_LAST,
    5000,
    QoS.ReliabilityPolicy.RMW_QOS_POLICY_RELIABILITY_RELIABLE,
    QoS.DurabilityPolicy.RMW_QOS_POLICY_DURABILITY_VOLATILE,
  );
  const taken = Object.fromEntries(FLOOD_INPUTS.map((i) => [i, {}])) as Record<
    FloodInput,
    Record<Outcome, number>
  >;
  let total = 0;
  const take = {} as Record<FloodInput, TakeKind>;
  const subscriptions: Rclnodejs.Subscription[] = [];
  for (const input of FLOOD_INPUTS) {
    // As the container: CameraInfo serialized, images with the one-copy take where there is one.
    const options =
      input === 'camera_info' ? { isRaw: true, qos: deep } : rawSubscriptionOptions(deep);
    const subscription = node.createSubscription(
      TYPES[input] as 'sensor_msgs/msg/Image',
      topics[input],
      options,
      (m: unknown) => {
        const outcome = predict(input, m as Buffer);
        taken[input][outcome] = (taken[input][outcome] ?? 0) + 1;
        total++;
      },
    );
    take[input] = takeKind(subscription);
    subscriptions.push(subscription);
  }
  node.spin(5);
  process.stdout.write('ready\n');
  // Each reader has matched the flood's two writers on its topic (the main and the empty one).
  const until = Date.now() + 60_000;
  while (subscriptions.some((sub) => matchedPublishers(sub) < 2)) {
    if (Date.now() > until) throw new Error('witness: a flood writer unmatched after 60 s');
    await sleep(50);
  }
  process.stdout.write('matched\n');
  await new Promise<void>((resolve) => {
    process.stdin.on('end', () => resolve());
    process.stdin.resume();
  });
  for (let last = -1, i = 0; total !== last && i < 40; i++) {
    last = total;
    await sleep(500);
  }
  const report: WitnessReport = { taken, take };
  process.stdout.write(`${JSON.stringify(report)}\n`);
  node.destroy();
  rcl.shutdown();
}

if (require.main === module) {
  const run =
    process.argv[2] === '--witness'
      ? witness(JSON.parse(process.argv[3] ?? '') as Record<FloodInput, string>)
      : main();
  run.catch((e: unknown) => {
    process.stderr.write(
      `malformedFlood: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`,
    );
    process.exit(1);
  });
}
