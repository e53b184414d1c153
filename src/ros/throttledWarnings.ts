/**
 * Warnings that repeat per frame (a bad frame, a failed run) must not flood the log: the first of a
 * reason is logged at once, later ones of the same reason at most once per period, each line saying
 * how many were swallowed since the previous one.
 */
export class ThrottledWarnings {
  private readonly reasons = new Map<string, { lastAt: number; suppressed: number }>();

  constructor(
    private readonly warn: (line: string) => void,
    private readonly periodMs = 5000,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** `reason` groups the lines (e.g. a FrameError code); `message` is the newest occurrence. */
  report(reason: string, message: string): void {
    const t = this.now();
    const r = this.reasons.get(reason);
    if (r && t - r.lastAt < this.periodMs) {
      r.suppressed++;
      return;
    }
    const more = r && r.suppressed > 0 ? ` (${r.suppressed} more since the last report)` : '';
    this.reasons.set(reason, { lastAt: t, suppressed: 0 });
    this.warn(`${message}${more}`);
  }
}
