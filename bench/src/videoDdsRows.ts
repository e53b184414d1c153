import type * as Rclnodejs from 'rclnodejs';
import { CdrReader, percentile, readHeader, stampMs } from '../../src/index';
import { startBenchNode, startFramePublisher } from './benchProcesses';
import type { LineProcess } from './lineProcess';
import { readProcessUsage } from './processUsage';
import type { VideoCodec } from './videoCodecRows';
import { wallMs } from './graphTime';

export const DDS_NODE = 'video_bench';
const TOPIC = '/video_bench/image';

/** One phase over DDS: what the node did while nobody, a JPEG viewer or a video viewer watched. */
export interface DdsRow {
  readonly size: string;
  readonly rate_hz: number;
  /** 'none' (detections only), or the codec the viewer subscribed to. */
  readonly viewer: string;
  readonly seconds: number;
  readonly detections_hz: number;
  readonly detection_latency_ms_p50: number;
  readonly detection_latency_ms_p95: number;
  readonly view_hz: number;
  /** Camera stamp -> the view's message received here. */
  readonly view_latency_ms_p50: number;
  readonly view_latency_ms_p95: number;
  readonly view_kbytes_per_s: number;
  /** The node process's user + system CPU per camera frame it published detections for. */
  readonly node_cpu_ms_per_frame: number;
  /** The node's own figure for the H.264 encoder (addon worker thread), '' for other phases. */
  readonly video_encode_cpu_ms_p50: number | '';
  /** Pictures the encoder was too busy for, over the phase. */
  readonly video_dropped: number | '';
  /** Pictures encoded over the phase (0 while nobody watches the video). */
  readonly video_frames: number;
}

const round = (v: number, d = 2): number => Math.round(v * 10 ** d) / 10 ** d;

/** This process in the graph: raw subscriptions that read only headers, the node's diagnostics. */
class Watcher {
  private diagnostics = new Map<string, string>();
  private diagnosticsSeen = 0;

  constructor(private readonly node: Rclnodejs.Node) {
    node.createSubscription('diagnostic_msgs/msg/DiagnosticArray', '/diagnostics', (m) => {
      for (const s of (m as Rclnodejs.diagnostic_msgs.msg.DiagnosticArray).status) {
        if (s.hardware_id.replace(/^\//, '') !== DDS_NODE) continue;
        this.diagnostics = new Map(s.values.map((kv) => [kv.key, kv.value]));
        this.diagnosticsSeen++;
      }
    });
  }

  /** Latency (arrival - stamp) and size of each message on `topic` until stopped. */
  record(
    type:
      | 'vision_msgs/msg/Detection2DArray'
      | 'sensor_msgs/msg/CompressedImage'
      | 'foxglove_msgs/msg/CompressedVideo',
    topic: string,
  ): { latencies: number[]; bytes: number[]; stop: () => void } {
    const latencies: number[] = [];
    const bytes: number[] = [];
    // A CompressedVideo begins as a Header does (Time, then frame_id): one reader for all three.
    const sub = this.node.createSubscription(type, topic, { isRaw: true }, (m: unknown) => {
      const at = wallMs();
      const buf = m as Buffer;
      latencies.push(at - stampMs(readHeader(new CdrReader(buf)).stamp));
      bytes.push(buf.length);
    });
    return { latencies, bytes, stop: () => this.node.destroySubscription(sub) };
  }

  /** The node's diagnostics from a message published after this call. */
  async freshDiagnostics(): Promise<Map<string, string>> {
    const target = this.diagnosticsSeen + 2;
    const until = Date.now() + 10_000;
    while (this.diagnosticsSeen < target) {
      if (Date.now() > until) throw new Error(`no diagnostics from ${DDS_NODE}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    return this.diagnostics;
  }
}

/** Sets parameters of the measured node through its SetParameters service. */
async function setParameters(
  node: Rclnodejs.Node,
  values: Readonly<Record<string, number | string>>,
): Promise<void> {
  const client = node.createClient(
    'rcl_interfaces/srv/SetParameters',
    `/${DDS_NODE}/set_parameters`,
  );
  try {
    if (!(await client.waitForService(10_000))) throw new Error('no set_parameters service');
    // rcl_interfaces/ParameterType: INTEGER = 2, STRING = 4.
    const parameters = Object.entries(values).map(([name, v]) => ({
      name,
      value:
        typeof v === 'string'
          ? { type: 4, string_value: v }
          : { type: 2, integer_value: BigInt(v) },
    }));
    const reply = (await client.sendRequestAsync({ parameters } as never)) as {
      results: { successful: boolean; reason: string }[];
    };
    const refused = reply.results.find((r) => !r.successful);
    if (refused) throw new Error(`set_parameters refused: ${refused.reason}`);
  } finally {
    node.destroyClient(client);
  }
}

/**
 * Every phase at one size, on one node process (the HTP stand-in, so the node keeps up with 30 Hz
 * and only the views' work differs): per rate, nobody watching, a JPEG viewer, a video viewer at
 * each bitrate, then nobody again (the drift of the machine over the rate's phases).
 */
export async function ddsRows(
  node: Rclnodejs.Node,
  size: readonly [number, number],
  frames: readonly string[],
  standinManifest: string,
  rates: readonly number[],
  codecs: readonly VideoCodec[],
  seconds: number,
): Promise<DdsRow[]> {
  const [w, h] = size;
  const watcher = new Watcher(node);
  const perception = startBenchNode(DDS_NODE, TOPIC, {
    model: standinManifest,
    precision: 'int8',
    threads: '1',
    annotated_max_rate_hz: '30.0',
  });
  const rows: DdsRow[] = [];
  let cam: LineProcess | undefined;
  try {
    await perception.printed(/encodes with (.*), while subscribed/, 120_000);
    cam = startFramePublisher(TOPIC, w, h, frames);
    await cam.nextLine(/^ready$/, 60_000);
    for (const rate of rates) {
      const viewers: (VideoCodec | undefined)[] = [undefined, ...codecs, undefined];
      for (const viewer of viewers) {
        if (viewer?.kind === 'h264') {
          await setParameters(node, {
            video_bitrate_kbps: viewer.bitrateKbps,
            video_encoder: viewer.encoder,
          });
        }
        if (viewer?.kind === 'jpeg') await setParameters(node, { jpeg_quality: viewer.quality });
        rows.push(await phase(watcher, cam, perception.pid, `${w}x${h}`, rate, viewer, seconds));
        const r = rows[rows.length - 1]!;
        process.stderr.write(
          `${r.size} ${rate} Hz ${r.viewer}: detections ${r.detections_hz} Hz p50 ${r.detection_latency_ms_p50} ms, view ${r.view_hz} Hz p50 ${r.view_latency_ms_p50} ms ${r.view_kbytes_per_s} kB/s, node ${r.node_cpu_ms_per_frame} ms/frame\n`,
        );
      }
    }
    cam.send('quit');
  } finally {
    await cam?.stop();
    await perception.stop();
  }
  return rows;
}

async function phase(
  watcher: Watcher,
  cam: LineProcess,
  pid: number,
  size: string,
  rate: number,
  viewer: VideoCodec | undefined,
  seconds: number,
): Promise<DdsRow> {
  const view = viewer
    ? viewer.kind === 'jpeg'
      ? watcher.record('sensor_msgs/msg/CompressedImage', `/${DDS_NODE}/annotated/compressed`)
      : watcher.record('foxglove_msgs/msg/CompressedVideo', `/${DDS_NODE}/annotated/foxglove`)
    : undefined;
  // Discovery, and the viewer's first picture (a video viewer's IDR), before the window opens.
  cam.send(`rate ${rate} 2`);
  await cam.nextLine(/^done /, 30_000);
  const before = await watcher.freshDiagnostics();
  const detections = watcher.record('vision_msgs/msg/Detection2DArray', `/${DDS_NODE}/detections`);
  if (view) {
    view.latencies.length = 0;
    view.bytes.length = 0;
  }
  const cpuBefore = readProcessUsage(pid).cpuS;
  cam.send(`rate ${rate} ${seconds}`);
  await cam.nextLine(/^done /, seconds * 1000 + 30_000);
  const cpuS = readProcessUsage(pid).cpuS - cpuBefore;
  // The last frame's messages are at most a frame behind.
  await new Promise((r) => setTimeout(r, 300));
  detections.stop();
  view?.stop();
  const after = await watcher.freshDiagnostics();
  const delta = (key: string): number => Number(after.get(key) ?? 0) - Number(before.get(key) ?? 0);
  const n = detections.latencies.length;
  const v = view?.latencies ?? [];
  const encodeCpu = Number(after.get('video_encode_cpu_ms_p50'));
  return {
    size,
    rate_hz: rate,
    viewer: viewer?.name ?? 'none',
    seconds,
    detections_hz: round(n / seconds),
    detection_latency_ms_p50: round(percentile(detections.latencies, 50)),
    detection_latency_ms_p95: round(percentile(detections.latencies, 95)),
    view_hz: round(v.length / seconds),
    view_latency_ms_p50: v.length ? round(percentile(v, 50)) : 0,
    view_latency_ms_p95: v.length ? round(percentile(v, 95)) : 0,
    view_kbytes_per_s: round((view?.bytes ?? []).reduce((a, b) => a + b, 0) / seconds / 1000, 1),
    node_cpu_ms_per_frame: n ? round((cpuS * 1000) / n) : 0,
    video_encode_cpu_ms_p50: viewer?.kind === 'h264' && Number.isFinite(encodeCpu) ? encodeCpu : '',
    video_dropped: viewer?.kind === 'h264' ? delta('video_dropped') : '',
    video_frames: delta('video_frames'),
  };
}
