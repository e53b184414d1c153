/**
 * ExecuTorch programs through the same EngineSession as ONNX models: the real plug-in and
 * ExecuTorch runtime (bootstrap 62-executorch, 65-addon) on the committed programs of
 * tools/executorch/make_test_programs.py, checked against PyTorch's eager outputs.
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { EngineError } from '../../../src/core/engineError';
import type { Frame } from '../../../src/core/frame';
import { EngineSession, type RunResult } from '../../../src/engine/engineSession';
import { nativeAddon } from '../../../src/engine/nativeAddon';
import { withDeadline } from '../../../src/util/withDeadline';
import { repoPath } from '../../support/paths';
import { tempDir } from '../../support/tempDir';

const FIXTURES = repoPath('test', 'fixtures', 'executorch');
const XNNPACK = path.join(FIXTURES, 'tiny_xnnpack.pte');
const PORTABLE = path.join(FIXTURES, 'tiny_portable.pte');
const UNPLANNED = path.join(FIXTURES, 'tiny_xnnpack_unplanned.pte');

interface Expected {
  frame: { width: number; height: number };
  outputs: { name: string; dims: number[]; type: string; values: number[] }[];
}
const expected = JSON.parse(
  fs.readFileSync(path.join(FIXTURES, 'tiny_expected.json'), 'utf8'),
) as Expected;

/** The frame make_test_programs.py fed PyTorch: byte i is (i * 7) % 251, 32x32 rgb8. */
function fixtureFrame(): Frame {
  const { width, height } = expected.frame;
  const data = new Uint8Array(width * height * 3).map((_, i) => (i * 7) % 251);
  return { data, width, height, step: width * 3, encoding: 'rgb8' };
}

/** 1:1 stretch, 1/255: the tensor make_test_programs.py gave PyTorch, to the last bit. */
const load = (model: string, extra: Record<string, unknown> = {}) =>
  EngineSession.load({
    model,
    threads: 1,
    preprocess: { resize: 'stretch', mean: [0, 0, 0], std: [255, 255, 255] },
    ...extra,
  });

async function rejectsWith(p: Promise<unknown>, code: string, re: RegExp): Promise<void> {
  await assert.rejects(p, (e: unknown) => {
    assert.ok(e instanceof EngineError, `expected EngineError, got ${String(e)}`);
    assert.equal(e.code, code, e.message);
    assert.match(e.message, re);
    return true;
  });
}

describe('EngineSession: ExecuTorch programs (.pte)', function () {
  this.timeout(60_000);

  it('the plug-in loads beside the addon and names its ExecuTorch version', () => {
    assert.deepEqual(nativeAddon().executorchRuntime(), { version: '1.5.1' });
  });

  it('describes the program: inputs and outputs, runtime executorch, placement from its instructions', async () => {
    const s = await load(XNNPACK);
    try {
      assert.deepEqual(
        s.inputs.map((i) => [i.name, [...i.dims], i.type]),
        [['input_0', [1, 3, 32, 32], 'float32']],
      );
      assert.deepEqual(
        s.outputs.map((o) => [o.name, [...o.dims], o.type]),
        expected.outputs.map((o) => [o.name, o.dims, o.type]),
      );
      const rep = s.providerReport;
      assert.equal(rep.runtime, 'executorch');
      assert.equal(rep.modelSource, 'pte');
      assert.deepEqual(rep.delegates, ['XnnpackBackend']);
      assert.equal(rep.assignmentKnown, true);
      // conv1+relu and conv2 in one XNNPACK subgraph, the linear layer in another; mean, argmax
      // and the float16 cast on ExecuTorch's kernels.
      assert.deepEqual(rep.nodesByProvider, { XnnpackBackend: 2, 'ExecuTorch kernels': 3 });
      assert.deepEqual(
        rep.cpuNodes.map((n) => n.opType),
        [
          'XnnpackBackend',
          'aten::mean.out',
          'dim_order_ops::_to_dim_order_copy.out',
          'aten::argmax.out',
        ],
      );
      assert.equal(rep.fullyAccelerated, false);
      assert.equal(rep.note, '');
    } finally {
      s.dispose();
    }
  });

  for (const [label, file] of [
    ['XNNPACK', XNNPACK],
    ['portable kernels only', PORTABLE],
    ['XNNPACK, outputs not memory-planned', UNPLANNED],
  ] as const) {
    it(`${label}: gives PyTorch's outputs for the same frame (float32 within 1e-4, float16 widened)`, async () => {
      const s = await load(file);
      try {
        const r = await s.run(fixtureFrame());
        assert.deepEqual(
          r.outputs.map((o) => [o.name, [...o.dims]]),
          expected.outputs.map((o) => [o.name, o.dims]),
        );
        const [scores, best, maps] = r.outputs;
        assert.ok(scores!.data instanceof Float32Array);
        const sd = scores!.data as Float32Array;
        // Float32 sums of ~72 products of values below ~5: XNNPACK's and PyTorch's orders of
        // summation (FMA or not, AVX2 or AVX-512) differ by a few ulps of the largest term.
        expected.outputs[0]!.values.forEach((v, i) =>
          assert.ok(Math.abs(sd[i]! - v) < 1e-4, `scores[${i}] ${sd[i]} vs ${v}`),
        );
        assert.deepEqual(
          Array.from(best!.data as BigInt64Array, Number),
          expected.outputs[1]!.values,
        );
        assert.ok(maps!.data instanceof Float32Array, 'float16 arrives widened to float32');
        const md = maps!.data as Float32Array;
        // Half precision: one ulp at the maps' magnitude (< 8) is 2^-8; a rounding either side.
        expected.outputs[2]!.values.forEach((v, i) =>
          assert.ok(Math.abs(md[i]! - v) <= 2 ** -7, `maps[${i}] ${md[i]} vs ${v}`),
        );
        assert.ok(r.timings.inferenceMs > 0);
      } finally {
        s.dispose();
      }
    });
  }

  it('a program that plans no memory for its outputs writes them into the blocks handed over (float16 still copied, widened); a planned one is copied', async () => {
    const planned = await load(XNNPACK);
    const unplanned = await load(UNPLANNED);
    try {
      assert.deepEqual([...planned.outputsInPlace], []);
      assert.deepEqual([...unplanned.outputsInPlace], ['output_0', 'output_1']);
      const black = { ...fixtureFrame(), data: new Uint8Array(32 * 32 * 3) };
      const kept: RunResult[] = [];
      for (const frame of [fixtureFrame(), black, fixtureFrame(), black]) {
        kept.push(await unplanned.run(frame));
        await planned.run(frame);
      }
      // A block still bound to the program after JS took it would show as an earlier result
      // overwritten by a later frame.
      const scores = (i: number) => Array.from(kept[i]!.outputs[0]!.data as Float32Array);
      assert.notDeepEqual(scores(0), scores(1), 'the two frames give different scores');
      assert.deepEqual(scores(2), scores(0));
      assert.deepEqual(scores(3), scores(1));
      expected.outputs[0]!.values.forEach((v, i) =>
        assert.ok(Math.abs(scores(0)[i]! - v) < 1e-4, `scores[${i}] ${scores(0)[i]} vs ${v}`),
      );
      assert.deepEqual(unplanned.outputWrites, { inPlace: 8, copied: 4 });
      assert.deepEqual(planned.outputWrites, { inPlace: 0, copied: 12 });
    } finally {
      planned.dispose();
      unplanned.dispose();
    }
  });

  it('the portable program: every operator a kernel call, nothing delegated', async () => {
    const s = await load(PORTABLE);
    try {
      const rep = s.providerReport;
      assert.deepEqual(rep.delegates, []);
      assert.equal(rep.nodesByProvider.XnnpackBackend, undefined);
      assert.equal(rep.nodesByProvider['ExecuTorch kernels'], 8);
      assert.ok(rep.cpuNodes.some((n) => n.opType === 'aten::convolution.out'));
    } finally {
      s.dispose();
    }
  });

  it('provider htp: a program with no QNN delegate runs on the CPU, says so, and require_accelerator refuses it', async () => {
    const s = await load(XNNPACK, { provider: 'htp' });
    try {
      const rep = s.providerReport;
      assert.equal(rep.requested, 'htp');
      assert.match(rep.note, /delegates nothing to QnnBackend: all of it runs on the CPU/);
      assert.equal(rep.fullyAccelerated, false);
      // No power votes for a program: the voter keeps to itself (a vote would throw).
      await s.run(fixtureFrame());
    } finally {
      s.dispose();
    }
    await rejectsWith(
      load(XNNPACK, { provider: 'htp', htp: { require_accelerator: true } }),
      'ERR_ACCELERATOR_FALLBACK',
      /does not run entirely on the accelerator; nodes left to the CPU: 2 delegate call\(s\) \(XnnpackBackend\)/,
    );
  });

  it('runs on a worker under the same rules: one run at a time, dispose refused while it runs, ERR_DISPOSED after', async () => {
    const s = await load(XNNPACK);
    const running = s.run(fixtureFrame());
    assert.equal(s.inFlight, 1);
    await rejectsWith(s.run(fixtureFrame()), 'ERR_BUSY', /already in flight/);
    assert.throws(() => s.dispose(), /run\(s\) in flight/);
    await running;
    s.dispose();
    await rejectsWith(s.run(fixtureFrame()), 'ERR_DISPOSED', /after dispose/);
  });

  it("the tests' fault switch and deadlines hold for programs too", async () => {
    const addon = nativeAddon();
    const s = await load(XNNPACK);
    try {
      addon.setFaultPlan({ failRuns: [1, 1], model: 'tiny_xnnpack' });
      await rejectsWith(s.run(fixtureFrame()), 'ERR_RUNTIME', /injected fault/);
      const after = await s.run(fixtureFrame());
      assert.equal(after.outputs.length, 3, 'the session is intact');
      addon.setFaultPlan({ hangRuns: [1, 1], hangMs: 1500, model: 'tiny_xnnpack' });
      const run = s.run(fixtureFrame());
      await rejectsWith(
        withDeadline(run, 200, () => new EngineError('ERR_DEADLINE', 'late')),
        'ERR_DEADLINE',
        /late/,
      );
      assert.equal(s.inFlight, 1, 'the hung run still holds its session');
      await s.disposeWhenIdle();
      assert.equal((await run).outputs.length, 3);
    } finally {
      addon.setFaultPlan({});
    }
  });

  describe('refusals, each with its code and the cause', () => {
    it('a truncated program', async () => {
      const dir = tempDir('htp-pte-');
      const cut = path.join(dir, 'cut.pte');
      fs.writeFileSync(cut, fs.readFileSync(XNNPACK).subarray(0, 2000));
      await rejectsWith(load(cut), 'ERR_MODEL_INVALID', /cut\.pte/);
    });

    it('a manifest size disagreeing with the program', async () => {
      await rejectsWith(
        load(XNNPACK, {
          preprocess: { width: 64, height: 32, mean: [0, 0, 0], std: [255, 255, 255] },
        }),
        'ERR_INPUT_MISMATCH',
        /width 32 but the manifest says 64/,
      );
    });

    it('a program delegating to QnnBackend where ExecuTorch’s QNN backend library is absent: named, with where to get it', async () => {
      // tiny_xnnpack.pte with its two delegate ids rewritten from XnnpackBackend to QnnBackend
      // (same flatbuffer, strings shortened in place): ExecuTorch would look for that backend.
      const bytes = Buffer.from(fs.readFileSync(XNNPACK));
      let at = bytes.indexOf('XnnpackBackend');
      let patched = 0;
      while (at >= 0) {
        bytes.writeUInt32LE(10, at - 4);
        bytes.write('QnnBackend\0\0\0\0', at, 'latin1');
        patched++;
        at = bytes.indexOf('XnnpackBackend', at);
      }
      assert.equal(patched, 2);
      const file = path.join(tempDir('htp-pte-qnn-'), 'qnn.pte');
      fs.writeFileSync(file, bytes);
      await rejectsWith(
        load(file, { provider: 'htp' }),
        'ERR_PROVIDER_UNAVAILABLE',
        /qnn\.pte delegates to QnnBackend, but ExecuTorch's QNN backend library is not here \(.*libqnn_executorch_backend\.so: cannot open shared object file.*HTP_EXECUTORCH_QNN_BACKEND/,
      );
    });

    it('an engine whose ExecuTorch plug-in is missing: ONNX models still run, a program names what is missing', () => {
      // The plug-in is opened once per process: a process of its own, pointed at no plug-in.
      const onnx = repoPath('models', 'yolo11n', 'yolo11n.onnx');
      const script = `
        const { EngineSession } = require(${JSON.stringify(repoPath('dist', 'src', 'engine', 'engineSession.js'))});
        (async () => {
          const s = await EngineSession.load({ model: ${JSON.stringify(onnx)}, threads: 1 });
          console.log('onnx ' + s.providerReport.runtime);
          s.dispose();
          await EngineSession.load({ model: ${JSON.stringify(XNNPACK)}, threads: 1 })
            .then(() => console.log('loaded'), (e) => console.log(e.code + ': ' + e.message));
        })();`;
      const r = spawnSync(process.execPath, ['-e', script], {
        env: { ...process.env, HTP_EXECUTORCH_PLUGIN: '/nonexistent/htp_executorch.so' },
        encoding: 'utf8',
      });
      assert.equal(r.status, 0, r.stderr);
      assert.match(r.stdout, /^onnx onnxruntime$/m);
      assert.match(
        r.stdout,
        /^ERR_RUNTIME_MISSING: model .*tiny_xnnpack\.pte is an ExecuTorch program, but this engine cannot load the ExecuTorch runtime: \/nonexistent\/htp_executorch\.so: cannot open shared object file/m,
      );
    });
  });
});
