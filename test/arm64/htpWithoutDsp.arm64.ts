/**
 * Provider 'htp' on linux-arm64 without a Hexagon DSP, with the real aarch64 QNN libraries of
 * onnxruntime-qnn: the provider library loads, ONNX Runtime finds no HTP device, and the engine
 * refuses the session with an error naming what is missing, never a crash. (On x86-64 the HTP
 * library is a simulator: htpProvider.test.ts covers it there.)
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { EngineError } from '../../src/core/engineError';
import { DEFAULT_QNN_LIBRARY } from '../../src/engine/engineOptions';
import { EngineSession } from '../../src/engine/engineSession';
import { tinyQdqFrame, tinyQdqModelBytes } from '../../src/model/tinyQdqModel';
import { arm64Lane } from '../support/arm64Lane';

const EM_AARCH64 = 183; // ELF e_machine

function elfMachine(file: string): number {
  const head = Buffer.alloc(20);
  const fd = fs.openSync(file, 'r');
  try {
    fs.readSync(fd, head, 0, 20, 0);
  } finally {
    fs.closeSync(fd);
  }
  return head.readUInt16LE(18);
}

function refusedForMissingDsp(e: unknown): boolean {
  if (!(e instanceof EngineError) || e.code !== 'ERR_PROVIDER_UNAVAILABLE') return false;
  const pieces = [
    /the CDSP \(no remote processor named cdsp/,
    /\/dev\/fastrpc-cdsp/,
    /libcdsprpc\.so/,
  ];
  assert.ok(
    pieces.every((p) => p.test(e.message)),
    `the refusal names neither CDSP, FastRPC device nor libcdsprpc: ${e.message}`,
  );
  // The runtime's own words stay: the aarch64 provider library did load.
  assert.match(
    e.message,
    /libonnxruntime_providers_qnn\.so loaded but offers no QNNExecutionProvider device/,
  );
  return true;
}

describe('arm64 without a Hexagon DSP: provider htp', function () {
  this.timeout(120000);
  let dir = '';
  let model = '';

  before(() => {
    arm64Lane();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'htp-arm64-nodsp-'));
    model = path.join(dir, 'qdq_conv.onnx');
    fs.writeFileSync(model, tinyQdqModelBytes());
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('takes the aarch64 onnxruntime-qnn libraries as the default provider', () => {
    const qnnDir = path.dirname(DEFAULT_QNN_LIBRARY);
    for (const lib of ['libonnxruntime_providers_qnn.so', 'libQnnHtp.so', 'libQnnHtpV68Stub.so']) {
      assert.equal(elfMachine(path.join(qnnDir, lib)), EM_AARCH64, lib);
    }
  });

  it('refuses the session with ERR_PROVIDER_UNAVAILABLE naming the CDSP, /dev/fastrpc-cdsp and libcdsprpc.so', async () => {
    let refusal = '';
    await assert.rejects(EngineSession.load({ model, provider: 'htp' }), (e: unknown) => {
      refusal = (e as Error).message;
      return refusedForMissingDsp(e);
    });
    // Shown in the lane's output: what a robot team would read.
    process.stdout.write(`      refused: ${refusal}\n`);
  });

  it('refuses again with require_accelerator, and the process goes on running CPU sessions', async () => {
    await assert.rejects(
      EngineSession.load({ model, provider: 'htp', htp: { require_accelerator: true } }),
      refusedForMissingDsp,
    );
    const cpu = await EngineSession.load({ model, threads: 1 });
    try {
      const r = await cpu.run(tinyQdqFrame());
      assert.deepEqual([...r.outputs[0]!.dims], [1, 4, 16, 16]);
    } finally {
      cpu.dispose();
    }
  });
});
