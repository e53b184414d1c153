import type { Frame } from '../core/frame';
import type { Annotation } from './annotationTypes';
import { renderAnnotatedScaled, renderAnnotatedSized } from './renderAnnotated';
import { DRAWABLE_ENCODINGS, toRgbImage } from './toRgbImage';

/**
 * Where rendered pictures go; each is asked for only while someone watches it. The context of an
 * offer (the node puts the image header there) reaches the sink untouched.
 */
export interface AnnotatedSinks<C> {
  wantsJpeg(): boolean;
  wantsRaw(): boolean;
  publishJpeg(jpeg: Buffer, context: C): void;
  publishRaw(rgb: Buffer, width: number, height: number, context: C): void;
  /** The video stream, when the node has one. */
  readonly video?: AnnotatedVideoSink<C>;
}

/** Where rgb8 pictures go to be encoded as video (it never makes the stream wait). */
export interface AnnotatedVideoSink<C> {
  wanted(): boolean;
  /** The picture size for a camera image of this size. */
  size(sourceWidth: number, sourceHeight: number): { width: number; height: number };
  offer(rgb: Buffer, width: number, height: number, context: C): void;
}

/** The bandwidth bounds, read at each offer so they can change while the node runs. */
export interface AnnotatedStreamOptions {
  readonly jpegQuality: number;
  /** Most pictures per second; 0: one per offer. */
  readonly annotatedMaxRateHz: number;
  /** Wider pictures are scaled down to this width; 0: never. */
  readonly annotatedMaxWidth: number;
}

export interface AnnotatedStreamStats {
  readonly rendered: number;
  /** Offers replaced by a newer one before the renderer got to them. */
  readonly skipped: number;
  /** Offers nobody watched: nothing was drawn. */
  readonly unwatched: number;
  /** Offers refused by annotated_max_rate_hz. */
  readonly rateLimited: number;
  readonly failed: number;
  readonly lastError: string;
}

/**
 * The operators' picture, drawn beside inference instead of inside it: `offer` never waits. While
 * a picture is being drawn and encoded, only the newest offer is kept; the renderer picks it up
 * when it is free. So a watcher lowers the picture's rate, never the detections'.
 */
export class AnnotatedStream<C> {
  private pending: { frame: Frame; annotation: () => Annotation; context: C } | undefined;
  private busy: Promise<void> | undefined;
  private counts = {
    rendered: 0,
    skipped: 0,
    unwatched: 0,
    rateLimited: 0,
    failed: 0,
    lastError: '',
  };
  /** When the next picture is due under the rate bound (ms, the `now` clock). */
  private nextDue: number | undefined;

  constructor(
    private readonly sinks: AnnotatedSinks<C>,
    private readonly options: () => AnnotatedStreamOptions,
    private readonly onUndrawable: (encoding: string) => void,
    private readonly now: () => number = () => performance.now(),
  ) {}

  get stats(): AnnotatedStreamStats {
    return { ...this.counts };
  }

  /** `annotation` is only built if the picture is really drawn. */
  offer(frame: Frame, annotation: () => Annotation, context: C): void {
    // Each is asked, so each view counts its own unwatched offers (and the video sees joins).
    const jpeg = this.sinks.wantsJpeg();
    const raw = this.sinks.wantsRaw();
    const video = this.sinks.video?.wanted() ?? false;
    if (!jpeg && !raw && !video) {
      this.counts.unwatched++;
      return;
    }
    if (!DRAWABLE_ENCODINGS.has(frame.encoding)) {
      this.onUndrawable(frame.encoding);
      return;
    }
    if (!this.due()) {
      this.counts.rateLimited++;
      return;
    }
    if (this.pending) this.counts.skipped++;
    this.pending = { frame, annotation, context };
    // Deferred so the inference loop hands its next frame to the engine before any drawing
    // (the colour conversion runs on this thread; encoding runs on sharp's threads).
    this.busy ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.drain());
  }

  /**
   * Whether a picture may go out now under annotated_max_rate_hz. The schedule advances by whole
   * periods (so a camera at exactly the bound keeps its rate despite jitter) and restarts after a
   * pause, never saving up a burst.
   */
  private due(): boolean {
    const hz = this.options().annotatedMaxRateHz;
    if (!(hz > 0)) return true;
    const period = 1000 / hz;
    const now = this.now();
    if (this.nextDue !== undefined && now < this.nextDue - 0.1 * period) return false;
    const base = this.nextDue === undefined || now - this.nextDue > period ? now : this.nextDue;
    this.nextDue = base + period;
    return true;
  }

  /** Resolves when nothing is being drawn (deactivate and shutdown wait for it). */
  async idle(): Promise<void> {
    this.pending = undefined;
    await this.busy;
  }

  private async drain(): Promise<void> {
    try {
      for (let job = this.take(); job; job = this.take()) {
        try {
          await this.render(job.frame, job.annotation(), job.context);
          this.counts.rendered++;
        } catch (e) {
          this.counts.failed++;
          this.counts.lastError = e instanceof Error ? e.message : String(e);
        }
      }
    } finally {
      this.busy = undefined;
    }
  }

  private take(): typeof this.pending {
    const job = this.pending;
    this.pending = undefined;
    return job;
  }

  private async render(frame: Frame, annotation: Annotation, context: C): Promise<void> {
    const rgb = toRgbImage(frame);
    const o = this.options();
    if (this.sinks.wantsJpeg()) {
      const jpeg = await renderAnnotatedScaled(
        rgb,
        annotation,
        'jpeg',
        o.jpegQuality,
        o.annotatedMaxWidth,
      );
      this.sinks.publishJpeg(jpeg.data, context);
    }
    let raw: { data: Buffer; width: number; height: number } | undefined;
    if (this.sinks.wantsRaw()) {
      raw = await renderAnnotatedScaled(rgb, annotation, 'rgb8', 0, o.annotatedMaxWidth);
      this.sinks.publishRaw(raw.data, raw.width, raw.height, context);
    }
    const video = this.sinks.video;
    if (video?.wanted()) {
      const { width, height } = video.size(rgb.width, rgb.height);
      const picture =
        raw && raw.width === width && raw.height === height
          ? raw.data
          : await renderAnnotatedSized(rgb, annotation, width, height);
      video.offer(picture, width, height, context);
    }
  }
}
