/**
 * Writes small ONNX messages by hand (the doctor's tiny graph, test models, metadata entries):
 * the few protobuf encodings needed, and builders for the ModelProto parts readOnnxModel reads.
 * Field numbers follow onnx/onnx.proto. Fields are byte arrays concatenated into their parent.
 */

export type Bytes = readonly number[];

export function varint(n: number): number[] {
  if (!Number.isSafeInteger(n) || n < 0) {
    throw new RangeError(`varint: ${n} is not a safe non-negative integer`);
  }
  const out: number[] = [];
  let v = n;
  while (v >= 0x80) {
    out.push((v % 0x80) | 0x80);
    v = Math.floor(v / 0x80);
  }
  out.push(v);
  return out;
}

/** A varint field (wire type 0). */
export function numField(no: number, v: number): Bytes {
  return [...varint(no * 8), ...varint(v)];
}

/** A length-delimited field (wire type 2): a sub-message, bytes or a string. */
export function bytesField(no: number, payload: Bytes | Uint8Array): Bytes {
  return [...varint(no * 8 + 2), ...varint(payload.length), ...payload];
}

export function textField(no: number, s: string): Bytes {
  return bytesField(no, Buffer.from(s, 'utf8'));
}

/** TensorProto.DataType codes used here. */
export const ONNX_FLOAT = 1;
export const ONNX_UINT8 = 2;
export const ONNX_INT64 = 7;

/** Little-endian int64 raw_data of `values` (shape tensors: Reshape's target, Slice's ends). */
export function int64Raw(values: readonly number[]): Bytes {
  const b = Buffer.alloc(values.length * 8);
  values.forEach((v, i) => b.writeBigInt64LE(BigInt(v), i * 8));
  return [...b];
}

export function tensorProto(
  name: string,
  dataType: number,
  dims: readonly number[],
  raw: Bytes,
): Bytes {
  return [
    ...dims.flatMap((d) => numField(1, d)),
    ...numField(2, dataType),
    ...textField(8, name),
    ...bytesField(9, raw),
  ];
}

/** A tensor value info; a string dim is a symbolic (dim_param) dimension. */
export function valueInfoProto(
  name: string,
  dataType: number,
  dims: readonly (number | string)[],
): Bytes {
  const shape = dims.flatMap((d) =>
    bytesField(1, typeof d === 'number' ? numField(1, d) : textField(2, d)),
  );
  const tensorType = [...numField(1, dataType), ...bytesField(2, shape)];
  return [...textField(1, name), ...bytesField(2, bytesField(1, tensorType))];
}

export function nodeProto(
  op: string,
  name: string,
  inputs: readonly string[],
  outputs: readonly string[],
  attributes: readonly Bytes[] = [],
): Bytes {
  return [
    ...inputs.flatMap((i) => textField(1, i)),
    ...outputs.flatMap((o) => textField(2, o)),
    ...textField(3, name),
    ...textField(4, op),
    ...attributes.flatMap((a) => bytesField(5, a)),
  ];
}

/** An INT attribute (AttributeProto type 2). */
export function intAttribute(name: string, value: number): Bytes {
  return [...textField(1, name), ...numField(3, value), ...numField(20, 2)];
}

/** An INTS attribute (AttributeProto type 7). */
export function intsAttribute(name: string, values: readonly number[]): Bytes {
  return [...textField(1, name), ...values.flatMap((v) => numField(8, v)), ...numField(20, 7)];
}

/** ModelProto.metadata_props entries; appended to a serialized model they add (or override) keys. */
export function metadataPropsBytes(props: Readonly<Record<string, string>>): Uint8Array {
  return Uint8Array.from(
    Object.entries(props).flatMap(([k, v]) =>
      bytesField(14, [...textField(1, k), ...textField(2, v)]),
    ),
  );
}

export interface GraphParts {
  readonly name: string;
  readonly nodes: readonly Bytes[];
  readonly initializers: readonly Bytes[];
  readonly inputs: readonly Bytes[];
  readonly outputs: readonly Bytes[];
  readonly producer: string;
  readonly metadata?: Readonly<Record<string, string>>;
}

/** A ModelProto at IR version 8, default-domain opset 17 (read by every ORT the project uses). */
export function modelProto(g: GraphParts): Uint8Array {
  const graph = [
    ...g.nodes.flatMap((n) => bytesField(1, n)),
    ...textField(2, g.name),
    ...g.initializers.flatMap((t) => bytesField(5, t)),
    ...g.inputs.flatMap((v) => bytesField(11, v)),
    ...g.outputs.flatMap((v) => bytesField(12, v)),
  ];
  const model = [
    ...numField(1, 8),
    ...textField(2, g.producer),
    ...bytesField(7, graph),
    ...bytesField(8, [...textField(1, ''), ...numField(2, 17)]),
  ];
  const meta = metadataPropsBytes(g.metadata ?? {});
  const out = new Uint8Array(model.length + meta.length);
  out.set(model);
  out.set(meta, model.length);
  return out;
}
