/**
 * Run as child processes by hostilePayloads.test.ts: what raw subscriptions take of payloads a
 * hostile publisher sends as they are, over a process boundary and within one, with the one-copy
 * take and the ordinary one. The main process publishes (reliable, keep last DEPTH, like a camera
 * driver) and has a subscription of each take itself; a second process (`sub`) has one of each
 * too and prints every message it takes. Each step publishes its payloads and then a valid marker
 * frame, and collects what each subscription took up to that marker. Prints one JSON line
 * (HostileProbeResult).
 *
 *   node hostilePayloadProbe.js [sub TOPIC]
 */
import { createInterface } from 'node:readline';
import { spawn } from 'node:child_process';
import type * as Rclnodejs from 'rclnodejs';
import { encodeImage } from '../../src/ros/codecs/imageCodec';
import { rawSubscriptionOptions, takeKind, type TakeKind } from '../../src/ros/directTake';
import { loadRclnodejs } from '../../src/ros/rosEnvironment';
import { matchedSubscriptions } from '../../src/ros/matchedSubscriptions';

/** The publisher's history: an unacknowledged message leaves it after this many newer ones. */
export const DEPTH = 5;

export interface HostileStep {
  readonly name: string;
  /** Published in order on the step's writer, then the marker on the main writer. */
  readonly payloads: readonly string[];
  /** 'own': a writer of its own for the payloads; 'main': the marker's writer. */
  readonly writer: 'main' | 'own';
}

/** Where a subscription is and how it takes. */
export type Taker = `${'same' | 'other'} process ${TakeKind}`;

export interface HostileProbeResult {
  /** The take each subscription really got (a build without the patch takes serialized). */
  readonly takes: Record<Taker, TakeKind>;
  /** Per step and subscription: what it took before the marker (hex), in order. */
  readonly taken: Record<string, Record<Taker, string[]>>;
  /** Per step: did every subscription take the marker after it. */
  readonly markerArrived: Record<string, boolean>;
  /** Markers published until the one after a step arrived everywhere. */
  readonly markersNeeded: Record<string, number>;
  /**
   * How the subscriber process ended: 'exit 0' when it was alive at the end of the run and left
   * cleanly, else its exit code or signal (a crash while taking shows here).
   */
  readonly subscriberEnd: string;
}

const hex = (s: string) => Buffer.from(s.replace(/ /g, ''), 'hex');

/** The payloads, hex: each a class that once broke or surprised a raw subscription. */
export const STEPS: readonly HostileStep[] = [
  // The one-copy take crashed the process on it (its end lies before the header's end once Fast
  // CDR drops the declared padding).
  { name: '4 bytes declaring 3 bytes of padding', payloads: ['00010003'], writer: 'main' },
  { name: '4 bytes declaring 1 byte of padding', payloads: ['00010001'], writer: 'main' },
  {
    name: '100 bytes declaring 2 bytes of padding',
    payloads: ['00010002' + '5a'.repeat(96)],
    writer: 'main',
  },
  { name: '101 bytes', payloads: ['00010000' + '5a'.repeat(97)], writer: 'main' },
  { name: '2 bytes', payloads: ['0001'], writer: 'main' },
  { name: 'unknown representation', payloads: ['0005000011223344'], writer: 'main' },
  { name: 'non-zero first byte', payloads: ['0101000011223344'], writer: 'main' },
  {
    name: 'several the one-copy take drops in a row',
    payloads: ['00050000', '7f010000', '00ff0000aabbccdd'],
    writer: 'main',
  },
  // Never delivered to another process; on a writer of its own it holds back nothing else.
  { name: '0 bytes, own writer', payloads: [''], writer: 'own' },
  // On the marker's writer it holds back what that writer sends next until its history
  // (DEPTH) lets go of it: then the subscription resumes.
  { name: '0 bytes, main writer', payloads: [''], writer: 'main' },
];

function marker(n: number): Buffer {
  return encodeImage({
    header: { stamp: { sec: 1000 + n, nanosec: 0 }, frameId: 'hostile_marker' },
    height: 2,
    width: 2,
    encoding: 'mono8',
    step: 2,
    data: new Uint8Array([n & 0xff, 1, 2, 3]),
  });
}

function qos(rcl: typeof Rclnodejs): Rclnodejs.QoS {
  const { QoS } = rcl;
  return new QoS(
    QoS.HistoryPolicy.RMW_QOS_POLICY_HISTORY_KEEP_LAST,
    DEPTH,
    QoS.ReliabilityPolicy.RMW_QOS_POLICY_RELIABILITY_RELIABLE,
    QoS.DurabilityPolicy.RMW_QOS_POLICY_DURABILITY_VOLATILE,
  );
}

/** A direct-take and an ordinary raw subscription on `topic`, calling `took` with each message. */
function subscribe(
  node: Rclnodejs.Node,
  rcl: typeof Rclnodejs,
  topic: string,
  took: (take: 'direct' | 'serialized', bytes: Buffer, kind: TakeKind) => void,
): void {
  const direct = node.createSubscription(
    'sensor_msgs/msg/Image',
    topic,
    rawSubscriptionOptions(qos(rcl)),
    (m: unknown) => took('direct', Buffer.from(m as Buffer), takeKind(direct)),
  );
  const ordinary = node.createSubscription(
    'sensor_msgs/msg/Image',
    topic,
    { isRaw: true, qos: qos(rcl) },
    (m: unknown) => took('serialized', Buffer.from(m as Buffer), takeKind(ordinary)),
  );
}

/** The subscriber process: one line per message taken, `<direct|serialized> <kind> <hex>`. */
async function subscriber(topic: string): Promise<void> {
  const rcl = loadRclnodejs();
  await rcl.init();
  const node = rcl.createNode(`hostile_sub_${process.pid}`);
  subscribe(node, rcl, topic, (take, bytes, kind) =>
    process.stdout.write(`${take} ${kind} ${bytes.toString('hex')}\n`),
  );
  node.spin(5);
  process.stdout.write('ready\n');
  // Ends when its stdin closes, saying so: a crash shows as a missing 'bye'.
  process.stdin.resume();
  process.stdin.on('end', () => {
    process.stdout.write('bye\n');
    node.destroy();
    rcl.shutdown();
    process.exit(0);
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main(): Promise<void> {
  const topic = `/hostile_payload_${process.pid}`;
  const child = spawn(process.execPath, [__filename, 'sub', topic], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let answered = false;
  const other: { take: 'direct' | 'serialized'; kind: TakeKind; bytes: Buffer }[] = [];
  let ready = false;
  createInterface({ input: child.stdout }).on('line', (line) => {
    if (line === 'ready') ready = true;
    else if (line === 'bye') answered = true;
    else {
      const [take, kind, h] = line.split(' ') as ['direct' | 'serialized', TakeKind, string];
      other.push({ take, kind, bytes: Buffer.from(h ?? '', 'hex') });
    }
  });
  const exited = new Promise<string>((resolve) =>
    child.on('exit', (code, signal) => resolve(signal ?? `exit ${code}`)),
  );

  const rcl = loadRclnodejs();
  await rcl.init();
  const node = rcl.createNode(`hostile_pub_${process.pid}`);
  const same: { take: 'direct' | 'serialized'; kind: TakeKind; bytes: Buffer }[] = [];
  subscribe(node, rcl, topic, (take, bytes, kind) => same.push({ take, kind, bytes }));
  const main = node.createPublisher('sensor_msgs/msg/Image', topic, { qos: qos(rcl) });
  const own = node.createPublisher('sensor_msgs/msg/Image', topic, { qos: qos(rcl) });
  node.spin(5);
  const deadline = Date.now() + 30_000;
  while (!ready || matchedSubscriptions(main) < 4 || matchedSubscriptions(own) < 4) {
    if (Date.now() > deadline) throw new Error('the subscriptions did not match in 30 s');
    await sleep(50);
  }
  await sleep(500);

  const takers: Record<Taker, (typeof same)[number][]> = {
    'same process direct': [],
    'same process serialized': [],
    'other process direct': [],
    'other process serialized': [],
  };
  const takes = {} as Record<Taker, TakeKind>;
  const drain = (): void => {
    for (const [where, list] of [
      ['same', same],
      ['other', other],
    ] as const) {
      for (const m of list.splice(0)) {
        const t: Taker = `${where} process ${m.take}`;
        takers[t].push(m);
        takes[t] = m.kind;
      }
    }
  };
  const taken: HostileProbeResult['taken'] = {};
  const markerArrived: Record<string, boolean> = {};
  const markersNeeded: Record<string, number> = {};
  let n = 0;
  for (const step of STEPS) {
    for (const p of step.payloads) (step.writer === 'own' ? own : main).publish(hex(p) as never);
    const first = n;
    const arrived = (t: Taker): boolean =>
      takers[t].some((m) => m.bytes.subarray(0, marker(first).length).equals(marker(first)));
    const stop = Date.now() + 20_000;
    let published = 0;
    do {
      main.publish(marker(n++) as never);
      published++;
      await sleep(100);
      drain();
    } while (!(Object.keys(takers) as Taker[]).every(arrived) && Date.now() < stop);
    markerArrived[step.name] = (Object.keys(takers) as Taker[]).every(arrived);
    markersNeeded[step.name] = published;
    taken[step.name] = Object.fromEntries(
      (Object.keys(takers) as Taker[]).map((t) => {
        const list = takers[t].splice(0);
        const upTo = list.findIndex((m) =>
          m.bytes.subarray(0, marker(first).length).equals(marker(first)),
        );
        return [
          t,
          list.slice(0, upTo < 0 ? list.length : upTo).map((m) => m.bytes.toString('hex')),
        ];
      }),
    ) as Record<Taker, string[]>;
    // Markers after the first that arrived late belong to no step.
    await sleep(200);
    drain();
    for (const t of Object.keys(takers) as Taker[]) takers[t].length = 0;
  }
  child.stdin.end();
  const how = await exited;
  const subscriberEnd = answered ? how : `${how}, before the end of the run`;
  const result: HostileProbeResult = { takes, taken, markerArrived, markersNeeded, subscriberEnd };
  process.stdout.write(`${JSON.stringify(result)}\n`);
  node.destroy();
  rcl.shutdown();
}

if (require.main === module) {
  const run = process.argv[2] === 'sub' ? subscriber(process.argv[3] ?? '') : main();
  run.catch((e: unknown) => {
    process.stderr.write(`hostilePayloadProbe: ${e instanceof Error ? e.stack : String(e)}\n`);
    process.exit(1);
  });
}
