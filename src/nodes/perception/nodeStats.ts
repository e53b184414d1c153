import { percentileOfSorted } from '../../util/percentile';

/**
 * A frame's path through the node, in order, in ms. Always timed: a dozen performance.now() reads
 * per frame (well under a microsecond in all) against runs of milliseconds, and a stage that is
 * only timed on request is the one nobody has figures for when a robot misses its budget.
 *  - dds_in: image stamp -> our subscription callback (publisher's serialization, DDS, executor);
 *    stamp_to_publish minus the node's own part, so it needs no second clock;
 *  - intake: callback -> mailbox (CDR header parse and checks; pixels are a view, not a copy);
 *  - mailbox_wait: mailbox -> the run loop takes the frame (queueing behind the frame in flight);
 *  - decode: JPEG decode for compressed input (0 for raw);
 *  - engine_queue: run() -> a libuv worker picks it up;
 *  - preprocess, inference: the addon's fused preprocessing and ONNX Runtime's Run;
 *  - engine_return: the rest of the engine call (output tensors to JS, promise resolution);
 *  - head: decoding and NMS;
 *  - message_build: result message objects (and label images);
 *  - publish: rclnodejs serialization and the DDS write;
 *  - stamp_to_publish: image stamp -> publish returned (ROS clock);
 *  - callback_to_publish: our subscription callback -> publish returned: the node's own span, what
 *    the CPU pays per frame on top of what any rclnodejs subscriber pays (one sample per frame, so
 *    its p50 is a real frame's, not a sum of the stages' p50s);
 *  - depth: (depth: true) pairing, placing the result in space, building and publishing the 3D
 *    messages, after the 2D ones went out.
 */
export const STAGES = [
  'dds_in',
  'intake',
  'mailbox_wait',
  'decode',
  'engine_queue',
  'preprocess',
  'inference',
  'engine_return',
  'head',
  'message_build',
  'publish',
  'stamp_to_publish',
  'callback_to_publish',
  'depth',
] as const;
export type Stage = (typeof STAGES)[number];

const WINDOW = 300;

/** How a frame's size and encoding compare with the previous frame's. */
export type FormatChange = 'first' | 'same' | 'resized' | 'reencoded';

/** The last WINDOW samples of a stage, in ms: enough for a stable p95 at camera rates. */
class Samples {
  private readonly values: number[] = [];
  private next = 0;
  /** The values sorted, kept until the next sample: the report reads p50 and p95 in a row. */
  private sorted: Float64Array | undefined;

  add(ms: number): void {
    if (!Number.isFinite(ms)) return;
    if (this.values.length < WINDOW) this.values.push(ms);
    else this.values[this.next] = ms;
    this.next = (this.next + 1) % WINDOW;
    this.sorted = undefined;
  }

  p(q: number): number {
    this.sorted ??= Float64Array.from(this.values).sort();
    return percentileOfSorted(this.sorted, q);
  }

  clear(): void {
    this.values.length = 0;
    this.next = 0;
    this.sorted = undefined;
  }
}

/** Counters and stage timings of one perception node, read by its diagnostics. */
export class NodeStats {
  /** Frames handed to this node (camera or person source). */
  received = 0;
  processed = 0;
  published = 0;
  failed = 0;
  lastFailure = '';
  readonly errorsByKind = new Map<string, number>();
  /** The newest frame's `WIDTHxHEIGHT encoding` ('' before the first), and how often it changed. */
  inputFormat = '';
  inputFormatChanges = 0;
  private format = { width: 0, height: 0, encoding: '' };
  private readonly stages = new Map<Stage, Samples>(STAGES.map((s) => [s, new Samples()]));
  private last = { at: performance.now(), received: 0, published: 0 };

  sample(stage: Stage, ms: number): void {
    this.stages.get(stage)!.add(ms);
  }

  fail(kind: string, message: string): void {
    this.failed++;
    this.lastFailure = message;
    this.errorsByKind.set(kind, (this.errorsByKind.get(kind) ?? 0) + 1);
  }

  /**
   * Notes a frame's size and encoding, and says how they differ from the previous frame's
   * (`first` for the first frame). Compared as numbers: the text is built only when they change.
   */
  noteFormat(width: number, height: number, encoding: string): FormatChange {
    const f = this.format;
    if (f.width === width && f.height === height && f.encoding === encoding) return 'same';
    const change: FormatChange =
      f.encoding === ''
        ? 'first'
        : f.width !== width || f.height !== height
          ? 'resized'
          : 'reencoded';
    this.format = { width, height, encoding };
    this.inputFormat = `${width}x${height} ${encoding}`;
    if (change !== 'first') this.inputFormatChanges++;
    return change;
  }

  percentile(stage: Stage, q: number): number {
    return this.stages.get(stage)!.p(q);
  }

  /** Input and output rates since the previous call (so they describe the stream now). */
  rates(): { inputHz: number; outputHz: number } {
    const now = performance.now();
    const dt = Math.max(1e-3, (now - this.last.at) / 1000);
    const r = {
      inputHz: (this.received - this.last.received) / dt,
      outputHz: (this.published - this.last.published) / dt,
    };
    this.last = { at: now, received: this.received, published: this.published };
    return r;
  }

  /** Timings of a new configuration should not mix with the old one's. */
  clearTimings(): void {
    for (const s of this.stages.values()) s.clear();
  }
}
