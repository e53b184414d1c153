import * as assert from 'node:assert/strict';
import { EngineError } from '../../../src/core/engineError';
import type { Frame } from '../../../src/core/frame';
import type { ArenaUsage } from '../../../src/core/memoryUsage';
import { EngineSession, RunResult } from '../../../src/engine/engineSession';
import { nativeAddon } from '../../../src/engine/nativeAddon';
import { collectGarbage } from '../../../src/util/collectGarbage';
import { model, pattern, reference } from './engineFixtures';

function rgbFrame(width: number, height: number, seed = 3): Frame {
  return {
    data: pattern(width * height * 3, seed),
    width,
    height,
    step: width * 3,
    encoding: 'rgb8',
  };
}

async function rejectsWith(
  p: Promise<unknown> | (() => unknown),
  code: string,
  re: RegExp,
): Promise<void> {
  await assert.rejects(
    async () => (typeof p === 'function' ? p() : p),
    (e: unknown) => {
      assert.ok(e instanceof EngineError, `expected EngineError, got ${String(e)}`);
      assert.equal(e.code, code, e.message);
      assert.match(e.message, re);
      return true;
    },
  );
}

describe('EngineSession (CPU)', function () {
  this.timeout(60000);

  it('introspects inputs, outputs and where ONNX Runtime placed the nodes', async () => {
    const s = await EngineSession.load({ model: model('conv.onnx'), threads: 1 });
    try {
      assert.deepEqual(
        s.inputs.map((i) => [i.name, [...i.dims], i.type]),
        [['images', [1, 3, 32, 48], 'float32']],
      );
      assert.deepEqual(
        s.outputs.map((o) => [o.name, [...o.dims], o.type]),
        [
          ['features', [1, 4, 32, 48], 'float32'],
          ['pooled', [1, 4], 'float32'],
        ],
      );
      const rep = s.providerReport;
      assert.equal(rep.requested, 'cpu');
      assert.equal(rep.assignmentKnown, true);
      assert.deepEqual(Object.keys(rep.nodesByProvider), ['CPUExecutionProvider']);
      assert.ok(rep.nodesByProvider.CPUExecutionProvider! >= 2);
      assert.equal(rep.cpuNodes.length, rep.nodesByProvider.CPUExecutionProvider);
      assert.equal(rep.fullyAccelerated, false);
    } finally {
      s.dispose();
    }
  });

  it('produces the outputs of the onnxruntime Python package for the same frame (within 1e-4)', async () => {
    const frame = rgbFrame(70, 45);
    const s = await EngineSession.load({ model: model('conv.onnx'), threads: 1 });
    const r = await s.run(frame);
    s.dispose();
    const spec = {
      width: 48,
      height: 32,
      channels: 3 as const,
      layout: 'nchw' as const,
      colorOrder: 'rgb' as const,
      resize: 'letterbox' as const,
      padValue: 114,
      mean: [0, 0, 0],
      std: [255, 255, 255],
      type: 'float32' as const,
    };
    const refs = reference(
      ['features', 'pooled'].map((output) => ({ frame, spec, model: model('conv.onnx'), output })),
    );
    for (const [k, name] of ['features', 'pooled'].entries()) {
      const got = r.outputs.find((o) => o.name === name)!;
      const ref = refs[k]!;
      assert.deepEqual([...got.dims], ref.dims);
      const exp = new Float32Array(ref.data.buffer, ref.data.byteOffset, ref.data.byteLength / 4);
      const act = got.data as Float32Array;
      let worst = 0;
      for (let i = 0; i < exp.length; i++) worst = Math.max(worst, Math.abs(act[i]! - exp[i]!));
      assert.ok(worst < 1e-4, `${name}: max |diff| ${worst}`);
    }
    assert.ok(r.timings.preprocessMs >= 0 && r.timings.inferenceMs > 0);
    assert.ok(r.timings.totalMs >= r.timings.inferenceMs);
  });

  it('runs on a worker: run() returns at once with the run in flight, and dispose is refused until it settles', async () => {
    const s = await EngineSession.load({ model: model('conv.onnx'), threads: 1 });
    const p = s.run(rgbFrame(640, 480));
    assert.equal(s.inFlight, 1);
    assert.throws(
      () => s.dispose(),
      (e: unknown) => e instanceof EngineError && e.code === 'ERR_BUSY',
    );
    await rejectsWith(s.run(rgbFrame(64, 48)), 'ERR_BUSY', /already in flight/);
    const r = await p;
    assert.equal(r.outputs.length, 2);
    assert.equal(s.inFlight, 0);
    s.dispose();
    await rejectsWith(s.run(rgbFrame(64, 48)), 'ERR_DISPOSED', /dispose/);
    s.dispose(); // idempotent
  });

  it("keeps its outputs out of ONNX Runtime's arena: results JS keeps hold none of it", async () => {
    // JS keeps a result until V8 collects it; when outputs lived in the arena, each one kept
    // alive held a chunk, and the arena grew (and RSS with it) with the results not yet collected.
    const s = await EngineSession.load({ model: model('conv.onnx'), threads: 1 });
    const arena = (): ArenaUsage | null => s.arenaUsage;
    try {
      assert.equal(arena(), null, 'no run yet: nothing to report');
      const kept = [await s.run(rgbFrame(64, 48))];
      const first = arena();
      assert.ok(first && first.reservedBytes > 0, JSON.stringify(first));
      for (let i = 0; i < 8; i++) kept.push(await s.run(rgbFrame(64, 48)));
      const after = arena()!;
      assert.equal(after.inUseBytes, first.inUseBytes, 'the kept results hold no arena memory');
      assert.equal(after.reservedBytes, first.reservedBytes);
      assert.equal(after.extensions, first.extensions);
      for (const r of kept) assert.deepEqual(r.outputs[0]!.data, kept[0]!.outputs[0]!.data);
    } finally {
      s.dispose();
    }
    assert.equal(arena(), null, 'disposed');
  });

  it('ONNX Runtime writes outputs of known size straight into the blocks it hands over, and never into an earlier result', async () => {
    const s = await EngineSession.load({ model: model('conv.onnx'), threads: 1 });
    try {
      assert.deepEqual([...s.outputsInPlace], ['features', 'pooled']);
      // Two frames, alternated, every result kept: a block bound to a run that JS already holds
      // would show as an earlier result overwritten by a later frame.
      const frames = [rgbFrame(64, 48, 3), rgbFrame(64, 48, 9)];
      const kept: RunResult[] = [];
      for (let i = 0; i < 6; i++) kept.push(await s.run(frames[i % 2]!));
      const values = (r: RunResult) => Array.from(r.outputs[0]!.data as Float32Array);
      assert.notDeepEqual(
        values(kept[0]!),
        values(kept[1]!),
        'the two frames give different features',
      );
      for (let i = 2; i < kept.length; i++)
        assert.deepEqual(values(kept[i]!), values(kept[i % 2]!), `run ${i}`);
      assert.deepEqual(s.outputWrites, { inPlace: 12, copied: 0 });
    } finally {
      s.dispose();
    }
  });

  for (const [label, file, preprocess] of [
    ['a size only the run knows', 'nonzero.onnx', { resize: 'stretch' }],
    ['float16, widened', 'cast_f16.onnx', { resize: 'stretch' }],
  ] as const) {
    it(`ONNX Runtime's output is copied out when it cannot be written in place: ${label}`, async () => {
      const s = await EngineSession.load({ model: model(file), preprocess });
      try {
        assert.deepEqual([...s.outputsInPlace], []);
        await s.run(rgbFrame(8, 8));
        assert.deepEqual(s.outputWrites, { inPlace: 0, copied: 1 });
      } finally {
        s.dispose();
      }
    });
  }

  it('copies large outputs into recycled blocks: once V8 collects a result, the next run reuses its memory', async () => {
    // 3 x 160 x 160 float32 = 300 KiB, above the mmap threshold: without the pool each copy would
    // be a fresh mapping and its page faults.
    const s = await EngineSession.load({
      model: model('id_dynamic.onnx'),
      preprocess: { width: 160, height: 160 },
    });
    const addon = nativeAddon();
    try {
      const size = 3 * 160 * 160 * 4;
      let r: RunResult | undefined = await s.run(rgbFrame(160, 160));
      assert.equal(r.outputs[0]!.data.byteLength / 4, size / 4);
      const expected = Array.from(r.outputs[0]!.data as Float32Array);
      r = undefined;
      // V8 collects the buffer; Node runs its finalizer (the block's return) on a later tick.
      for (let i = 0; i < 5 && !addon.outputBlocksStats().keptSizes.includes(size); i++) {
        collectGarbage();
        await new Promise((done) => setImmediate(done));
      }
      assert.ok(addon.outputBlocksStats().keptSizes.includes(size), 'the collected output is kept');
      const before = addon.outputBlocksStats().reused;
      const again = await s.run(rgbFrame(160, 160));
      assert.equal(
        addon.outputBlocksStats().reused,
        before + 1,
        'the second copy reused the block',
      );
      assert.deepEqual(Array.from(again.outputs[0]!.data as Float32Array), expected);
    } finally {
      s.dispose();
    }
  });

  it('accepts a dynamic input when the manifest gives the size, refuses it otherwise', async () => {
    await rejectsWith(
      EngineSession.load({ model: model('id_dynamic.onnx') }),
      'ERR_INPUT_MISMATCH',
      /dynamic/,
    );
    const s = await EngineSession.load({
      model: model('id_dynamic.onnx'),
      preprocess: { width: 20, height: 10 },
    });
    const r = await s.run(rgbFrame(40, 20));
    assert.deepEqual([...r.outputs[0]!.dims], [1, 3, 10, 20]);
    s.dispose();
  });

  describe('errors carry stable codes', () => {
    it('missing model file', () =>
      rejectsWith(
        EngineSession.load({ model: '/nonexistent/model.onnx' }),
        'ERR_MODEL_NOT_FOUND',
        /nonexistent/,
      ));
    it('corrupt ONNX', () =>
      rejectsWith(
        EngineSession.load({ model: model('corrupt.onnx') }),
        'ERR_MODEL_INVALID',
        /corrupt\.onnx.*Protobuf/,
      ));
    it('input rank not an image', () =>
      rejectsWith(
        EngineSession.load({ model: model('rank3.onnx') }),
        'ERR_INPUT_MISMATCH',
        /rank-4/,
      ));
    it('input element type the engine cannot feed', () =>
      rejectsWith(
        EngineSession.load({ model: model('id_f64.onnx') }),
        'ERR_INPUT_MISMATCH',
        /float64/,
      ));
    it('manifest size disagreeing with the model', () =>
      rejectsWith(
        EngineSession.load({ model: model('conv.onnx'), preprocess: { width: 64, height: 32 } }),
        'ERR_INPUT_MISMATCH',
        /width 48 but the manifest says 64/,
      ));
    it('invalid options', () =>
      rejectsWith(
        EngineSession.load({ model: model('conv.onnx'), threads: 1.5 }),
        'ERR_INVALID_OPTIONS',
        /threads/,
      ));
    it('require_accelerator on the CPU provider', () =>
      rejectsWith(
        EngineSession.load({ model: model('conv.onnx'), htp: { require_accelerator: true } }),
        'ERR_ACCELERATOR_FALLBACK',
        /provider is 'cpu'/,
      ));

    describe('bad frames', () => {
      let s: EngineSession;
      before(async () => {
        s = await EngineSession.load({ model: model('conv.onnx'), threads: 1 });
      });
      after(() => s.dispose());
      const f = rgbFrame(32, 16);
      it('truncated data', () =>
        rejectsWith(
          s.run({ ...f, data: f.data.subarray(0, 100) }),
          'ERR_FRAME_INVALID',
          /100 bytes, 1536 needed/,
        ));
      it('step smaller than a row', () =>
        rejectsWith(s.run({ ...f, step: 90 }), 'ERR_FRAME_INVALID', /step 90/));
      it('frame larger than allowed', () =>
        rejectsWith(
          s.run({ ...f, width: 20000, step: 60000 }),
          'ERR_FRAME_INVALID',
          /larger than/,
        ));
      it('unknown encoding', () =>
        rejectsWith(
          s.run({ ...f, encoding: 'rgb16' as Frame['encoding'] }),
          'ERR_FRAME_INVALID',
          /rgb16/,
        ));
      it('odd width for a 4:2:2 frame', () =>
        rejectsWith(
          s.run({
            data: new Uint8Array(31 * 2 * 16),
            width: 31,
            height: 16,
            step: 62,
            encoding: 'yuyv',
          }),
          'ERR_FRAME_INVALID',
          /even/,
        ));
      it('roi outside the frame', () =>
        rejectsWith(
          s.run(f, { x: 20, y: 0, width: 20, height: 8 }),
          'ERR_ROI_INVALID',
          /outside the 32x16/,
        ));
      it('the session still works after bad frames', async () => {
        const r = await s.run(f);
        assert.equal(r.outputs.length, 2);
      });
    });
  });
});
