import { strict as assert } from 'node:assert';
import { Buffer } from 'node:buffer';
import {
  int64Raw,
  modelProto,
  nodeProto,
  ONNX_FLOAT,
  ONNX_INT64,
  tensorProto,
  valueInfoProto,
} from '../../../src/model/onnxWriter';
import { parseOnnxModel, OnnxFormatError } from '../../../src/model/readOnnxModel';
import { BATCH_METADATA_KEY, rebatchOnnxModel } from '../../../src/model/rebatchOnnxModel';

/** images [B,3,8,8] -> Reshape(a) -> [B,3,64]; Reshape(b) of that -> [B,192]; a Constant [4,48]. */
function model(batch: number | string, extra: { constantShape?: boolean } = {}): Uint8Array {
  const nodes = [
    nodeProto('Reshape', 'view_a', ['images', 'shape_a'], ['a']),
    nodeProto('Reshape', 'view_b', ['a', 'shape_b'], ['b']),
    nodeProto('Reshape', 'not_batch', ['b', 'shape_c'], ['c']),
  ];
  const initializers = [
    tensorProto('shape_a', ONNX_INT64, [3], int64Raw([1, 3, -1])),
    tensorProto('shape_c', ONNX_INT64, [2], int64Raw([0, -1])),
  ];
  if (extra.constantShape) {
    // The second shape from a Constant node, as torch.onnx often writes it.
    const value = [...Buffer.from(tensorProto('', ONNX_INT64, [2], int64Raw([1, 192])))];
    const attr = [
      ...Buffer.from([0x0a, 5]),
      ...Buffer.from('value'),
      0x2a,
      value.length,
      ...value,
      0xa0,
      0x01,
      4,
    ];
    nodes.unshift(nodeProto('Constant', 'shape_b_const', [], ['shape_b'], [attr]));
  } else {
    initializers.push(tensorProto('shape_b', ONNX_INT64, [2], int64Raw([1, 192])));
  }
  return modelProto({
    name: 'views',
    producer: 'rebatchOnnxModel.test',
    nodes,
    initializers,
    inputs: [valueInfoProto('images', ONNX_FLOAT, [batch, 3, 8, 8])],
    outputs: [
      valueInfoProto('a', ONNX_FLOAT, [batch, 3, 64]),
      valueInfoProto('c', ONNX_FLOAT, [batch, 192]),
    ],
  });
}

describe('rebatchOnnxModel', () => {
  it('gives the input and every output the batch, and each Reshape to a constant [1, ...] too', () => {
    for (const constantShape of [false, true]) {
      const r = rebatchOnnxModel(model(1, { constantShape }), 4);
      assert.equal(r.reshapes, 2, `constant shape node: ${constantShape}`);
      assert.equal(r.inputBatchWas, 1);
      const info = parseOnnxModel(r.bytes);
      assert.deepEqual(info.inputs[0]!.dims, [4, 3, 8, 8]);
      assert.deepEqual(
        info.outputs.map((o) => o.dims),
        [
          [4, 3, 64],
          [4, 192],
        ],
      );
      assert.equal(info.metadata[BATCH_METADATA_KEY], '4');
      // The original reshapes kept, their shapes now read from the batch-4 twins.
      assert.equal(info.opTypes.Reshape, 3);
      assert.equal(info.initializerCount, constantShape ? 4 : 5);
    }
  });

  it('fixes a symbolic batch to N', () => {
    const r = rebatchOnnxModel(model('batch'), 2);
    assert.equal(r.inputBatchWas, 'batch');
    assert.deepEqual(parseOnnxModel(r.bytes).inputs[0]!.dims, [2, 3, 8, 8]);
  });

  it('refuses a model whose input batch is neither 1 nor symbolic, and a batch below 2', () => {
    assert.throws(() => rebatchOnnxModel(model(3), 4), OnnxFormatError);
    assert.throws(() => rebatchOnnxModel(model(3), 4), /\[3, 3, 8, 8\] has no batch axis of 1/);
    assert.throws(() => rebatchOnnxModel(model(1), 1), RangeError);
  });

  it('refuses bytes that are not a model', () => {
    assert.throws(() => rebatchOnnxModel(Uint8Array.from([0x0a, 0xff]), 2), OnnxFormatError);
  });
});
