/**
 * The log side of bad messages on one input topic. The first bad message is logged at once; later
 * ones at most once per period, as one line quoting the newest and counting by reason every bad
 * message since the previous line. Per topic, not per reason (ThrottledLog's way): a broken
 * or hostile sender hits a dozen reasons at once, and a line per reason per period was a dozen
 * lines every period (a flood of 12,000 malformed messages on four topics gave ~35 lines per 5 s).
 * The exact counts stay in the diagnostics (`bad_frames_by_reason` and the depth twins).
 */
export class BadInputWarnings {
  private lastAt = -Infinity;
  private readonly since = new Map<string, number>();

  constructor(
    private readonly warn: (line: string) => void,
    private readonly periodMs = 5000,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** `reason`: the FrameError code (or the like); `message`: this occurrence, for the log. */
  report(reason: string, message: string): void {
    this.since.set(reason, (this.since.get(reason) ?? 0) + 1);
    const t = this.now();
    if (t - this.lastAt < this.periodMs) return;
    let total = 0;
    for (const n of this.since.values()) total += n;
    const counts = [...this.since].map(([r, n]) => `${r} ${n}`).join(', ');
    this.warn(total === 1 ? message : `${message} (${total} bad since the last report: ${counts})`);
    this.since.clear();
    this.lastAt = t;
  }
}
