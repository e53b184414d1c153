/**
 * A tiny QDQ-quantized graph (Quantize → Dequantize → Conv with dequantized uint8 weights →
 * Quantize → Dequantize; float input `images` [1,3,16,16], output `features` [1,4,16,16]) as ONNX
 * bytes. `doctor` runs it on the HTP to prove offload: the QNN HTP backend takes every node of
 * it, so a node left on the CPU means a broken stack, not an unsupported op. Built here rather
 * than shipped so the installed package needs no binary model file and no Python.
 */
import {
  type Bytes,
  intsAttribute,
  modelProto,
  nodeProto,
  ONNX_FLOAT,
  ONNX_UINT8,
  tensorProto,
  valueInfoProto,
} from './onnxWriter';
import type { Frame } from '../core/frame';

export const TINY_QDQ_INPUT = { name: 'images', width: 16, height: 16 } as const;

/** A mid-grey rgb8 frame of the tiny graph's input size: what a run needs, nothing more. */
export function tinyQdqFrame(): Frame {
  const { width, height } = TINY_QDQ_INPUT;
  return {
    data: new Uint8Array(width * height * 3).fill(128),
    width,
    height,
    step: width * 3,
    encoding: 'rgb8',
  };
}

function f32(v: number): Bytes {
  const b = Buffer.alloc(4);
  b.writeFloatLE(v);
  return [...b];
}

export function tinyQdqModelBytes(): Uint8Array {
  // Deterministic weights spread over the uint8 range; their values do not matter, placement does.
  const weights = Array.from({ length: 4 * 3 * 3 * 3 }, (_, i) => (i * 37 + 11) % 256);
  return modelProto({
    name: 'doctor_qdq_conv',
    producer: 'htp_perception doctor',
    initializers: [
      tensorProto('in_s', ONNX_FLOAT, [], f32(1 / 255)),
      tensorProto('in_z', ONNX_UINT8, [], [0]),
      tensorProto('wq', ONNX_UINT8, [4, 3, 3, 3], weights),
      tensorProto('w_s', ONNX_FLOAT, [], f32(0.01)),
      tensorProto('w_z', ONNX_UINT8, [], [128]),
      tensorProto('out_s', ONNX_FLOAT, [], f32(0.05)),
      tensorProto('out_z', ONNX_UINT8, [], [128]),
    ],
    nodes: [
      nodeProto('QuantizeLinear', 'q_in', ['images', 'in_s', 'in_z'], ['xq']),
      nodeProto('DequantizeLinear', 'dq_in', ['xq', 'in_s', 'in_z'], ['x']),
      nodeProto('DequantizeLinear', 'dq_w', ['wq', 'w_s', 'w_z'], ['w']),
      nodeProto('Conv', 'conv0', ['x', 'w'], ['c'], [intsAttribute('pads', [1, 1, 1, 1])]),
      nodeProto('QuantizeLinear', 'q_out', ['c', 'out_s', 'out_z'], ['cq']),
      nodeProto('DequantizeLinear', 'dq_out', ['cq', 'out_s', 'out_z'], ['features']),
    ],
    inputs: [valueInfoProto('images', ONNX_FLOAT, [1, 3, 16, 16])],
    outputs: [valueInfoProto('features', ONNX_FLOAT, [1, 4, 16, 16])],
  });
}
