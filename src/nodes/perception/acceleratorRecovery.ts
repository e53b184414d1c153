/**
 * A perception node's answer to an engine that stops answering mid-run (on a QCS6490: the DSP
 * restarted, the FastRPC session dropped, a run never returns): a run that fails with a runtime
 * error or passes run_deadline_ms marks the engine broken, the power vote is released, one line
 * is logged, the diagnostics turn ERROR at once, and on_accelerator_failure decides:
 *  - retry: re-create the sessions on the same provider after 0.5 s, then 1, 2 ... 30 s, until a
 *    run answers again;
 *  - cpu:   re-create them on the CPU at once and carry on there (the badge, diagnostics and log
 *    say so); on a CPU node this is retry;
 *  - stop:  deactivate the node and leave the decision to a lifecycle manager (activating again
 *    re-creates the sessions).
 * Frames that arrive while broken are dropped and counted; a frame is never queued behind a dead
 * session. A bad frame (ERR_FRAME_INVALID and the like) is not an engine failure.
 */
import { EngineError } from '../../core/engineError';

export type AcceleratorPolicy = 'retry' | 'cpu' | 'stop';
export type Provider = 'cpu' | 'htp' | 'gpu';

/**
 * ok: runs; broken: waiting to re-create the sessions; reloading: re-creating them; probing:
 * re-created, the next run decides; stopped: policy stop, until the node is activated again.
 */
export type EngineState = 'ok' | 'broken' | 'reloading' | 'probing' | 'stopped';

/** What recovery needs of a pipeline (PerceptionPipeline), narrowed so it can be unit tested. */
export interface RecoverablePipeline {
  readonly name: string;
  readonly provider: Provider;
  readonly models: readonly {
    readonly session: { releasePower(abandoned: boolean): void };
    disposeWhenIdle(): Promise<void>;
  }[];
  reloadModels(provider: Provider): Promise<readonly { disposeWhenIdle(): Promise<void> }[]>;
}

export interface RecoveryHost {
  /** on_accelerator_failure now (a live parameter). */
  policy(): AcceleratorPolicy;
  /** The provider the node was configured with (retry goes back to it). */
  readonly configuredProvider: Provider;
  readonly log: {
    error(line: string): void;
    warn(line: string): void;
    info(line: string): void;
  };
  /** Policy stop: deactivate the node (not awaited: the frame loop that failed must return). */
  deactivate(): void;
  /** The state changed: publish the diagnostics now rather than on the next tick. */
  report(): void;
  /** ms, monotonic. */
  now(): number;
  setTimer(fn: () => void, ms: number): () => void;
}

export interface RecoveryStats {
  readonly state: EngineState;
  /** Failed runs that broke the engine (not frames dropped while it was broken). */
  readonly failures: number;
  readonly recoveries: number;
  /** `CODE: message` of the last failure, '' before any. */
  readonly lastFailure: string;
  /** The provider that failed last ('' before any). */
  readonly failedProvider: Provider | '';
  /** Re-creations tried in the current episode. */
  readonly attempts: number;
  /** Seconds until the next re-creation while broken, else undefined. */
  readonly nextAttemptInS: number | undefined;
  /** Frames dropped because the engine was broken. */
  readonly droppedWhileBroken: number;
}

const FIRST_DELAY_MS = 500;
const MAX_DELAY_MS = 30_000;

/** Whether `e` means the engine (not the frame) failed. */
export function isEngineFailure(e: unknown): e is EngineError {
  return e instanceof EngineError && (e.code === 'ERR_RUNTIME' || e.code === 'ERR_DEADLINE');
}

/** The delay before re-creation number `attempt` (1-based) of an episode. */
export function retryDelayMs(attempt: number): number {
  return Math.min(FIRST_DELAY_MS * 2 ** Math.max(0, attempt - 1), MAX_DELAY_MS);
}

export class AcceleratorRecovery {
  private state: EngineState = 'ok';
  private failures = 0;
  private recoveries = 0;
  private lastFailure = '';
  private failedProvider: Provider | '' = '';
  private attempts = 0;
  private episodeStart = 0;
  private nextAttemptAt: number | undefined;
  private cancelTimer: (() => void) | undefined;
  private reloading: Promise<void> | undefined;
  private dropped = 0;

  constructor(
    private readonly pipeline: RecoverablePipeline,
    private readonly host: RecoveryHost,
  ) {}

  /** Whether a frame may run now; a frame refused here is counted as dropped. */
  admit(): boolean {
    if (this.state === 'ok' || this.state === 'probing') return true;
    this.dropped++;
    return false;
  }

  /** A frame's runs answered. */
  succeeded(): void {
    if (this.state !== 'probing') return;
    this.state = 'ok';
    this.recoveries++;
    const provider = this.pipeline.provider;
    const silentS = ((this.host.now() - this.episodeStart) / 1000).toFixed(1);
    if (provider !== this.failedProvider) {
      this.host.log.warn(
        `${this.pipeline.name}: continuing on the ${provider.toUpperCase()} since ${this.failedProvider} failed (${this.lastFailure}); ${silentS} s without results`,
      );
    } else {
      this.host.log.info(
        `${this.pipeline.name}: recovered on ${provider} after ${this.attempts} re-creation(s), ${silentS} s without results`,
      );
    }
    this.host.report();
  }

  /** A frame's runs failed with `error` (isEngineFailure). */
  failed(error: EngineError): void {
    if (this.state !== 'ok' && this.state !== 'probing') return;
    const firstOfEpisode = this.state === 'ok';
    this.failures++;
    this.lastFailure = `${error.code}: ${error.message}`;
    this.failedProvider = this.pipeline.provider;
    for (const m of this.pipeline.models) m.session.releasePower(true);
    const policy = this.host.policy();
    if (firstOfEpisode) {
      this.episodeStart = this.host.now();
      this.attempts = 0;
    }
    if (policy === 'stop') {
      this.state = 'stopped';
      this.host.log.error(
        `${this.pipeline.name} on ${this.failedProvider}: ${this.lastFailure}; on_accelerator_failure stop: deactivating`,
      );
      this.host.deactivate();
      this.host.report();
      return;
    }
    const target = this.target(policy);
    const delay = target !== this.failedProvider ? 0 : retryDelayMs(this.attempts + 1);
    const plan =
      target !== this.failedProvider
        ? `on_accelerator_failure ${policy}: re-creating the sessions on the CPU now`
        : `on_accelerator_failure ${policy}: re-creating the sessions in ${(delay / 1000).toFixed(1)} s`;
    // One ERROR line per episode; a re-created session that fails again is one WARN per attempt,
    // and the attempts back off to one per 30 s.
    if (firstOfEpisode) {
      this.host.log.error(
        `${this.pipeline.name} on ${this.failedProvider}: ${this.lastFailure}; ${plan}`,
      );
    } else {
      this.host.log.warn(
        `${this.pipeline.name} on ${this.failedProvider}: failed again after re-creation ${this.attempts} (${this.lastFailure}); next in ${(delay / 1000).toFixed(1)} s`,
      );
    }
    this.schedule(delay);
    this.host.report();
  }

  /**
   * The node deactivates: no re-creation is started any more; resolves when one in progress is
   * done (cleanup must not free a pipeline whose models are being replaced).
   */
  async pause(): Promise<void> {
    this.cancelTimer?.();
    this.cancelTimer = undefined;
    this.nextAttemptAt = undefined;
    await this.reloading;
  }

  /** The node activates: a broken or stopped engine is re-created at once. */
  resume(): void {
    if (this.state === 'broken' || this.state === 'stopped') this.schedule(0);
  }

  get stats(): RecoveryStats {
    return {
      state: this.state,
      failures: this.failures,
      recoveries: this.recoveries,
      lastFailure: this.lastFailure,
      failedProvider: this.failedProvider,
      attempts: this.attempts,
      nextAttemptInS:
        this.nextAttemptAt === undefined
          ? undefined
          : Math.max(0, (this.nextAttemptAt - this.host.now()) / 1000),
      droppedWhileBroken: this.dropped,
    };
  }

  private target(policy: AcceleratorPolicy): Provider {
    return policy === 'cpu' ? 'cpu' : this.host.configuredProvider;
  }

  private schedule(delayMs: number): void {
    this.state = 'broken';
    this.cancelTimer?.();
    this.nextAttemptAt = this.host.now() + delayMs;
    this.cancelTimer = this.host.setTimer(() => {
      this.cancelTimer = undefined;
      this.nextAttemptAt = undefined;
      this.reloading = this.reload().finally(() => {
        this.reloading = undefined;
      });
    }, delayMs);
  }

  private async reload(): Promise<void> {
    this.state = 'reloading';
    this.attempts++;
    const target = this.target(this.host.policy());
    let old: readonly { disposeWhenIdle(): Promise<void> }[];
    try {
      old = await this.pipeline.reloadModels(target);
    } catch (e) {
      const delay = retryDelayMs(this.attempts + 1);
      this.host.log.warn(
        `${this.pipeline.name}: re-creating the sessions on ${target} failed (attempt ${this.attempts}: ${e instanceof Error ? e.message : String(e)}); next in ${(delay / 1000).toFixed(1)} s`,
      );
      this.schedule(delay);
      this.host.report();
      return;
    }
    this.state = 'probing';
    // A run that passed its deadline still holds its session: freed when the worker returns.
    for (const m of old) {
      m.disposeWhenIdle().catch((e: unknown) =>
        this.host.log.warn(
          `${this.pipeline.name}: freeing a failed session: ${e instanceof Error ? e.message : String(e)}`,
        ),
      );
    }
  }
}
