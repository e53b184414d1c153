import { strict as assert } from 'node:assert';
import { foldInputQuantize } from '../../../src/model/foldInputQuantize';
import { OnnxFormatError, parseOnnxModel } from '../../../src/model/readOnnxModel';
import { tinyQdqModelBytes } from '../../../src/model/tinyQdqModel';
import { inputQdqModel, type InputQdqOptions } from '../../support/inputQdqModel';

const BASE: InputQdqOptions = {
  scale: 0.0123,
  zeroPoint: { type: 'uint8', value: 7 },
  width: 8,
  height: 6,
};

function folded(bytes: Uint8Array) {
  const r = foldInputQuantize(bytes);
  assert.ok(r.folded, r.folded ? '' : r.reason);
  return r;
}

function refusal(o: Partial<InputQdqOptions>): string {
  const r = foldInputQuantize(inputQdqModel({ ...BASE, ...o }));
  assert.equal(r.folded, false);
  return r.folded ? '' : r.reason;
}

describe('foldInputQuantize (input QuantizeLinear -> quantized graph input)', function () {
  it('turns the doctor QDQ graph into a uint8-input graph without its input quantize', function () {
    const before = tinyQdqModelBytes();
    const r = folded(before);
    assert.equal(r.input, 'images');
    assert.equal(r.type, 'uint8');
    assert.equal(r.removedNode, 'q_in');
    // The initializer's float32 value, exactly: what ONNX Runtime divides by.
    assert.equal(r.quantization.scale, Math.fround(1 / 255));
    assert.equal(r.quantization.zeroPoint, 0);
    const a = parseOnnxModel(before);
    const b = parseOnnxModel(r.bytes);
    assert.deepEqual(b.inputs, [{ name: 'images', elemType: 'uint8', dims: [1, 3, 16, 16] }]);
    assert.deepEqual(b.outputs, a.outputs);
    assert.equal(b.nodeCount, a.nodeCount - 1);
    // Weights and quantization parameters stay (the DequantizeLinear still reads in_s / in_z).
    assert.equal(b.initializerCount, a.initializerCount);
    // Folding again finds nothing to fold: the input is no longer float.
    const again = foldInputQuantize(r.bytes);
    assert.deepEqual(again, { folded: false, reason: 'input images is not float32' });
  });

  it('reads a uint8 zero point, an int8 one (negative) and a missing one', function () {
    const u = folded(inputQdqModel(BASE));
    assert.deepEqual(
      { type: u.type, q: u.quantization },
      { type: 'uint8', q: { scale: Math.fround(0.0123), zeroPoint: 7 } },
    );
    const i = folded(inputQdqModel({ ...BASE, zeroPoint: { type: 'int8', value: -3 } }));
    assert.deepEqual({ type: i.type, zp: i.quantization.zeroPoint }, { type: 'int8', zp: -3 });
    assert.deepEqual(parseOnnxModel(i.bytes).inputs[0]?.elemType, 'int8');
    const n = folded(inputQdqModel({ ...BASE, zeroPoint: 'none' }));
    assert.deepEqual({ type: n.type, zp: n.quantization.zeroPoint }, { type: 'uint8', zp: 0 });
  });

  it('refuses, saying why, graphs whose input is not only quantized', function () {
    assert.equal(
      refusal({ secondReader: true }),
      'input images does not feed exactly one QuantizeLinear',
    );
    assert.equal(
      refusal({ qAttribute: { name: 'output_dtype', value: 3 } }),
      'QuantizeLinear q_images has attribute output_dtype',
    );
    assert.equal(refusal({ exposeQuantized: true }), 'xq is a graph output');
    // axis is meaningless for a scalar scale and accepted.
    assert.ok(
      foldInputQuantize(inputQdqModel({ ...BASE, qAttribute: { name: 'axis', value: 1 } })).folded,
    );
  });

  it('throws OnnxFormatError for bytes that are not a ModelProto', function () {
    assert.throws(
      () => foldInputQuantize(Uint8Array.from([0x0a, 0xff, 0xff, 0xff]), 'junk.onnx'),
      (e: unknown) =>
        e instanceof OnnxFormatError && /^junk\.onnx: not an ONNX model/.test(e.message),
    );
  });
});
