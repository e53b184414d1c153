import type { Frame } from '../engine/engineSession';
import type { Annotation } from './annotationTypes';
import { renderAnnotated } from './renderAnnotated';
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
}

export interface AnnotatedStreamStats {
  readonly rendered: number;
  /** Offers replaced by a newer one before the renderer got to them. */
  readonly skipped: number;
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
  private counts = { rendered: 0, skipped: 0, failed: 0, lastError: '' };

  constructor(
    private readonly sinks: AnnotatedSinks<C>,
    private readonly jpegQuality: () => number,
    private readonly onUndrawable: (encoding: string) => void,
  ) {}

  get stats(): AnnotatedStreamStats {
    return { ...this.counts };
  }

  /** `annotation` is only built if the picture is really drawn. */
  offer(frame: Frame, annotation: () => Annotation, context: C): void {
    if (!this.sinks.wantsJpeg() && !this.sinks.wantsRaw()) return;
    if (!DRAWABLE_ENCODINGS.has(frame.encoding)) {
      this.onUndrawable(frame.encoding);
      return;
    }
    if (this.pending) this.counts.skipped++;
    this.pending = { frame, annotation, context };
    // Deferred so the inference loop hands its next frame to the engine before any drawing
    // (the colour conversion runs on this thread; encoding runs on sharp's threads).
    this.busy ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.drain());
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
    if (this.sinks.wantsJpeg()) {
      const jpeg = await renderAnnotated(rgb, annotation, 'jpeg', this.jpegQuality());
      this.sinks.publishJpeg(jpeg, context);
    }
    if (this.sinks.wantsRaw()) {
      const raw = await renderAnnotated(rgb, annotation, 'rgb8');
      this.sinks.publishRaw(raw, rgb.width, rgb.height, context);
    }
  }
}
