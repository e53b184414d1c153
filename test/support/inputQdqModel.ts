/**
 * Small QDQ graphs whose input goes through QuantizeLinear -> DequantizeLinear -> output, written
 * with src/model/onnxWriter: the output is exactly the dequantized input tensor, so a test can
 * see what the graph's quantize (or the engine's preprocessing, once folded) produced.
 */
import {
  type Bytes,
  modelProto,
  nodeProto,
  numField,
  ONNX_FLOAT,
  ONNX_UINT8,
  tensorProto,
  textField,
  valueInfoProto,
} from '../../src/model/onnxWriter';

const ONNX_INT8 = 3;

export interface InputQdqOptions {
  readonly scale: number;
  /** 'none': QuantizeLinear without a zero point input (uint8, 0). */
  readonly zeroPoint: { readonly type: 'uint8' | 'int8'; readonly value: number } | 'none';
  readonly width: number;
  readonly height: number;
  /** A second node also reading the input (the fold must refuse). */
  readonly secondReader?: boolean;
  /** An INT attribute on the QuantizeLinear (e.g. output_dtype; the fold must refuse). */
  readonly qAttribute?: { readonly name: string; readonly value: number };
  /** The quantized tensor is also a graph output (the fold must refuse). */
  readonly exposeQuantized?: boolean;
}

function f32(v: number): Bytes {
  const b = Buffer.alloc(4);
  b.writeFloatLE(v);
  return [...b];
}

function intAttribute(name: string, v: number): Bytes {
  return [...textField(1, name), ...numField(3, v), ...numField(20, 2)];
}

export function inputQdqModel(o: InputQdqOptions): Uint8Array {
  const dims = [1, 3, o.height, o.width];
  const zp = o.zeroPoint;
  const initializers: Bytes[] = [tensorProto('x_scale', ONNX_FLOAT, [], f32(o.scale))];
  const qInputs = ['images', 'x_scale'];
  let qType = ONNX_UINT8;
  if (zp !== 'none') {
    qType = zp.type === 'uint8' ? ONNX_UINT8 : ONNX_INT8;
    initializers.push(tensorProto('x_zero', qType, [], [zp.value & 0xff]));
    qInputs.push('x_zero');
  }
  const nodes: Bytes[] = [
    nodeProto(
      'QuantizeLinear',
      'q_images',
      qInputs,
      ['xq'],
      o.qAttribute ? [intAttribute(o.qAttribute.name, o.qAttribute.value)] : [],
    ),
    nodeProto(
      'DequantizeLinear',
      'dq_images',
      qInputs.map((n) => (n === 'images' ? 'xq' : n)),
      ['features'],
    ),
  ];
  const outputs = [valueInfoProto('features', ONNX_FLOAT, dims)];
  if (o.secondReader) {
    nodes.push(nodeProto('Identity', 'copy_images', ['images'], ['images_copy']));
    outputs.push(valueInfoProto('images_copy', ONNX_FLOAT, dims));
  }
  if (o.exposeQuantized) outputs.push(valueInfoProto('xq', qType, dims));
  return modelProto({
    name: 'input_qdq',
    producer: 'htp_perception tests',
    initializers,
    nodes,
    inputs: [valueInfoProto('images', ONNX_FLOAT, dims)],
    outputs,
  });
}
