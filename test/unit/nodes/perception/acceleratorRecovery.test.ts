import * as assert from 'node:assert/strict';
import { EngineError } from '../../../../src/core/engineError';
import {
  AcceleratorRecovery,
  type AcceleratorPolicy,
  isEngineFailure,
  type Provider,
  type RecoverablePipeline,
  retryDelayMs,
} from '../../../../src/nodes/perception/acceleratorRecovery';

/** A pipeline whose reloads succeed or fail on command, and a clock and timers the test drives. */
class Bench {
  now = 0;
  timers: { at: number; fn: () => void; live: boolean }[] = [];
  lines: string[] = [];
  reports = 0;
  deactivations = 0;
  policy: AcceleratorPolicy = 'retry';
  reloadFails = 0;
  reloads: Provider[] = [];
  released = 0;
  disposed = 0;
  readonly pipeline: RecoverablePipeline & { provider: Provider };

  constructor(provider: Provider) {
    const model = (): RecoverablePipeline['models'][number] => ({
      session: { releasePower: () => void this.released++ },
      disposeWhenIdle: async () => void this.disposed++,
    });
    const reloadModels = async (
      p: Provider,
    ): Promise<readonly { disposeWhenIdle(): Promise<void> }[]> => {
      this.reloads.push(p);
      if (this.reloadFails > 0) {
        this.reloadFails--;
        throw new Error('session not created');
      }
      const old = pipeline.models;
      pipeline.provider = p;
      pipeline.models = [model()];
      return old;
    };
    const pipeline: RecoverablePipeline & {
      provider: Provider;
      models: RecoverablePipeline['models'];
    } = {
      name: 'yolo11n',
      provider,
      models: [model()] as RecoverablePipeline['models'],
      reloadModels,
    };
    this.pipeline = pipeline;
  }

  recovery(configured: Provider): AcceleratorRecovery {
    return new AcceleratorRecovery(this.pipeline, {
      policy: () => this.policy,
      configuredProvider: configured,
      log: {
        error: (l) => this.lines.push(`ERROR ${l}`),
        warn: (l) => this.lines.push(`WARN ${l}`),
        info: (l) => this.lines.push(`INFO ${l}`),
      },
      deactivate: () => void this.deactivations++,
      report: () => void this.reports++,
      now: () => this.now,
      setTimer: (fn, ms) => {
        const t = { at: this.now + ms, fn, live: true };
        this.timers.push(t);
        return () => {
          t.live = false;
        };
      },
    });
  }

  /** Advances the clock by `ms`, firing due timers and letting their reloads settle. */
  async advance(ms: number): Promise<void> {
    this.now += ms;
    for (const t of this.timers.filter((x) => x.live && x.at <= this.now)) {
      t.live = false;
      t.fn();
    }
    for (let i = 0; i < 5; i++) await Promise.resolve();
  }
}

const dspFailure = (): EngineError => new EngineError('ERR_RUNTIME', 'run 5 failed');

describe('nodes/acceleratorRecovery', () => {
  it('counts only engine failures: runtime errors and deadlines, not bad frames', () => {
    assert.ok(isEngineFailure(new EngineError('ERR_RUNTIME', 'x')));
    assert.ok(isEngineFailure(new EngineError('ERR_DEADLINE', 'x')));
    assert.ok(!isEngineFailure(new EngineError('ERR_FRAME_INVALID', 'x')));
    assert.ok(!isEngineFailure(new EngineError('ERR_ROI_INVALID', 'x')));
    assert.ok(!isEngineFailure(new Error('ERR_RUNTIME')));
  });

  it('backs off 0.5, 1, 2 ... s up to 30 s', () => {
    assert.deepEqual(
      [1, 2, 3, 4, 5, 6, 7, 8, 20].map(retryDelayMs),
      [500, 1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000],
    );
  });

  it('retry: one ERROR, power released, frames dropped while broken, same provider again, one INFO on recovery', async () => {
    const b = new Bench('htp');
    const r = b.recovery('htp');
    assert.ok(r.admit());
    r.failed(dspFailure());
    assert.equal(r.stats.state, 'broken');
    assert.equal(b.released, 1);
    assert.equal(b.reports, 1);
    assert.equal(r.stats.nextAttemptInS, 0.5);
    assert.ok(!r.admit());
    assert.ok(!r.admit());
    await b.advance(499);
    assert.deepEqual(b.reloads, []);
    await b.advance(1);
    assert.deepEqual(b.reloads, ['htp']);
    assert.equal(r.stats.state, 'probing');
    assert.equal(b.disposed, 1, 'the failed session is freed');
    // The re-created session fails too: a WARN, and the next attempt waits twice as long.
    assert.ok(r.admit());
    r.failed(dspFailure());
    assert.equal(r.stats.nextAttemptInS, 1);
    await b.advance(1000);
    assert.ok(r.admit());
    r.succeeded();
    assert.equal(r.stats.state, 'ok');
    assert.equal(r.stats.recoveries, 1);
    assert.equal(r.stats.failures, 2);
    assert.equal(r.stats.droppedWhileBroken, 2);
    assert.deepEqual(
      b.lines.map((l) => l.split(' ')[0]),
      ['ERROR', 'WARN', 'INFO'],
      b.lines.join('\n'),
    );
    assert.match(
      b.lines[0]!,
      /^ERROR yolo11n on htp: ERR_RUNTIME: run 5 failed; on_accelerator_failure retry: re-creating the sessions in 0.5 s$/,
    );
    assert.match(
      b.lines[2]!,
      /^INFO yolo11n: recovered on htp after 2 re-creation\(s\), 1.5 s without results$/,
    );
    // A later failure is a new episode: ERROR again, back off from 0.5 s.
    r.failed(dspFailure());
    assert.equal(r.stats.nextAttemptInS, 0.5);
    assert.equal(b.lines.filter((l) => l.startsWith('ERROR')).length, 2);
  });

  it('retry: a re-creation that fails backs off and says so, then succeeds', async () => {
    const b = new Bench('htp');
    const r = b.recovery('htp');
    b.reloadFails = 2;
    r.failed(dspFailure());
    await b.advance(500);
    assert.equal(r.stats.state, 'broken');
    assert.equal(r.stats.nextAttemptInS, 1);
    await b.advance(1000);
    assert.equal(r.stats.nextAttemptInS, 2);
    await b.advance(2000);
    assert.equal(r.stats.state, 'probing');
    assert.deepEqual(b.reloads, ['htp', 'htp', 'htp']);
    assert.equal(b.lines.filter((l) => /re-creating the sessions on htp failed/.test(l)).length, 2);
  });

  it('cpu: re-creates on the CPU at once and says it continues there', async () => {
    const b = new Bench('htp');
    b.policy = 'cpu';
    const r = b.recovery('htp');
    r.failed(dspFailure());
    assert.match(
      b.lines[0]!,
      /on_accelerator_failure cpu: re-creating the sessions on the CPU now$/,
    );
    await b.advance(0);
    assert.deepEqual(b.reloads, ['cpu']);
    assert.equal(b.pipeline.provider, 'cpu');
    r.succeeded();
    assert.match(b.lines[1]!, /^WARN yolo11n: continuing on the CPU since htp failed/);
    assert.equal(r.stats.state, 'ok');
  });

  it('cpu on a CPU node is retry on the CPU', async () => {
    const b = new Bench('cpu');
    b.policy = 'cpu';
    const r = b.recovery('cpu');
    r.failed(dspFailure());
    assert.equal(r.stats.nextAttemptInS, 0.5);
    await b.advance(500);
    assert.deepEqual(b.reloads, ['cpu']);
  });

  it('stop: deactivates once, refuses frames, and re-creates the sessions on the next activate', async () => {
    const b = new Bench('cpu');
    b.policy = 'stop';
    const r = b.recovery('cpu');
    r.failed(dspFailure());
    assert.equal(r.stats.state, 'stopped');
    assert.equal(b.deactivations, 1);
    assert.equal(b.released, 1);
    await b.advance(60_000);
    assert.deepEqual(b.reloads, [], 'nothing is re-created until activated');
    assert.ok(!r.admit());
    await r.pause();
    r.resume();
    await b.advance(0);
    assert.deepEqual(b.reloads, ['cpu']);
    assert.ok(r.admit());
  });

  it('pause cancels a scheduled re-creation; resume starts one at once', async () => {
    const b = new Bench('htp');
    const r = b.recovery('htp');
    r.failed(dspFailure());
    await r.pause();
    await b.advance(10_000);
    assert.deepEqual(b.reloads, []);
    assert.equal(r.stats.state, 'broken');
    r.resume();
    await b.advance(0);
    assert.deepEqual(b.reloads, ['htp']);
  });
});
