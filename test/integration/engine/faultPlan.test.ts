import * as assert from 'node:assert/strict';
import { EngineError } from '../../../src/core/engineError';
import type { Frame } from '../../../src/core/frame';
import { EngineSession } from '../../../src/engine/engineSession';
import { nativeAddon } from '../../../src/engine/nativeAddon';
import { withDeadline } from '../../../src/util/withDeadline';
import { model, pattern } from './engineFixtures';

const frame: Frame = {
  data: pattern(8 * 8 * 3, 5),
  width: 8,
  height: 8,
  step: 24,
  encoding: 'rgb8',
};

const injected = (e: unknown): boolean => {
  assert.ok(e instanceof EngineError, String(e));
  assert.equal(e.code, 'ERR_RUNTIME');
  assert.match(e.message, /injected fault \(test fault plan/);
  return true;
};

/** The addon's fault switch (native/src/faults/fault_plan.h) on real sessions: what the node tests use. */
describe('engine fault switch (tests only)', function () {
  this.timeout(60_000);
  const addon = nativeAddon();
  afterEach(() => addon.setFaultPlan({}));

  it('fails exactly the runs of its range, counting every run of the matching sessions', async () => {
    const s = await EngineSession.load({ model: model('conv.onnx'), threads: 1 });
    try {
      addon.setFaultPlan({ failRuns: [2, 3] });
      const first = await s.run(frame);
      await assert.rejects(s.run(frame), injected);
      await assert.rejects(s.run(frame), injected);
      const fourth = await s.run(frame);
      assert.deepEqual(fourth.outputs[0]!.data, first.outputs[0]!.data, 'the session is intact');
      assert.deepEqual(addon.faultCounts(), { runs: 4, loads: 0 });
      // runMany: each region is a run.
      addon.setFaultPlan({ failRuns: [2, 2] });
      const roi = { x: 0, y: 0, width: 4, height: 4 };
      await assert.rejects(s.runMany(frame, [roi, roi, roi]), injected);
      assert.equal(addon.faultCounts().runs, 2, 'the first failing region ends the call');
    } finally {
      s.dispose();
    }
  });

  it('fails the chosen session creations only, and only for the model it names', async () => {
    addon.setFaultPlan({ failLoads: [1, 1], model: 'conv.onnx' });
    await assert.rejects(EngineSession.load({ model: model('conv.onnx'), threads: 1 }), (e) => {
      injected(e);
      assert.match((e as Error).message, /session 1 of .*conv\.onnx not created/);
      return true;
    });
    const s = await EngineSession.load({ model: model('conv.onnx'), threads: 1 });
    s.dispose();
    assert.deepEqual(addon.faultCounts(), { runs: 0, loads: 2 });
    addon.setFaultPlan({ failRuns: [1, 100], model: 'no-such-model' });
    const t = await EngineSession.load({ model: model('conv.onnx'), threads: 1 });
    try {
      await t.run(frame);
      assert.deepEqual(addon.faultCounts(), { runs: 0, loads: 0 });
    } finally {
      t.dispose();
    }
  });

  it('a hung run passes its deadline without blocking the event loop; its session is freed when it returns', async () => {
    const s = await EngineSession.load({ model: model('conv.onnx'), threads: 1 });
    addon.setFaultPlan({ hangRuns: [1, 1], hangMs: 1500 });
    const run = s.run(frame);
    let returned = false;
    void run.then(() => (returned = true));
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 20);
    await assert.rejects(
      withDeadline(run, 200, () => new EngineError('ERR_DEADLINE', 'late')),
      (e) => e instanceof EngineError && e.code === 'ERR_DEADLINE',
    );
    // The deadline's timer fired while the run still hung: the event loop was not blocked. (A
    // count of timer ticks within the 200 ms alone is at the mercy of an emulated CPU's JIT.)
    assert.equal(returned, false, 'the deadline came only after the hung run returned');
    assert.equal(s.inFlight, 1, 'the hung run still holds its session');
    assert.throws(() => s.dispose(), /ERR_BUSY|in flight/);
    await s.disposeWhenIdle();
    clearInterval(ticker);
    assert.ok(ticks >= 3, `timers ran ${ticks} times during the 1.5 s the run hung`);
    assert.equal(s.inFlight, 0);
    // The run itself completed (a hang, not a failure) and was dropped by the deadline.
    assert.ok((await run).outputs.length > 0);
    await assert.rejects(
      s.run(frame),
      (e) => e instanceof EngineError && e.code === 'ERR_DISPOSED',
    );
  });
});
