/**
 * Holds at most one pending frame. A new frame replaces a pending one that nobody has taken yet
 * (counted as dropped), so a slow model always works on the newest image instead of a queue of
 * stale ones.
 */
export class LatestFrameMailbox<T> {
  private pending: T | undefined;
  private waiter: ((frame: T) => void) | undefined;
  private droppedCount = 0;
  private postedCount = 0;
  private closed = false;

  get dropped(): number {
    return this.droppedCount;
  }

  get posted(): number {
    return this.postedCount;
  }

  get hasPending(): boolean {
    return this.pending !== undefined;
  }

  post(frame: T): void {
    if (this.closed) return;
    this.postedCount++;
    if (this.waiter) {
      const w = this.waiter;
      this.waiter = undefined;
      w(frame);
      return;
    }
    if (this.pending !== undefined) this.droppedCount++;
    this.pending = frame;
  }

  /** Resolves with the newest frame, or undefined once the mailbox is closed. */
  take(): Promise<T | undefined> {
    if (this.pending !== undefined) {
      const f = this.pending;
      this.pending = undefined;
      return Promise.resolve(f);
    }
    if (this.closed) return Promise.resolve(undefined);
    if (this.waiter)
      return Promise.reject(new Error('LatestFrameMailbox: only one consumer may wait at a time'));
    return new Promise((resolve) => {
      this.waiter = resolve as (frame: T) => void;
    });
  }

  close(): void {
    this.closed = true;
    this.pending = undefined;
    const w = this.waiter as ((frame: T | undefined) => void) | undefined;
    this.waiter = undefined;
    w?.(undefined);
  }
}
