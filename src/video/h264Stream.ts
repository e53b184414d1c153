import { percentile } from '../util/percentile';
import type { ChosenEncoder } from './encoderChoice';
import type {
  EncodedPacket,
  NativeEncoderOptions,
  NativeVideoEncoder,
  VideoCodec,
} from './videoAddon';

/** The live video parameters (read at each offer). */
export interface VideoSettings {
  readonly bitrateKbps: number;
  /** Longest time between IDRs. */
  readonly keyframeIntervalS: number;
  /** The rate the encoder's rate control plans for (the annotated rate cap, else 30). */
  readonly frameRate: number;
}

/** What the stream needs from its node: opening encoders, publishing, logging, a clock. */
export interface H264StreamHost<C> {
  /** Throws when the codec cannot open (a device gone, a library without it). */
  open(codec: VideoCodec, options: NativeEncoderOptions): NativeVideoEncoder;
  /** False when the host held the packet back (it then asked for an IDR): not counted as sent. */
  publish(packet: EncodedPacket, context: C): boolean;
  warn(line: string): void;
  /** ms, monotonic. */
  now(): number;
}

export interface H264StreamStats {
  /** What encodes now (a hardware encoder that failed is replaced by the software one). */
  readonly encoder: string;
  readonly encoderLibrary: string;
  readonly hardware: boolean;
  readonly frames: number;
  readonly keyframes: number;
  readonly bytes: number;
  /** Pictures replaced by a newer one while the encoder was busy (never a detection). */
  readonly dropped: number;
  readonly failures: number;
  /** Hardware encoders given up for the software one. */
  readonly fallbacks: number;
  /** Encoders opened (the first, and again after a size, bitrate or encoder change). */
  readonly opened: number;
  readonly lastError: string;
  /** CPU ms of conversion + encoding per frame, over the last 300 frames. */
  readonly cpuMsP50: number;
  readonly cpuMsP95: number;
}

interface Job<C> {
  readonly rgb: Uint8Array;
  readonly width: number;
  readonly height: number;
  readonly context: C;
}

interface OpenEncoder {
  readonly encoder: NativeVideoEncoder;
  readonly key: string;
  readonly library: string;
  /** The picture rate its rate control plans for now. */
  rate: number;
  /** Pictures encoded since it opened. */
  pictures: number;
}

/**
 * Pictures measured (since the measurement began, and since the encoder opened) before an encoder
 * that cannot be told a new rate is reopened for one.
 */
const REOPEN_AFTER = 10;
/** A gap longer than this is a pause (nobody watched, the camera stopped), not a picture rate. */
const PAUSE_MS = 1000;

/** How far the measured picture rate may drift from the planned one before the encoder is told. */
const RATE_DRIFT = 0.2;
/** Weight of the newest interval in the measured rate. */
const RATE_SMOOTHING = 0.2;

const RECENT = 300;
/** Frames whose packets have not come out yet: more means the encoder lost them. */
const MAX_PENDING_CONTEXTS = 64;

/**
 * The operators' H.264 stream: annotated pictures in, one Annex B access unit per picture out,
 * encoded on the addon's worker thread. `offer` never waits: while a picture is being encoded only
 * the newest is kept (the others are counted as dropped), so a slow encoder lowers the video's
 * rate, never the detections'. An IDR goes out on request (a viewer joined, a setting changed)
 * and at least every keyframe interval. A hardware encoder that fails is replaced by the software
 * one, once, with one warning.
 */
export class H264Stream<C> {
  private current: OpenEncoder | undefined;
  private pending: Job<C> | undefined;
  private busy: Promise<void> | undefined;
  private keyframeWanted = true;
  private lastKeyframeAt = -Infinity;
  private lastPts = 0;
  /** When the last picture was encoded, and the smoothed interval between pictures (ms). */
  private lastEncodeAt: number | undefined;
  private intervalMs: number | undefined;
  /** Intervals in the measurement since it (re)started. */
  private intervals = 0;
  /** The measured rate an encoder that cannot change its own is reopened with. */
  private reopenRate: number | undefined;
  private readonly contexts = new Map<number, C>();
  private readonly cpuMs: number[] = [];
  private chosen: ChosenEncoder;
  private warnedFailure = false;
  private counts = {
    frames: 0,
    keyframes: 0,
    bytes: 0,
    dropped: 0,
    failures: 0,
    fallbacks: 0,
    opened: 0,
    lastError: '',
  };

  constructor(
    private readonly host: H264StreamHost<C>,
    chosen: ChosenEncoder,
    private readonly software: ChosenEncoder,
    private readonly settings: () => VideoSettings,
  ) {
    this.chosen = chosen;
  }

  get encoder(): ChosenEncoder {
    return this.chosen;
  }

  get stats(): H264StreamStats {
    return {
      ...this.counts,
      encoder: this.chosen.label,
      encoderLibrary: this.current?.library ?? '',
      hardware: this.chosen.hardware,
      cpuMsP50: this.cpuMs.length ? percentile(this.cpuMs, 50) : 0,
      cpuMsP95: this.cpuMs.length ? percentile(this.cpuMs, 95) : 0,
    };
  }

  /** The next picture is an IDR (a viewer joined). */
  requestKeyframe(): void {
    this.keyframeWanted = true;
  }

  /** Another encoder from the next picture on (video_encoder changed), starting with an IDR. */
  choose(chosen: ChosenEncoder): void {
    this.chosen = chosen;
    this.keyframeWanted = true;
  }

  offer(rgb: Uint8Array, width: number, height: number, context: C): void {
    const job = { rgb, width, height, context };
    if (this.busy) {
      if (this.pending) this.counts.dropped++;
      this.pending = job;
      return;
    }
    this.busy = this.drain(job);
  }

  /** Resolves when no picture is being encoded. */
  async idle(): Promise<void> {
    this.pending = undefined;
    await this.busy;
  }

  /** Frees the encoder (after the picture in flight). */
  async close(): Promise<void> {
    await this.idle();
    this.current?.encoder.close();
    this.current = undefined;
    this.contexts.clear();
  }

  private async drain(first: Job<C>): Promise<void> {
    try {
      for (let job: Job<C> | undefined = first; job; job = this.takePending()) {
        await this.encode(job);
      }
    } finally {
      this.busy = undefined;
    }
  }

  private takePending(): Job<C> | undefined {
    const job = this.pending;
    this.pending = undefined;
    return job;
  }

  private async encode(job: Job<C>): Promise<void> {
    const s = this.settings();
    const now = this.host.now();
    let encoder: OpenEncoder;
    try {
      encoder = this.encoderFor(job, s);
    } catch (e) {
      this.fail(e);
      return;
    }
    this.followRate(encoder, now);
    const forceIdr = this.keyframeWanted || now - this.lastKeyframeAt >= s.keyframeIntervalS * 1000;
    // Strictly increasing whole milliseconds: encoders need rising pts; camera stamps can repeat
    // or go back (a restarted camera, simulated time).
    const pts = Math.max(this.lastPts + 1, Math.round(now));
    this.lastPts = pts;
    this.contexts.set(pts, job.context);
    if (this.contexts.size > MAX_PENDING_CONTEXTS) {
      this.contexts.delete(this.contexts.keys().next().value as number);
    }
    if (forceIdr) {
      this.keyframeWanted = false;
      this.lastKeyframeAt = now;
    }
    try {
      const r = await encoder.encoder.encode(job.rgb, pts, forceIdr);
      this.cpuMs.push(r.cpuMs);
      if (this.cpuMs.length > RECENT) this.cpuMs.shift();
      for (const p of r.packets) this.publish(p);
    } catch (e) {
      this.fail(e);
    }
  }

  private publish(p: EncodedPacket): void {
    const context = this.contexts.get(p.pts);
    if (context === undefined) return;
    this.contexts.delete(p.pts);
    if (!this.host.publish(p, context)) return;
    this.counts.frames++;
    this.counts.bytes += p.data.length;
    if (p.keyframe) this.counts.keyframes++;
  }

  /**
   * Rate control plans each picture's bits as bitrate / rate: pictures come as fast as results do
   * (a slow model, a rate cap, a camera below it), not at the rate the encoder opened with, and
   * OpenH264 spent 300 of 500 kbit/s when planned for 30 Hz and fed 10. The measured rate is told
   * to the encoder when it drifts by a fifth.
   */
  private followRate(encoder: OpenEncoder, now: number): void {
    const interval = this.lastEncodeAt === undefined ? undefined : now - this.lastEncodeAt;
    this.lastEncodeAt = now;
    encoder.pictures++;
    if (interval === undefined || interval > PAUSE_MS || !(interval > 0)) {
      // A pause says nothing of the rate pictures come at once they flow again: start over.
      this.intervalMs = undefined;
      this.intervals = 0;
      return;
    }
    this.intervalMs =
      this.intervalMs === undefined
        ? interval
        : this.intervalMs + RATE_SMOOTHING * (interval - this.intervalMs);
    this.intervals++;
    const measured = 1000 / this.intervalMs;
    if (Math.abs(measured - encoder.rate) <= RATE_DRIFT * encoder.rate) return;
    if (encoder.encoder.setFrameRate(measured)) {
      encoder.rate = measured;
    } else if (encoder.pictures >= REOPEN_AFTER && this.intervals >= REOPEN_AFTER) {
      // libavcodec's encoders (x264, V4L2) plan from the rate they opened with: the next picture
      // opens one with the measured rate (and an IDR), once the measurement has settled.
      this.reopenRate = measured;
    }
  }

  /** The open encoder if it suits the picture and settings, else a new one. */
  private encoderFor(job: Job<C>, s: VideoSettings): OpenEncoder {
    const options: NativeEncoderOptions = {
      codec: this.chosen.codec,
      width: job.width,
      height: job.height,
      bitrateKbps: s.bitrateKbps,
      frameRate: Math.min(240, Math.max(1, Math.round(this.reopenRate ?? s.frameRate))),
    };
    const key = JSON.stringify(options);
    if (this.current?.key === key) return this.current;
    this.current?.encoder.close();
    this.current = undefined;
    this.contexts.clear();
    const encoder = this.host.open(options.codec, options);
    this.current = {
      encoder,
      key,
      library: encoder.describe(),
      rate: options.frameRate,
      pictures: 0,
    };
    this.counts.opened++;
    this.keyframeWanted = true;
    return this.current;
  }

  /**
   * An encoder that failed is closed; a hardware one is given up for the software encoder (one
   * warning), a software one is opened again on the next picture (warned once per stream).
   */
  private fail(e: unknown): void {
    const message = e instanceof Error ? e.message : String(e);
    this.counts.failures++;
    this.counts.lastError = message;
    this.current?.encoder.close();
    this.current = undefined;
    this.contexts.clear();
    this.keyframeWanted = true;
    if (this.chosen.hardware) {
      this.host.warn(
        `video: the ${this.chosen.label} encoder failed (${message}); falling back to ${this.software.label}`,
      );
      this.chosen = { ...this.software, reason: `fell back from ${this.chosen.label}: ${message}` };
      this.counts.fallbacks++;
    } else if (!this.warnedFailure) {
      this.warnedFailure = true;
      this.host.warn(
        `video: ${this.chosen.label} failed (${message}); it is opened again for the next picture (further failures are counted in the diagnostics)`,
      );
    }
  }
}
