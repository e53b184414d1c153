/**
 * provider 'gpu' (the QNN provider's GPU backend, libQnnGpu.so from the onnxruntime-qnn wheel) on
 * this machine, which has no Adreno GPU: the backend cannot initialise, ONNX Runtime only logs it
 * and would hand every node to the CPU; the engine refuses the session in the backend's words.
 * In the arm64 lane (no Qualcomm device at all) the provider offers no device to begin with.
 */
import * as assert from 'node:assert/strict';
import { EngineError } from '../../../src/core/engineError';
import { EngineSession } from '../../../src/engine/engineSession';
import { repoPath } from '../../support/paths';
import { model } from './engineFixtures';

const expectRefusal = (e: unknown): boolean => {
  assert.ok(e instanceof EngineError, String(e));
  assert.equal(e.code, 'ERR_PROVIDER_UNAVAILABLE', e.message);
  if (process.env.HTP_TEST_ARM64_LANE === '1') {
    // linux-arm64 without a Qualcomm device: the provider offers no device at all, so the GPU
    // backend is never tried.
    assert.match(
      e.message,
      /libonnxruntime_providers_qnn\.so loaded but offers no QNNExecutionProvider device/,
    );
    return true;
  }
  assert.match(e.message, /^provider gpu: the QNN GPU backend took no node of .*conv\.onnx: /);
  // QNN's own reason, as the GPU backend gives it.
  assert.match(e.message, /QNN_BACKEND_ERROR_CANNOT_INITIALIZE|Failed to initialize backend/);
  return true;
};

describe('provider gpu off a board', function () {
  this.timeout(60_000);

  it('refuses at load with the QNN GPU backend’s reason, not a silent CPU run', async () => {
    await assert.rejects(
      EngineSession.load({ model: model('conv.onnx'), provider: 'gpu', threads: 1 }),
      expectRefusal,
    );
  });

  it('refuses again the same way, and an ExecuTorch program with provider gpu names why', async () => {
    await assert.rejects(
      EngineSession.load({ model: model('conv.onnx'), provider: 'gpu', threads: 1 }),
      expectRefusal,
    );
    await assert.rejects(
      EngineSession.load({
        model: repoPath('test', 'fixtures', 'executorch', 'tiny_xnnpack.pte'),
        provider: 'gpu',
        threads: 1,
      }),
      (e: unknown) =>
        e instanceof EngineError &&
        e.code === 'ERR_PROVIDER_UNAVAILABLE' &&
        /ExecuTorch program, which has no GPU delegate/.test(e.message),
    );
  });

  it('htp.require_accelerator with provider gpu is a usage error: gpu.require_accelerator is the option', async () => {
    await assert.rejects(
      EngineSession.load({
        model: model('conv.onnx'),
        provider: 'gpu',
        htp: { require_accelerator: true },
      }),
      (e: unknown) =>
        e instanceof EngineError &&
        e.code === 'ERR_INVALID_OPTIONS' &&
        /gpu\.require_accelerator/.test(e.message),
    );
  });
});
