/**
 * Lines that can repeat per frame (a bad frame, a failed run, a camera that changes format) must
 * not flood the log: the first `burst` lines of a reason are logged at once, later ones of the same
 * reason wait for the next period, and the next line logged says how many were swallowed. The
 * level is the caller's: the line function it passes.
 */
export class ThrottledLog {
  private readonly reasons = new Map<
    string,
    { periodFrom: number; logged: number; suppressed: number }
  >();

  private readonly periodMs: number;
  private readonly burst: number;
  private readonly now: () => number;

  /**
   * `periodMs` (default 5000); `burst`: lines of one reason logged per period before the rest
   * are only counted (default 1); `now`: the clock, a test's own.
   */
  constructor(
    private readonly write: (line: string) => void,
    options: { periodMs?: number; burst?: number; now?: () => number } = {},
  ) {
    this.periodMs = options.periodMs ?? 5000;
    this.burst = options.burst ?? 1;
    this.now = options.now ?? (() => performance.now());
  }

  /** `reason` groups the lines (e.g. a FrameError code); `message` is the newest occurrence. */
  report(reason: string, message: string): void {
    const t = this.now();
    let r = this.reasons.get(reason);
    if (!r || t - r.periodFrom >= this.periodMs) {
      r = { periodFrom: t, logged: 0, suppressed: r?.suppressed ?? 0 };
      this.reasons.set(reason, r);
    }
    if (r.logged >= this.burst) {
      r.suppressed++;
      return;
    }
    const more = r.suppressed > 0 ? ` (${r.suppressed} more since the last report)` : '';
    r.logged++;
    r.suppressed = 0;
    this.write(`${message}${more}`);
  }
}
