import * as assert from 'node:assert/strict';
import { EngineError } from '../../../src/core/engineError';
import { parseEngineOptions } from '../../../src/engine/engineOptions';
import { toNativeOptions } from '../../../src/engine/nativeLoadOptions';
import type { InputPlan } from '../../../src/engine/inputPlan';

const PLAN: InputPlan = {
  name: 'images',
  type: 'uint8',
  width: 64,
  height: 32,
  channels: 3,
  layout: 'nhwc',
  batch: 1,
  quantization: { scale: 0.5, zeroPoint: 3 },
  freeDimensions: { batch: 1 },
};

describe('engine options', () => {
  it('fills every default', () => {
    const o = parseEngineOptions({ model: 'm.onnx' });
    assert.equal(o.provider, 'cpu');
    assert.equal(o.threads, 0);
    assert.deepEqual(o.preprocess.std, [255, 255, 255]);
    assert.equal(o.preprocess.resize, 'letterbox');
    assert.equal(o.htp.profile, 'sustained_high_performance');
    assert.equal(o.htp.htp_arch, 68);
  });

  it('rejects unknown keys and bad values with ERR_INVALID_OPTIONS naming the field', () => {
    const cases: [unknown, RegExp][] = [
      [{ model: 'm.onnx', provider: 'npu' }, /provider/],
      [{ model: 'm.onnx', gpu: { profile: 'burst' } }, /gpu/],
      [{ model: 'm.onnx', threads: -1 }, /threads/],
      [{ model: 'm.onnx', htp: { profile: 'turbo' } }, /htp\.profile/],
      [{ model: 'm.onnx', preprocess: { std: [1, 0, 1] } }, /preprocess\.std/],
      [{ model: 'm.onnx', bogus: 1 }, /bogus/],
      [{}, /model/],
    ];
    for (const [input, re] of cases) {
      assert.throws(
        () => parseEngineOptions(input),
        (e: unknown) =>
          e instanceof EngineError && e.code === 'ERR_INVALID_OPTIONS' && re.test(e.message),
      );
    }
  });

  it('provider gpu: the same QNN provider library, its GPU backend, no HTP option', () => {
    const n = toNativeOptions(
      parseEngineOptions({
        model: 'm.onnx',
        provider: 'gpu',
        gpu: { provider_options: { extra: '1' } },
      }),
      PLAN,
    );
    assert.equal(n.provider, 'gpu');
    assert.match(n.qnn?.providerLibrary ?? '', /libonnxruntime_providers_qnn\.so$/);
    assert.deepEqual(Object.keys(n.qnn?.providerOptions ?? {}).sort(), ['backend_path', 'extra']);
    assert.match(n.qnn?.providerOptions.backend_path ?? '', /\/libQnnGpu\.so$/);
  });

  it('builds QNN provider options for the HTP with the session-level vote at the idle level', () => {
    const n = toNativeOptions(
      parseEngineOptions({
        model: 'm.onnx',
        provider: 'htp',
        htp: { vtcm_mb: 8, profile: 'burst' },
      }),
      PLAN,
    );
    assert.match(n.qnn?.providerOptions.backend_path ?? '', /\/libQnnHtp\.so$/);
    assert.equal(n.qnn?.providerOptions.htp_arch, '68');
    assert.equal(n.qnn?.providerOptions.vtcm_mb, '8');
    assert.equal(n.qnn?.providerOptions.htp_performance_mode, 'low_power_saver');
    assert.match(n.qnn?.providerLibrary ?? '', /libonnxruntime_providers_qnn\.so$/);
  });

  it('hands the addon every key, the planned input and nothing to default', () => {
    const n = toNativeOptions(parseEngineOptions({ model: 'm.onnx' }), PLAN);
    assert.deepEqual(n.input, {
      name: 'images',
      elementType: 2,
      width: 64,
      height: 32,
      channels: 3,
      layout: 'nhwc',
      batch: 1,
    });
    assert.deepEqual(n.freeDimensions, { batch: 1 });
    assert.deepEqual(n.preprocess.quantization, { scale: 0.5, zeroPoint: 3 });
    assert.equal(n.preprocess.padValue, 114);
    assert.equal(n.qnn, null);
    const floatPlan: InputPlan = { ...PLAN, type: 'float32', quantization: undefined };
    const f = toNativeOptions(parseEngineOptions({ model: 'm.onnx' }), floatPlan);
    assert.equal(f.preprocess.quantization, null);
  });

  it('keeps the graph IO quantization on the HTP when the model must run entirely there', () => {
    const opts = (require_accelerator: boolean) =>
      toNativeOptions(
        parseEngineOptions({ model: 'm.onnx', provider: 'htp', htp: { require_accelerator } }),
        PLAN,
      ).qnn?.providerOptions;
    assert.equal(opts(true)?.offload_graph_io_quantization, '0');
    assert.equal(opts(false)?.offload_graph_io_quantization, undefined);
  });
});
