interface Slot<T> {
  pending: T | undefined;
  /** When the pending frame's camera started waiting (its first frame not yet taken). */
  waitingSince: number;
  dropped: number;
  posted: number;
}

/** A frame taken from the mailboxes, with the camera it came from. */
export interface TakenFrame<T> {
  readonly camera: string;
  readonly item: T;
}

/**
 * The newest frame of each camera of a node, for its one run loop. A camera holds at most one
 * pending frame: a new one replaces it (counted as dropped for that camera), so a slow model
 * always works on each camera's newest image. Cameras are served oldest-waiting first: the camera
 * whose frames have waited longest since its last turn goes next. A camera that keeps replacing
 * its frame keeps its place in the queue, so a fast camera cannot push a slow one back, and under
 * load every camera with a frame is served once per round (round robin); when cameras are idle
 * in turn, a frame runs as soon as it comes.
 */
export class CameraMailboxes<T> {
  private readonly slots = new Map<string, Slot<T>>();
  private waiter: ((taken: TakenFrame<T> | undefined) => void) | undefined;
  /** A batch being filled: how many more cameras' frames end its wait early. */
  private filler: { need: number; done: () => void } | undefined;
  private closed = false;

  constructor(
    cameras: readonly string[],
    private readonly now: () => number = () => performance.now(),
  ) {
    for (const c of cameras) {
      this.slots.set(c, { pending: undefined, waitingSince: 0, dropped: 0, posted: 0 });
    }
  }

  /** Frames of `camera` replaced before they were taken. */
  dropped(camera: string): number {
    return this.slots.get(camera)?.dropped ?? 0;
  }

  get droppedTotal(): number {
    let n = 0;
    for (const s of this.slots.values()) n += s.dropped;
    return n;
  }

  posted(camera: string): number {
    return this.slots.get(camera)?.posted ?? 0;
  }

  post(camera: string, item: T): void {
    const slot = this.slots.get(camera);
    if (!slot) throw new Error(`CameraMailboxes: no camera '${camera}'`);
    if (this.closed) return;
    slot.posted++;
    if (this.waiter) {
      // The loop is idle: nothing else is pending, so this frame is the oldest waiting.
      const w = this.waiter;
      this.waiter = undefined;
      w({ camera, item });
      return;
    }
    if (slot.pending !== undefined) slot.dropped++;
    else slot.waitingSince = this.now();
    slot.pending = item;
    if (this.filler && this.pendingCount() >= this.filler.need) this.filler.done();
  }

  private pendingCount(): number {
    let n = 0;
    for (const s of this.slots.values()) if (s.pending !== undefined) n++;
    return n;
  }

  /**
   * Frames of up to `max` cameras for one batched run, oldest-waiting first: the first as take()
   * gives it, then what other cameras have waiting. When fewer cameras than the batch (and than
   * the node has) have a frame, waits up to `windowMs` for theirs, so unsynchronized cameras
   * still share runs; then runs with what came. [] once closed.
   */
  async takeBatch(max: number, windowMs: number): Promise<TakenFrame<T>[]> {
    const first = await this.take();
    if (!first) return [];
    const wanted = Math.min(max, this.slots.size) - 1;
    if (wanted > 0 && windowMs > 0 && this.pendingCount() < wanted) {
      await new Promise<void>((resolve) => {
        const finish = (): void => {
          clearTimeout(timer);
          this.filler = undefined;
          resolve();
        };
        const timer = setTimeout(finish, windowMs);
        this.filler = { need: wanted, done: finish };
      });
    }
    const batch = [first];
    while (batch.length < max) {
      const next = this.takeWaiting();
      if (!next) break;
      batch.push(next);
    }
    return batch;
  }

  /** The frame of the camera waiting longest, or undefined once closed. */
  take(): Promise<TakenFrame<T> | undefined> {
    const waiting = this.takeWaiting();
    if (waiting) return Promise.resolve(waiting);
    if (this.closed) return Promise.resolve(undefined);
    if (this.waiter) {
      return Promise.reject(new Error('CameraMailboxes: only one consumer may wait at a time'));
    }
    return new Promise((resolve) => {
      this.waiter = resolve;
    });
  }

  /** The pending frame of the camera waiting longest, if any, taken now. */
  private takeWaiting(): TakenFrame<T> | undefined {
    let oldest: [string, Slot<T>] | undefined;
    for (const entry of this.slots) {
      const s = entry[1];
      if (s.pending !== undefined && (!oldest || s.waitingSince < oldest[1].waitingSince)) {
        oldest = entry;
      }
    }
    if (!oldest) return undefined;
    const [camera, slot] = oldest;
    const item = slot.pending as T;
    slot.pending = undefined;
    return { camera, item };
  }

  close(): void {
    this.closed = true;
    for (const s of this.slots.values()) s.pending = undefined;
    this.filler?.done();
    const w = this.waiter;
    this.waiter = undefined;
    w?.(undefined);
  }
}
