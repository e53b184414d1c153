/**
 * Serializes a tiny QDQ-quantized graph (Quantize → Dequantize → Conv with dequantized uint8
 * weights → Quantize → Dequantize; float input `images` [1,3,16,16], output `features`
 * [1,4,16,16]) as ONNX protobuf bytes. `doctor` runs it on the HTP to prove offload: every node
 * of it is one the QNN HTP backend takes, so any node left on the CPU means a broken stack, not
 * an unsupported op. Built here rather than shipped so the installed package needs no binary
 * model file and no Python. Field numbers follow onnx/onnx.proto.
 */

function varint(n: number): number[] {
  const out: number[] = [];
  let v = n;
  while (v >= 0x80) {
    out.push((v % 0x80) | 0x80);
    v = Math.floor(v / 0x80);
  }
  out.push(v);
  return out;
}

type Bytes = readonly number[];

const num = (no: number, v: number): Bytes => [...varint(no * 8), ...varint(v)];
const bytes = (no: number, payload: Bytes): Bytes => [
  ...varint(no * 8 + 2),
  ...varint(payload.length),
  ...payload,
];
const text = (no: number, s: string): Bytes => bytes(no, [...Buffer.from(s, 'utf8')]);

const FLOAT = 1;
const UINT8 = 2;
const ATTR_INTS = 7;

function tensor(name: string, dataType: number, dims: readonly number[], raw: Bytes): Bytes {
  return [
    ...dims.flatMap((d) => num(1, d)),
    ...num(2, dataType),
    ...text(8, name),
    ...bytes(9, raw),
  ];
}

function f32(v: number): Bytes {
  const b = Buffer.alloc(4);
  b.writeFloatLE(v);
  return [...b];
}

function valueInfo(name: string, dims: readonly number[]): Bytes {
  const shape = dims.flatMap((d) => bytes(1, num(1, d)));
  const tensorType = [...num(1, FLOAT), ...bytes(2, shape)];
  return [...text(1, name), ...bytes(2, bytes(1, tensorType))];
}

function node(
  op: string,
  name: string,
  inputs: readonly string[],
  outputs: readonly string[],
  attrs: Bytes[] = [],
): Bytes {
  return [
    ...inputs.flatMap((i) => text(1, i)),
    ...outputs.flatMap((o) => text(2, o)),
    ...text(3, name),
    ...text(4, op),
    ...attrs.flatMap((a) => bytes(5, a)),
  ];
}

function intsAttr(name: string, values: readonly number[]): Bytes {
  return [...text(1, name), ...values.flatMap((v) => num(8, v)), ...num(20, ATTR_INTS)];
}

export const TINY_QDQ_INPUT = { name: 'images', width: 16, height: 16 } as const;

export function tinyQdqModelBytes(): Uint8Array {
  // Deterministic weights spread over the uint8 range; their values do not matter, placement does.
  const weights = Array.from({ length: 4 * 3 * 3 * 3 }, (_, i) => (i * 37 + 11) % 256);
  const inits = [
    tensor('in_s', FLOAT, [], f32(1 / 255)),
    tensor('in_z', UINT8, [], [0]),
    tensor('wq', UINT8, [4, 3, 3, 3], weights),
    tensor('w_s', FLOAT, [], f32(0.01)),
    tensor('w_z', UINT8, [], [128]),
    tensor('out_s', FLOAT, [], f32(0.05)),
    tensor('out_z', UINT8, [], [128]),
  ];
  const nodes = [
    node('QuantizeLinear', 'q_in', ['images', 'in_s', 'in_z'], ['xq']),
    node('DequantizeLinear', 'dq_in', ['xq', 'in_s', 'in_z'], ['x']),
    node('DequantizeLinear', 'dq_w', ['wq', 'w_s', 'w_z'], ['w']),
    node('Conv', 'conv0', ['x', 'w'], ['c'], [intsAttr('pads', [1, 1, 1, 1])]),
    node('QuantizeLinear', 'q_out', ['c', 'out_s', 'out_z'], ['cq']),
    node('DequantizeLinear', 'dq_out', ['cq', 'out_s', 'out_z'], ['features']),
  ];
  const graph = [
    ...nodes.flatMap((n) => bytes(1, n)),
    ...text(2, 'doctor_qdq_conv'),
    ...inits.flatMap((t) => bytes(5, t)),
    ...bytes(11, valueInfo('images', [1, 3, 16, 16])),
    ...bytes(12, valueInfo('features', [1, 4, 16, 16])),
  ];
  const model = [
    ...num(1, 8), // IR version 8: opset 17, read by every ONNX Runtime the project supports
    ...text(2, 'htp_perception doctor'),
    ...bytes(7, graph),
    ...bytes(8, [...text(1, ''), ...num(2, 17)]),
  ];
  return Uint8Array.from(model);
}
