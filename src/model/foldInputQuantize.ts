/**
 * Rewrites an INT8 QDQ graph so that it takes its image already quantized: the graph input X that
 * feeds only a per-tensor QuantizeLinear(X, scale, zeroPoint) -> Y becomes a uint8 (or int8) input
 * named X, that QuantizeLinear is removed and its consumers read X instead of Y. The engine's fused
 * preprocessing then writes the quantized bytes itself (1 byte per value instead of 4), and neither
 * the CPU nor the QNN provider runs the input quantize. The scale and zero point are read from the
 * graph's own initializers, so they cannot drift from the model the way a copied manifest entry
 * could; the rewrite keeps every other byte of the file as it was.
 *
 * Protobuf is walked with readOnnxModel's Cursor; only the fields that change are re-encoded
 * (the ModelProto's graph, the graph's input and the nodes that read Y), weights are copied as
 * byte ranges, never decoded. Field numbers follow onnx/onnx.proto.
 */
import { Buffer } from 'node:buffer';
import { bufferSource } from '../util/byteSource';
import { fieldSpans, type FieldSpan, lengthDelimited, tagBytes } from './protoSpans';
import { Cursor, OnnxFormatError } from './readOnnxModel';
import { varint } from './onnxWriter';
import { type NodeFields, readNodeFields } from './onnxNodeFields';

export interface InputQuantization {
  /** The initializer's float32 value, exactly (a double holding that float). */
  readonly scale: number;
  readonly zeroPoint: number;
}

export type FoldInputResult =
  | {
      readonly folded: true;
      /** The rewritten ModelProto. */
      readonly bytes: Buffer;
      readonly input: string;
      readonly type: 'uint8' | 'int8';
      readonly quantization: InputQuantization;
      /** Name of the QuantizeLinear node that was removed. */
      readonly removedNode: string;
    }
  | { readonly folded: false; readonly reason: string };

const ONNX_FLOAT = 1;
const QUANT_TYPES: Readonly<Record<number, 'uint8' | 'int8'>> = { 2: 'uint8', 3: 'int8' };

interface NodeInfo extends NodeFields {
  readonly index: number;
}

function readNode(c: Cursor, index: number): NodeInfo {
  return { ...readNodeFields(c), index };
}

interface ScalarInit {
  readonly dataType: number;
  readonly elements: number;
  readonly value: number | undefined;
}

/** A scalar (one element) initializer's type and value; payloads of larger tensors are skipped. */
function readScalarInitializer(c: Cursor, buf: Buffer): { name: string; init: ScalarInit } {
  let name = '';
  let dataType = 0;
  let elements = 1;
  const values: number[] = [];
  let raw: { start: number; len: number } | undefined;
  while (!c.done) {
    const f = c.field();
    if (f.no === 1) {
      if (f.wire === 0) elements *= f.value;
      else if (f.wire === 2) {
        const d = c.sub(f);
        while (!d.done) elements *= d.varint();
      }
    } else if (f.no === 2 && f.wire === 0) dataType = f.value;
    else if (f.no === 8 && f.wire === 2) name = c.text(f);
    else if (f.no === 9 && f.wire === 2) raw = f;
    else if (f.no === 4) {
      // float_data: fixed32, packed or not.
      if (f.wire === 5) values.push(buf.readFloatLE(f.start));
      else if (f.wire === 2)
        for (let p = f.start; p + 4 <= f.start + f.len; p += 4) values.push(buf.readFloatLE(p));
    } else if (f.no === 5) {
      // int32_data (holds uint8 / int8 values too): varints, packed or not.
      if (f.wire === 0) values.push(f.value);
      else if (f.wire === 2) {
        const d = c.sub(f);
        while (!d.done) values.push(d.varint());
      }
    }
  }
  let value: number | undefined = values.length === 1 ? values[0] : undefined;
  if (raw !== undefined && elements === 1) {
    if (dataType === ONNX_FLOAT && raw.len === 4) value = buf.readFloatLE(raw.start);
    else if (dataType === 2 && raw.len === 1) value = buf.readUInt8(raw.start);
    else if (dataType === 3 && raw.len === 1) value = buf.readInt8(raw.start);
    else value = undefined;
  }
  return { name, init: { dataType, elements, value } };
}

function textField(no: number, s: string): Buffer {
  const b = Buffer.from(s, 'utf8');
  return Buffer.concat(lengthDelimited(no, [b]));
}

/** The same message with one varint field (at any depth along `path`) set to `value`. */
function withVarint(
  buf: Buffer,
  span: { start: number; len: number },
  path: readonly number[],
  value: number,
): Buffer {
  const c = new Cursor(bufferSource(buf), span.start, span.start + span.len);
  const out: Buffer[] = [];
  for (const f of fieldSpans(c)) {
    if (f.no !== path[0]) out.push(buf.subarray(f.from, f.to));
    else if (path.length === 1) out.push(Buffer.from([...tagBytes(f.no, 0), ...varint(value)]));
    else out.push(...lengthDelimited(f.no, [withVarint(buf, f, path.slice(1), value)]));
  }
  return Buffer.concat(out);
}

/**
 * Folds the input QuantizeLinear of `model` (see the module comment), or says why it cannot:
 * the graph must have one non-initializer input, read by exactly one node, a default-domain
 * QuantizeLinear with a float32 scalar scale and a uint8/int8 scalar zero point (initializers), no
 * attributes other than `axis`, and no subgraphs anywhere (they could read the removed tensor).
 * Throws OnnxFormatError when `model` is not a ModelProto.
 */
export function foldInputQuantize(model: Uint8Array, source = 'model'): FoldInputResult {
  const buf = Buffer.from(model.buffer, model.byteOffset, model.byteLength);
  const src = bufferSource(buf);
  const no = (reason: string): FoldInputResult => ({ folded: false, reason });
  let top: FieldSpan[];
  try {
    top = fieldSpans(new Cursor(src, 0, buf.length));
  } catch (e) {
    if (e instanceof OnnxFormatError)
      throw new OnnxFormatError(`${source}: not an ONNX model (${e.message})`);
    throw e;
  }
  const graphs = top.filter((f) => f.no === 7);
  if (graphs.length !== 1) throw new OnnxFormatError(`${source}: not an ONNX model (no graph)`);
  const graph = graphs[0]!;
  const gfields = fieldSpans(new Cursor(src, graph.start, graph.start + graph.len));

  const nodes: NodeInfo[] = [];
  const inits = new Map<string, ScalarInit>();
  const inputs: { span: FieldSpan; name: string; elemType: number }[] = [];
  const outputs = new Set<string>();
  for (const f of gfields) {
    const c = new Cursor(src, f.start, f.start + f.len);
    if (f.no === 1) nodes.push(readNode(c, nodes.length));
    else if (f.no === 5) {
      const { name, init } = readScalarInitializer(c, buf);
      inits.set(name, init);
    } else if (f.no === 11 || f.no === 12) {
      let name = '';
      let elemType = 0;
      while (!c.done) {
        const v = c.field();
        if (v.no === 1 && v.wire === 2) name = c.text(v);
        else if (v.no === 2 && v.wire === 2) {
          const t = c.sub(v);
          while (!t.done) {
            const tt = t.field();
            if (tt.no !== 1 || tt.wire !== 2) continue;
            const tensor = t.sub(tt);
            while (!tensor.done) {
              const e = tensor.field();
              if (e.no === 1 && e.wire === 0) elemType = e.value;
            }
          }
        }
      }
      if (f.no === 11) inputs.push({ span: f, name, elemType });
      else outputs.add(name);
    }
  }
  const graphInputs = inputs.filter((i) => !inits.has(i.name));
  if (graphInputs.length !== 1) return no(`the graph has ${graphInputs.length} inputs, not one`);
  const x = graphInputs[0]!;
  if (x.elemType !== ONNX_FLOAT) return no(`input ${x.name} is not float32`);
  if (outputs.has(x.name)) return no(`input ${x.name} is also a graph output`);
  if (nodes.some((n) => n.hasSubgraph)) return no('the graph has subgraphs');
  const readers = nodes.filter((n) => n.inputs.includes(x.name));
  const q = readers[0];
  if (readers.length !== 1 || q === undefined || q.opType !== 'QuantizeLinear')
    return no(`input ${x.name} does not feed exactly one QuantizeLinear`);
  if (q.domain !== '' && q.domain !== 'ai.onnx')
    return no(`QuantizeLinear ${q.name} is in domain ${q.domain}`);
  if (q.inputs[0] !== x.name) return no(`${x.name} is not the data input of ${q.name}`);
  const extra = q.attributeNames.filter((a) => a !== 'axis');
  if (extra.length > 0) return no(`QuantizeLinear ${q.name} has attribute ${extra.join(', ')}`);
  const y = q.outputs[0];
  if (y === undefined || q.outputs.length !== 1) return no(`${q.name} has no single output`);
  if (outputs.has(y)) return no(`${y} is a graph output`);
  const scale = inits.get(q.inputs[1] ?? '');
  if (scale?.dataType !== ONNX_FLOAT || scale.elements !== 1 || scale.value === undefined)
    return no(`the scale of ${q.name} is not a float32 scalar initializer`);
  if (!(scale.value > 0) || !Number.isFinite(scale.value))
    return no(`the scale of ${q.name} is ${scale.value}`);
  let type: 'uint8' | 'int8' = 'uint8';
  let zeroPoint = 0;
  const zpName = q.inputs[2] ?? '';
  if (zpName !== '') {
    const zp = inits.get(zpName);
    const t = zp ? QUANT_TYPES[zp.dataType] : undefined;
    if (zp === undefined || t === undefined || zp.elements !== 1 || zp.value === undefined)
      return no(`the zero point of ${q.name} is not a uint8/int8 scalar initializer`);
    type = t;
    zeroPoint = zp.value;
  }

  const elemCode = type === 'uint8' ? 2 : 3;
  const graphOut: Buffer[] = [];
  let nodeIndex = 0;
  for (const f of gfields) {
    const raw = buf.subarray(f.from, f.to);
    if (f.no === 1) {
      const n = nodes[nodeIndex++]!;
      if (n === q) continue;
      if (!n.inputs.includes(y)) {
        graphOut.push(raw);
        continue;
      }
      const parts = fieldSpans(new Cursor(src, f.start, f.start + f.len)).map((nf) => {
        if (nf.no !== 1) return buf.subarray(nf.from, nf.to);
        const name = buf.toString('utf8', nf.start, nf.start + nf.len);
        return name === y ? textField(1, x.name) : buf.subarray(nf.from, nf.to);
      });
      graphOut.push(...lengthDelimited(1, parts));
    } else if (f.no === 11 && f === x.span) {
      // ValueInfoProto.type (2) -> TypeProto.tensor_type (1) -> elem_type (1).
      graphOut.push(...lengthDelimited(11, [withVarint(buf, f, [2, 1, 1], elemCode)]));
    } else if (f.no === 13 && valueInfoName(buf, f) === y) {
      // The removed tensor's shape/type annotation would name a value nothing produces.
      continue;
    } else graphOut.push(raw);
  }
  const modelOut: Buffer[] = [];
  for (const f of top) {
    if (f === graph) modelOut.push(...lengthDelimited(7, graphOut));
    else modelOut.push(buf.subarray(f.from, f.to));
  }
  return {
    folded: true,
    bytes: Buffer.concat(modelOut),
    input: x.name,
    type,
    quantization: { scale: scale.value, zeroPoint },
    removedNode: q.name,
  };
}

function valueInfoName(buf: Buffer, f: FieldSpan): string {
  const c = new Cursor(bufferSource(buf), f.start, f.start + f.len);
  while (!c.done) {
    const v = c.field();
    if (v.no === 1 && v.wire === 2) return c.text(v);
  }
  return '';
}
