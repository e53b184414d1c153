/**
 * Which input topics of an active node have gone silent: a camera driver that crashed, was
 * restarted, or stopped publishing looks the same as "no frames" otherwise. Each topic is stale
 * once no message (valid or not) arrived for `input_timeout_s`, counted from activation when none
 * came yet; it recovers with the next message. The node checks on its 1 Hz diagnostics tick, so
 * a topic goes stale between the timeout and a second later, and logs each change once.
 */

/** One subscribed input, as the log and diagnostics name it. */
export interface WatchedInput {
  /** 'image', 'depth image' or 'CameraInfo'. */
  readonly what: string;
  /** Fully qualified topic after remapping. */
  readonly topic: string;
  /** performance.now() of the newest message on the topic; undefined before the first. */
  lastReceivedAt(): number | undefined;
}

export interface StaleInput {
  readonly what: string;
  readonly topic: string;
  /** Seconds since the newest message (or since activation, when none came). */
  readonly silentS: number;
}

export interface StaleInputChanges {
  /** Every input silent for the timeout now. */
  readonly stale: readonly StaleInput[];
  /** Inputs that went stale since the previous update. */
  readonly wentStale: readonly StaleInput[];
  /** Inputs stale at the previous update that have had a message since (silentS: how long the
   *  gap was at most: from the newest message before it to this update). */
  readonly resumed: readonly StaleInput[];
}

interface Tracked {
  readonly input: WatchedInput;
  /** The newest message when the input went stale (or the watch's start), while it is stale. */
  staleSince: number | undefined;
}

export class StaleInputs {
  private readonly tracked: Tracked[];

  /** `since`: performance.now() at activation, the start of the silence of a topic never heard. */
  constructor(
    inputs: readonly WatchedInput[],
    private readonly since: number,
  ) {
    this.tracked = inputs.map((input) => ({ input, staleSince: undefined }));
  }

  /** "no image on /camera/image_raw for 2.4 s": the diagnostics message and the log line. */
  static message(this: void, s: StaleInput): string {
    return `no ${s.what} on ${s.topic} for ${s.silentS.toFixed(1)} s`;
  }

  /**
   * The stale inputs at `now` (performance.now()) for a timeout of `timeoutS` seconds (0: never
   * stale; inputs stale until then are dropped without a "resumed"), and what changed.
   */
  update(now: number, timeoutS: number): StaleInputChanges {
    const stale: StaleInput[] = [];
    const wentStale: StaleInput[] = [];
    const resumed: StaleInput[] = [];
    for (const t of this.tracked) {
      const last = Math.max(this.since, t.input.lastReceivedAt() ?? -Infinity);
      const silentS = (now - last) / 1000;
      const { what, topic } = t.input;
      if (timeoutS <= 0) {
        t.staleSince = undefined;
        continue;
      }
      if (t.staleSince !== undefined && last > t.staleSince) {
        resumed.push({ what, topic, silentS: (now - t.staleSince) / 1000 });
        t.staleSince = undefined;
      }
      if (silentS >= timeoutS) {
        const s = { what, topic, silentS };
        stale.push(s);
        if (t.staleSince === undefined) {
          t.staleSince = last;
          wentStale.push(s);
        }
      }
    }
    return { stale, wentStale, resumed };
  }
}
