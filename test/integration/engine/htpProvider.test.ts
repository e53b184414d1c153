/**
 * Provider 'htp' through the QNN plug-in of PyPI onnxruntime-qnn. On linux x86-64 its HTP backend
 * is a simulator of the Hexagon HTP: graphs are really partitioned, compiled for htp_arch 68 and
 * executed (bit-accurate quantized maths, not device timing or power). What only a device proves:
 * speed, FastRPC, the effect of power votes, VTCM limits.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { EngineError } from '../../../src/core/engineError';
import { DEFAULT_QNN_LIBRARY } from '../../../src/engine/engineOptions';
import type { Frame } from '../../../src/core/frame';
import { EngineSession } from '../../../src/engine/engineSession';
import { model, pattern } from './engineFixtures';

const frame: Frame = {
  data: pattern(16 * 16 * 3, 21),
  width: 16,
  height: 16,
  step: 48,
  encoding: 'rgb8',
};
const OUTPUT_STEP = 0.05; // the QDQ model's output scale

function maxDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  assert.equal(a.length, b.length);
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]! - b[i]!));
  return m;
}

describe('EngineSession provider htp (QNN plug-in)', function () {
  this.timeout(60000);

  it('rejects with ERR_PROVIDER_UNAVAILABLE when the provider library is missing', async () => {
    // Runs in a child process: ORT allows one registration path per provider name per process.
    const { spawnSync } = await import('node:child_process');
    const script = `
      const { EngineSession } = require(${JSON.stringify(path.resolve(__dirname, '../../../src/engine/engineSession.js'))});
      EngineSession.load({ model: ${JSON.stringify(model('qdq_conv.onnx'))}, provider: 'htp',
        htp: { provider_library: '/nonexistent/libonnxruntime_providers_qnn.so' } })
        .then(() => { console.log('LOADED'); }, (e) => { console.log(JSON.stringify({ code: e.code, message: e.message })); });`;
    const r = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
    const line = r.stdout.trim().split('\n').pop() ?? '';
    const e = JSON.parse(line) as { code: string; message: string };
    assert.equal(e.code, 'ERR_PROVIDER_UNAVAILABLE');
    assert.match(e.message, /\/nonexistent\/libonnxruntime_providers_qnn\.so does not exist/);
  });

  // QNN's HTP simulator is an x86-64 library, so the block exists only there; on arm64 the HTP is
  // a device, and the arm64 lane runs test/arm64/htpWithoutDsp.arm64.ts instead (scripts/arm64.sh
  // names this block as not run, rather than mocha counting six skips).
  const describeOnSimulator = os.platform() === 'linux' && os.arch() === 'x64' ? describe : null;
  describeOnSimulator?.('on this machine (HTP simulator)', () => {
    before(function () {
      assert.ok(
        fs.existsSync(DEFAULT_QNN_LIBRARY),
        `${DEFAULT_QNN_LIBRARY} missing: run 'bash scripts/bootstrap.sh 60-onnxruntime'`,
      );
    });

    it('partitions a QDQ model onto QNN, reports the CPU nodes, and matches the CPU result within one output step', async () => {
      const htp = await EngineSession.load({ model: model('qdq_conv.onnx'), provider: 'htp' });
      const cpu = await EngineSession.load({ model: model('qdq_conv.onnx'), threads: 1 });
      try {
        const rep = htp.providerReport;
        assert.equal(rep.assignmentKnown, true);
        assert.ok((rep.nodesByProvider.QNNExecutionProvider ?? 0) > 0, JSON.stringify(rep));
        // With CPU fallback allowed, ORT leaves the float<->uint8 boundary Q/DQ pair to the CPU.
        assert.deepEqual(rep.cpuNodes.map((n) => n.opType).sort(), [
          'DequantizeLinear',
          'QuantizeLinear',
        ]);
        const [a, b] = await Promise.all([htp.run(frame), cpu.run(frame)]);
        assert.deepEqual([...a.outputs[0]!.dims], [1, 4, 16, 16]);
        const d = maxDiff(a.outputs[0]!.data as Float32Array, b.outputs[0]!.data as Float32Array);
        assert.ok(d <= OUTPUT_STEP + 1e-6, `max |htp - cpu| = ${d}`);
        assert.equal(htp.power.state, 'voted');
        assert.equal(htp.power.voteFailures, 0, htp.power.lastError);
      } finally {
        htp.dispose();
        cpu.dispose();
      }
      assert.equal(htp.power.state, 'disposed');
      assert.equal(htp.power.votesDown, 1);
    });

    it('pins a symbolic batch to 1 so the HTP can compile the graph (otherwise QNN silently takes nothing)', async () => {
      const s = await EngineSession.load({ model: model('qdq_dynbatch.onnx'), provider: 'htp' });
      try {
        assert.deepEqual([...s.inputs[0]!.dims], [1, 3, 16, 16]);
        assert.ok(
          (s.providerReport.nodesByProvider.QNNExecutionProvider ?? 0) > 0,
          JSON.stringify(s.providerReport),
        );
        assert.equal(s.providerReport.note, '');
      } finally {
        s.dispose();
      }
    });

    it('refuses a float graph (HTP v68 has no float path) with a coded error that says what the HTP needs', async () => {
      await assert.rejects(
        EngineSession.load({ model: model('conv.onnx'), provider: 'htp' }),
        (e: unknown) =>
          e instanceof EngineError &&
          e.code === 'ERR_MODEL_INVALID' &&
          /conv\.onnx.*QDQ/s.test(e.message),
      );
    });

    it('require_accelerator: a fully supported graph loads with every node on QNN', async () => {
      const s = await EngineSession.load({
        model: model('qdq_conv.onnx'),
        provider: 'htp',
        htp: { require_accelerator: true },
      });
      try {
        assert.equal(s.providerReport.fullyAccelerated, true);
        assert.deepEqual(Object.keys(s.providerReport.nodesByProvider), ['QNNExecutionProvider']);
      } finally {
        s.dispose();
      }
    });

    it('require_accelerator: any CPU fallback fails the load, listing the nodes', async () => {
      const loose = await EngineSession.load({ model: model('qdq_mixed.onnx'), provider: 'htp' });
      assert.ok(
        loose.providerReport.cpuNodes.some((n) => n.name === 'topk0' && n.opType === 'TopK'),
      );
      loose.dispose();
      await assert.rejects(
        EngineSession.load({
          model: model('qdq_mixed.onnx'),
          provider: 'htp',
          htp: { require_accelerator: true },
        }),
        (e: unknown) =>
          e instanceof EngineError &&
          e.code === 'ERR_ACCELERATOR_FALLBACK' &&
          /topk0 \(TopK\)/.test(e.message),
      );
    });

    it('writes a v68 EP context cache once and loads it on the next start', async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'htp-ctx-'));
      const cache = path.join(dir, 'qdq_conv_ctx.onnx');
      try {
        const first = await EngineSession.load({
          model: model('qdq_conv.onnx'),
          provider: 'htp',
          htp: { context_cache: cache },
        });
        assert.equal(first.providerReport.modelSource, 'onnx');
        assert.equal(first.providerReport.contextCacheWritten, true);
        assert.ok(fs.statSync(cache).size > 0);
        const r1 = await first.run(frame);
        first.dispose();
        const second = await EngineSession.load({
          model: model('qdq_conv.onnx'),
          provider: 'htp',
          htp: { context_cache: cache },
        });
        assert.equal(second.providerReport.modelSource, 'context_cache');
        assert.equal(second.providerReport.contextCacheWritten, false);
        const ctxNodes = second.providerReport.nodesByProvider.QNNExecutionProvider ?? 0;
        assert.ok(ctxNodes >= 1);
        const r2 = await second.run(frame);
        second.dispose();
        assert.equal(
          maxDiff(r1.outputs[0]!.data as Float32Array, r2.outputs[0]!.data as Float32Array),
          0,
        );
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });
  });
});
