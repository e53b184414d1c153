import { collectYoungGarbage } from './collectGarbage';

/**
 * Frees dropped camera frames at the rate they arrive. Each frame comes in a Buffer that rclnodejs
 * allocates outside V8's heap; a node that keeps only the latest frame drops most of them, yet V8
 * collects them only when its own small heap fills, so at 30 Hz tens of megabytes of dead frames
 * sat in RSS (bench:soak). After every `everyBytes` of frames, one scavenge runs on the next turn
 * of the event loop, after the frame that triggered it has been handed on (the engine is then
 * busy on its worker thread), never inside a DDS callback.
 */
export class FrameGarbagePacer {
  private pending = 0;
  private scheduled = false;
  collections = 0;

  constructor(
    private readonly everyBytes: number,
    private readonly collect: () => void = collectYoungGarbage,
  ) {}

  /** A frame of `bytes` arrived and was handed on. */
  received(bytes: number): void {
    this.pending += bytes;
    if (this.pending < this.everyBytes || this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.pending = 0;
      this.collections++;
      this.collect();
    });
  }
}

/** One per process: every intake's frames count towards the same collections. */
export const framePacer = new FrameGarbagePacer(4 * 1024 * 1024);
