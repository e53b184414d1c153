/**
 * pipeline_monitor <pipeline> [<pipeline> ...] [--seconds N] [--save DIR] [--contact-sheet FILE]:
 * watches perception pipelines over ROS 2 like an operator would. Per pipeline: frames with results
 * per second, latency from the image stamp to arrival, what it finds (detections per class from
 * LabelInfo, people and keypoints, segmented classes), where its models run (from its diagnostics),
 * and its annotated JPEG stream (the last frame saved to DIR/<pipeline>.jpg). With --contact-sheet
 * FILE, a PNG of the last annotated frames of every pipeline and the semantic colour view. Exit
 * code 1 when a pipeline published nothing.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type * as Rclnodejs from 'rclnodejs';
import { contactSheet, SheetTile } from '../annotate/contactSheet';
import { decodeCompressedImage } from '../ros/codecs/compressedImageCodec';
import { decodeImage } from '../ros/codecs/imageCodec';
import { makeQos } from '../ros/qosProfile';
import { loadRclnodejs, runMain } from '../ros/rosEnvironment';
import { formatTable } from '../util/formatTable';
import { percentile } from '../util/percentile';
import { printedHelp } from '../util/commandHelp';
import { stampMs } from '../ros/rosHeader';

/** Printed by --help: this file's header. */
const USAGE = `usage: node dist/src/tools/pipelineMonitor.js <pipeline> [<pipeline> ...] [--seconds N] [--save DIR]
       [--contact-sheet FILE]

pipeline_monitor: watches perception pipelines over ROS 2 like an operator would. Per pipeline:
frames with results per second, latency from the image stamp to arrival, what it finds (detections per class from LabelInfo, people and
keypoints, segmented classes), where its models run (from its diagnostics), and its annotated
JPEG stream (the last frame saved to DIR/<pipeline>.jpg). With --contact-sheet FILE, a PNG of the
last annotated frames of every pipeline and the semantic colour view. Exit code 1 when a
pipeline published nothing.`;

type Stamp = { sec: number; nanosec: number };
type Detections = Rclnodejs.vision_msgs.msg.Detection2DArray;
type Poses = Rclnodejs.htp_perception.msg.PersonPoseArray;

/** Annotated frames per pipeline on the contact sheet. */
const SHEET_FRAMES = 3;

class Watch {
  /** Result messages, one per frame: a pose model's poses and boxes of a frame count once. */
  messages = 0;
  readonly latencies: number[] = [];
  readonly finds = new Map<string, number>();
  readonly classNames = new Map<string, string>();
  jpegs = 0;
  /** The newest annotated JPEGs, oldest first. */
  readonly recentJpegs: Uint8Array[] = [];
  lastColor: { width: number; height: number; data: Uint8Array } | undefined;
  placement = '';
  inferenceP50 = '';

  /** Stamps of the newest frames counted: a pose model's frame comes as poses and boxes. */
  private readonly recentStamps = new Set<string>();

  /** One frame's result arrived (counted once however many of its topics carry it). */
  received(stamp: Stamp): void {
    const key = `${stamp.sec}.${stamp.nanosec}`;
    if (this.recentStamps.has(key)) return;
    this.recentStamps.add(key);
    if (this.recentStamps.size > 8) {
      const oldest = this.recentStamps.values().next().value;
      if (oldest !== undefined) this.recentStamps.delete(oldest);
    }
    this.messages++;
    this.latencies.push(Date.now() - stampMs(stamp));
  }

  get lastJpeg(): Uint8Array | undefined {
    return this.recentJpegs[this.recentJpegs.length - 1];
  }

  found(what: string, n = 1): void {
    this.finds.set(what, (this.finds.get(what) ?? 0) + n);
  }
}

function watchPipeline(rcl: typeof Rclnodejs, node: Rclnodejs.Node, name: string): Watch {
  const w = new Watch();
  const latched = makeQos(rcl, 'reliable', 1);
  latched.durability = rcl.QoS.DurabilityPolicy.RMW_QOS_POLICY_DURABILITY_TRANSIENT_LOCAL;
  node.createSubscription(
    'vision_msgs/msg/LabelInfo',
    `/${name}/labels`,
    { qos: latched },
    (m: unknown) => {
      for (const c of (m as Rclnodejs.vision_msgs.msg.LabelInfo).class_map) {
        w.classNames.set(String(c.class_id), c.class_name);
      }
    },
  );
  node.createSubscription('vision_msgs/msg/Detection2DArray', `/${name}/detections`, (m) => {
    const d = m as Detections;
    w.received(d.header.stamp);
    for (const det of d.detections) {
      const id = det.results[0]?.hypothesis.class_id ?? '?';
      w.found(w.classNames.get(id) ?? id);
    }
  });
  node.createSubscription('htp_perception/msg/PersonPoseArray', `/${name}/poses`, (m) => {
    const p = m as Poses;
    w.received(p.header.stamp);
    w.found('people', p.poses.length);
    w.found(
      'keypoints >= 0.5',
      p.poses.reduce((n, x) => n + x.keypoints.filter((k) => k.score >= 0.5).length, 0),
    );
  });
  node.createSubscription(
    'sensor_msgs/msg/Image',
    `/${name}/segmentation`,
    { isRaw: true },
    (buf: unknown) => {
      const img = decodeImage(buf as Buffer);
      w.received(img.header.stamp);
      const seen = new Set(img.data);
      seen.delete(0);
      w.found('frames with a non-background class', seen.size > 0 ? 1 : 0);
    },
  );
  node.createSubscription(
    'sensor_msgs/msg/CompressedImage',
    `/${name}/annotated/compressed`,
    { isRaw: true, qos: makeQos(rcl, 'sensor_data') },
    (buf: unknown) => {
      w.jpegs++;
      w.recentJpegs.push(Uint8Array.from(decodeCompressedImage(buf as Buffer).data));
      if (w.recentJpegs.length > SHEET_FRAMES) w.recentJpegs.shift();
    },
  );
  node.createSubscription(
    'sensor_msgs/msg/Image',
    `/${name}/segmentation/color`,
    { isRaw: true, qos: makeQos(rcl, 'sensor_data') },
    (buf: unknown) => {
      const img = decodeImage(buf as Buffer);
      if (img.encoding !== 'rgb8' || img.step !== img.width * 3) return;
      w.lastColor = { width: img.width, height: img.height, data: Uint8Array.from(img.data) };
    },
  );
  return w;
}

async function main(): Promise<void> {
  if (printedHelp(process.argv.slice(2), USAGE)) return;
  const args = process.argv.slice(2);
  const at = (f: string): string | undefined =>
    args.includes(f) ? args[args.indexOf(f) + 1] : undefined;
  const valued = new Set([at('--seconds'), at('--save'), at('--contact-sheet')]);
  const names = args.filter((a) => !a.startsWith('--') && !valued.has(a));
  if (names.length === 0) names.push('detector');
  const seconds = Number(at('--seconds') ?? 10);
  const save = at('--save');
  const rcl = loadRclnodejs();
  await rcl.init();
  const node = new rcl.Node('pipeline_monitor');
  const watches = new Map(names.map((n) => [n, watchPipeline(rcl, node, n)]));
  node.createSubscription('diagnostic_msgs/msg/DiagnosticArray', '/diagnostics', (m) => {
    for (const s of (m as Rclnodejs.diagnostic_msgs.msg.DiagnosticArray).status) {
      const w = watches.get(s.hardware_id.replace(/^\//, ''));
      if (!w) continue;
      const v = new Map(s.values.map((kv) => [kv.key, kv.value]));
      w.placement = v.get('nodes_by_provider') ?? '';
      w.inferenceP50 = v.get('inference_ms_p50') ?? '';
    }
  });
  node.spin();
  await new Promise((r) => setTimeout(r, seconds * 1000));
  const rows = [...watches.entries()].map(([name, w]) => ({
    pipeline: name,
    messages: w.messages,
    hz: w.messages / seconds,
    'stamp->received p50 ms': w.latencies.length ? percentile(w.latencies, 50) : NaN,
    'inference p50 ms': w.inferenceP50,
    finds: [...w.finds.entries()].map(([k, n]) => `${k} ${n}`).join(', ') || 'nothing',
    'nodes by provider': w.placement,
    jpegs: w.jpegs,
  }));
  process.stdout.write(`${formatTable(rows)}\n`);
  if (save) {
    fs.mkdirSync(save, { recursive: true });
    for (const [name, w] of watches) {
      if (!w.lastJpeg) continue;
      const file = path.join(save, `${name}.jpg`);
      fs.writeFileSync(file, w.lastJpeg);
      process.stdout.write(`last annotated frame of ${name} saved to ${file}\n`);
    }
  }
  const sheet = at('--contact-sheet');
  if (sheet) await writeContactSheet(sheet, watches);
  node.destroy();
  rcl.shutdown();
  process.exit([...watches.values()].every((w) => w.messages > 0) ? 0 : 1);
}

async function writeContactSheet(file: string, watches: Map<string, Watch>): Promise<void> {
  const tiles: SheetTile[] = [];
  for (const [name, w] of watches) {
    const n = w.recentJpegs.length;
    w.recentJpegs.forEach((jpeg, i) =>
      tiles.push({ caption: `${name}: annotated, frame -${n - 1 - i}`, image: jpeg }),
    );
    if (w.lastColor) tiles.push({ caption: `${name}: segmentation/color`, image: w.lastColor });
  }
  if (tiles.length === 0) {
    process.stdout.write('no annotated frame arrived: no contact sheet\n');
    return;
  }
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  fs.writeFileSync(file, await contactSheet(tiles));
  process.stdout.write(`contact sheet (${tiles.length} pictures) saved to ${file}\n`);
}

if (require.main === module) runMain(main);
