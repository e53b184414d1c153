import * as assert from 'node:assert/strict';
import { elementTypeFromCode, ELEMENT_TYPES, onnxElementCode } from '../../../src/core/elementType';
import { EngineError } from '../../../src/core/engineError';
import { parseEngineOptions } from '../../../src/engine/engineOptions';
import type { ModelTensor } from '../../../src/engine/inputPlan';
import { planInput } from '../../../src/engine/inputPlan';

function tensor(
  dims: number[],
  type: ModelTensor['type'] = 'float32',
  sym: string[] = [],
): ModelTensor {
  return { name: 'x', dims, symbolicDims: dims.map((_, i) => sym[i] ?? ''), type };
}
const OUT = [{ ...tensor([1, 10]), name: 'y' }];

function mismatch(fn: () => unknown, re: RegExp): void {
  assert.throws(
    fn,
    (e: unknown) =>
      e instanceof EngineError && e.code === 'ERR_INPUT_MISMATCH' && re.test(e.message),
  );
}

describe('input plan', () => {
  const opts = (o: object = {}) => parseEngineOptions({ model: 'm.onnx', ...o });

  it('guesses the layout once, from the channel axis', () => {
    assert.equal(planInput(opts(), [tensor([1, 3, 24, 40])], OUT).layout, 'nchw');
    const nhwc = planInput(opts(), [tensor([1, 24, 40, 3])], OUT);
    assert.deepEqual([nhwc.layout, nhwc.width, nhwc.height, nhwc.channels], ['nhwc', 40, 24, 3]);
    mismatch(() => planInput(opts(), [tensor([1, 5, 24, 40])], OUT), /set preprocess\.layout/);
  });

  it('pins symbolic batch and size to what it will feed', () => {
    const p = planInput(
      opts({ preprocess: { width: 64, height: 32 } }),
      [tensor([-1, 3, -1, -1], 'float32', ['batch', '', 'h', 'w'])],
      OUT,
    );
    assert.deepEqual(p.freeDimensions, { batch: 1, h: 32, w: 64 });
    mismatch(
      () => planInput(opts(), [tensor([1, 3, -1, -1], 'float32', ['', '', 'h', 'w'])], OUT),
      /dynamic width/,
    );
  });

  it('plans batch N: a symbolic batch pinned to it, a fixed one must be it, a batch-1 model names the copy to make', () => {
    const dyn = planInput(
      opts({ batch: 4 }),
      [tensor([-1, 3, 8, 8], 'float32', ['n', '', '', ''])],
      OUT,
    );
    assert.equal(dyn.batch, 4);
    assert.deepEqual(dyn.freeDimensions, { n: 4 });
    assert.equal(planInput(opts({ batch: 4 }), [tensor([4, 3, 8, 8], 'float32')], OUT).batch, 4);
    mismatch(
      () => planInput(opts({ batch: 4 }), [tensor([1, 3, 8, 8], 'float32')], OUT),
      /takes batch 1, not 4: make a batch-4 copy with 'htp-perception model import MODEL --batch 4'/,
    );
    mismatch(
      () => planInput(opts({ batch: 2 }), [tensor([4, 3, 8, 8], 'float32')], OUT),
      /has batch 4, expected 2/,
    );
  });

  it('quantizes integer inputs from the manifest, else as raw pixels', () => {
    assert.deepEqual(planInput(opts(), [tensor([1, 3, 8, 8], 'uint8')], OUT).quantization, {
      scale: 1 / 255,
      zeroPoint: 0,
    });
    assert.deepEqual(planInput(opts(), [tensor([1, 3, 8, 8], 'int8')], OUT).quantization, {
      scale: 1 / 255,
      zeroPoint: -128,
    });
    const q = { scale: 0.02, zeroPoint: 5 };
    assert.deepEqual(
      planInput(
        opts({ preprocess: { inputQuantization: q } }),
        [tensor([1, 3, 8, 8], 'uint8')],
        OUT,
      ).quantization,
      q,
    );
    assert.equal(planInput(opts(), [tensor([1, 3, 8, 8])], OUT).quantization, undefined);
  });

  it('refuses types the engine can neither feed nor return', () => {
    mismatch(
      () => planInput(opts(), [tensor([1, 3, 8, 8], 'float64')], OUT),
      /float64; the engine feeds/,
    );
    mismatch(
      () => planInput(opts(), [tensor([1, 3, 8, 8])], [{ ...tensor([1]), type: 'uint16' }]),
      /uint16, which the engine does not return/,
    );
  });
});

describe('element types', () => {
  it('maps every name to its ONNX code and back', () => {
    for (const t of ELEMENT_TYPES)
      assert.equal(elementTypeFromCode(onnxElementCode(t), 't', 'ERR_RUNTIME'), t);
  });
  it('fails on a code it does not know (never casts)', () => {
    assert.throws(
      () => elementTypeFromCode(16, 'output z', 'ERR_MODEL_INVALID'),
      (e: unknown) =>
        e instanceof EngineError &&
        e.code === 'ERR_MODEL_INVALID' &&
        /output z has ONNX element type 16/.test(e.message),
    );
  });
});
