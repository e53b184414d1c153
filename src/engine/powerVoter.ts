/**
 * Sustained power voting: released -> voted on the first run; every run moves the end of a hold
 * forward; when the hold runs out the vote drops to the profile's idle level; dispose removes the
 * vote. One timer stands for the hold: at 30 Hz it wakes about once per hold to find it moved on,
 * instead of being cleared and set twice a frame.
 * Pure state machine: the clock, the timers and the backend that carries the vote are injected.
 */
import type { PowerProfile } from '../core/powerProfiles';

export interface PowerBackend {
  /** Sets the vote to a QNN performance mode name. Throws if the platform refuses. */
  vote(mode: string): void;
}

export interface VoterClock {
  now(): number;
  setTimer(fn: () => void, ms: number): unknown;
  clearTimer(handle: unknown): void;
}

export const SYSTEM_CLOCK: VoterClock = {
  now: () => performance.now(),
  setTimer: (fn, ms) => {
    const t = setTimeout(fn, ms);
    t.unref();
    return t;
  },
  clearTimer: (h) => clearTimeout(h as NodeJS.Timeout),
};

/** A backend that records nothing and never fails: the CPU runs the same state machine. */
export const NOOP_BACKEND: PowerBackend = { vote: () => undefined };

export type VoterState = 'released' | 'voted' | 'disposed';

export interface VoterStats {
  readonly state: VoterState;
  readonly profile: string;
  readonly votesUp: number;
  readonly votesDown: number;
  readonly voteFailures: number;
  readonly lastError: string;
  readonly votedMs: number;
  readonly holdMs: number;
}

const MIN_HOLD_MS = 100;
const INITIAL_HOLD_MS = 1000;
const GAP_WINDOW = 15;

export class PowerVoter {
  private state: VoterState = 'released';
  private timer: unknown = undefined;
  private lastStart: number | undefined;
  private readonly gaps: number[] = [];
  private votedSince = 0;
  private votedTotal = 0;
  private up = 0;
  private down = 0;
  private failures = 0;
  private lastError = '';
  private running = 0;
  /** When the hold runs out, unless a run moves it (clock time). */
  private holdEnd = 0;
  /** When the pending timer fires (never after holdEnd). */
  private timerDue = 0;
  /** Scratch for the median gap. */
  private readonly sortedGaps = new Float64Array(GAP_WINDOW);
  /**
   * The median of `gaps`, -1 until computed: holdMs runs twice a run (and the diagnostics read it),
   * the gaps change once a run.
   */
  private medianGap = -1;

  constructor(
    private readonly profile: PowerProfile,
    private readonly backend: PowerBackend,
    private readonly clock: VoterClock = SYSTEM_CLOCK,
    /** Fixed hold; undefined derives it from the observed frame interval. */
    private readonly fixedHoldMs?: number,
  ) {}

  /** Call when a run starts: votes up if needed and re-arms the hold. */
  onRun(): void {
    if (this.state === 'disposed') return;
    const now = this.clock.now();
    if (this.state === 'voted' && this.lastStart !== undefined) {
      this.gaps.push(now - this.lastStart);
      if (this.gaps.length > GAP_WINDOW) this.gaps.shift();
      this.medianGap = -1;
    }
    this.lastStart = now;
    this.running += 1;
    if (this.state === 'released') {
      if (this.trySet(this.profile.qnnMode)) {
        this.state = 'voted';
        this.up += 1;
        this.votedSince = now;
      }
    }
    this.arm();
  }

  /** Call when a run settles: the hold counts from the end of the latest run. */
  onRunEnd(): void {
    if (this.state === 'disposed') return;
    this.running = Math.max(0, this.running - 1);
    this.arm();
  }

  /** Current hold: fixed, or 3x the median gap between runs while voted, never below 100 ms. */
  holdMs(): number {
    if (this.fixedHoldMs !== undefined) return Math.max(MIN_HOLD_MS, this.fixedHoldMs);
    if (this.gaps.length === 0) return INITIAL_HOLD_MS;
    if (this.medianGap < 0) this.medianGap = this.median();
    return Math.max(MIN_HOLD_MS, 3 * this.medianGap);
  }

  /**
   * Insertion sort of at most GAP_WINDOW values: TypedArray.prototype.sort's call into the runtime
   * cost more than the sorting itself (~1 % of a node's main thread at 30 Hz, twice a run).
   */
  private median(): number {
    const n = this.gaps.length;
    const sorted = this.sortedGaps;
    for (let i = 0; i < n; i++) {
      const v = this.gaps[i]!;
      let j = i;
      for (; j > 0 && sorted[j - 1]! > v; j--) sorted[j] = sorted[j - 1]!;
      sorted[j] = v;
    }
    return sorted[Math.floor(n / 2)]!;
  }

  stats(): VoterStats {
    const live = this.state === 'voted' ? this.clock.now() - this.votedSince : 0;
    return {
      state: this.state,
      profile: this.profile.name,
      votesUp: this.up,
      votesDown: this.down,
      voteFailures: this.failures,
      lastError: this.lastError,
      votedMs: this.votedTotal + live,
      holdMs: this.holdMs(),
    };
  }

  /**
   * Drops the vote now, without waiting for the hold to run out (a node that stops taking frames);
   * the next run votes again. No effect when nothing is voted, nor while a run is executing
   * unless `abandoned`: the run was given up (its deadline passed, the DSP is gone) and the
   * vote must not stay up for a session that may never answer.
   */
  releaseNow(abandoned = false): void {
    if (this.state !== 'voted' || (this.running > 0 && !abandoned)) return;
    this.clearTimer();
    this.release();
  }

  /** Drops the vote now and stops reacting to runs. */
  dispose(): void {
    if (this.state === 'disposed') return;
    this.clearTimer();
    if (this.state === 'voted') this.release();
    this.state = 'disposed';
  }

  private arm(): void {
    const now = this.clock.now();
    this.holdEnd = now + this.holdMs();
    // A pending timer that fires before the new end re-checks then; only a hold that got shorter
    // (the frame rate rose) needs an earlier timer.
    if (this.timer !== undefined && this.timerDue <= this.holdEnd) return;
    this.clearTimer();
    this.setTimer(now);
  }

  private setTimer(now: number): void {
    this.timerDue = this.holdEnd;
    this.timer = this.clock.setTimer(() => this.onTimer(), this.holdEnd - now);
  }

  private onTimer(): void {
    this.timer = undefined;
    // Never drop the vote under a run that is still executing (a run can outlast the hold).
    if (this.running > 0) {
      this.arm();
      return;
    }
    if (this.state !== 'voted') return;
    const now = this.clock.now();
    // Runs since the timer was set moved the end on (a microsecond's slack for float rounding).
    if (this.holdEnd - now > 1e-3) this.setTimer(now);
    else this.release();
  }

  private release(): void {
    this.trySet(this.profile.idleQnnMode);
    this.state = 'released';
    this.down += 1;
    this.votedTotal += this.clock.now() - this.votedSince;
    // A gap that spans an idle period says nothing about the frame rate.
    this.lastStart = undefined;
  }

  private clearTimer(): void {
    if (this.timer !== undefined) this.clock.clearTimer(this.timer);
    this.timer = undefined;
  }

  private trySet(mode: string): boolean {
    try {
      this.backend.vote(mode);
      return true;
    } catch (err) {
      // A vote can fail on real devices ("Unable to set HTP power configurations"): count it,
      // report it, never pretend it took effect.
      this.failures += 1;
      this.lastError = err instanceof Error ? err.message : String(err);
      return false;
    }
  }
}
