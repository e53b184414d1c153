/**
 * Track ids: positive integers that fit the 16-bit instance image (pixel = Detection2D.id), so
 * 1..65535. They count up and wrap around, skipping ids still held by a live (tracked or lost)
 * track, so an id is never reused while its track may still come back; at one new object a second
 * the first wrap comes after 18 hours.
 */
export const MAX_TRACK_ID = 0xffff;

export class TrackIdPool {
  private readonly live = new Set<number>();
  private last = 0;

  /** A free id, or undefined when all 65535 are held by live tracks. */
  take(): number | undefined {
    if (this.live.size >= MAX_TRACK_ID) return undefined;
    let id = this.last;
    do {
      id = id >= MAX_TRACK_ID ? 1 : id + 1;
    } while (this.live.has(id));
    this.last = id;
    this.live.add(id);
    return id;
  }

  release(id: number): void {
    this.live.delete(id);
  }
}
