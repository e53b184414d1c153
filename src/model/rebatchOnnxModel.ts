/**
 * A batch-N copy of an ONNX image model (`model import MODEL --batch N`): the image input and every
 * output get N on their leading axis, and each Reshape whose target shape is a constant starting
 * with 1 (what a static batch-1 export bakes in, e.g. Ultralytics' `view(1, C, -1)`) gets N there
 * instead, through a new initializer of its own (the old one may feed other nodes). A symbolic
 * batch (a `dynamic=True` export) is simply fixed to N: the HTP compiles static shapes only.
 * Recorded value infos are dropped (ONNX Runtime infers them again for the new batch).
 *
 * Whether the copy computes per slot what the original computes per image is not decidable from
 * the graph alone (a constant leading 1 may not be the batch): the caller runs both and compares
 * (batchCopyCheck.ts). Weights are kept as byte ranges of the source, never decoded.
 */
import { Buffer } from 'node:buffer';
import { bufferSource } from '../util/byteSource';
import { fieldSpans, type FieldSpan, lengthDelimited } from './protoSpans';
import { Cursor, OnnxFormatError, readValueInfoFields } from './readOnnxModel';
import {
  int64Raw,
  metadataPropsBytes,
  ONNX_INT64,
  textField,
  tensorProto,
  valueInfoProto,
} from './onnxWriter';
import { type NodeFields, readNodeFields } from './onnxNodeFields';

/** ModelProto metadata key of a batch-N copy: its batch. */
export const BATCH_METADATA_KEY = 'htp_perception.batch';

export interface RebatchedModel {
  readonly bytes: Buffer;
  readonly batch: number;
  readonly input: string;
  /** Reshape nodes whose constant target shape now starts with the batch. */
  readonly reshapes: number;
  /** What the input's leading dimension was: 1, a symbolic name, or -1 (dynamic, unnamed). */
  readonly inputBatchWas: number | string;
}

type ValueInfo = ReturnType<typeof readValueInfoFields>;

function readValueInfo(buf: Buffer, span: FieldSpan): ValueInfo {
  return readValueInfoFields(new Cursor(bufferSource(buf), span.start, span.start + span.len));
}

/**
 * Graph field `no` (input 11, output 12) holding `v` with `batch` on its leading axis. A dimension
 * with neither value nor name gets a name of its own, which keeps it symbolic.
 */
function batchedValueInfo(no: number, v: ValueInfo, batch: number): Buffer {
  const dims = [batch, ...(v.tensor?.dims ?? []).slice(1)].map((d, i) =>
    d === -1 ? `${v.name}_dim${i}` : d,
  );
  return Buffer.concat(
    lengthDelimited(no, [Buffer.from(valueInfoProto(v.name, v.tensor?.elemCode ?? 0, dims))]),
  );
}

interface NodeAt extends NodeFields {
  readonly span: FieldSpan;
}

function readNode(buf: Buffer, span: FieldSpan): NodeAt {
  return {
    ...readNodeFields(new Cursor(bufferSource(buf), span.start, span.start + span.len)),
    span,
  };
}

/** An INT64 TensorProto of rank 1 (raw_data or int64_data): its name and values. */
function readInt64Vector(buf: Buffer, span: FieldSpan): { name: string; values: number[] } | null {
  const c = new Cursor(bufferSource(buf), span.start, span.start + span.len);
  let name = '';
  let dataType = 0;
  let rank = 0;
  const values: number[] = [];
  while (!c.done) {
    const f = c.field();
    if (f.no === 1) rank += 1;
    else if (f.no === 2 && f.wire === 0) dataType = f.value;
    else if (f.no === 8 && f.wire === 2) name = c.text(f);
    else if (f.no === 7 && f.wire === 0) values.push(f.value);
    else if (f.no === 7 && f.wire === 2) {
      const p = c.sub(f);
      while (!p.done) values.push(p.varint());
    } else if (f.no === 9 && f.wire === 2) {
      for (let i = 0; i + 8 <= f.len; i += 8) values.push(Number(buf.readBigInt64LE(f.start + i)));
    } else if (f.no === 14) return null; // external data: not a constant this can read
  }
  return dataType === ONNX_INT64 && rank === 1 ? { name, values } : null;
}

/** The node's bytes with input `index` renamed. */
function renameInput(buf: Buffer, node: FieldSpan, index: number, name: string): Buffer {
  const c = new Cursor(bufferSource(buf), node.start, node.start + node.len);
  const parts: Buffer[] = [];
  let seen = 0;
  for (const f of fieldSpans(c)) {
    if (f.no === 1 && seen++ === index) parts.push(Buffer.from(textField(1, name)));
    else parts.push(buf.subarray(f.from, f.to));
  }
  return Buffer.concat(lengthDelimited(1, parts));
}

/**
 * The bytes of `model` made to run `batch` images at once. Throws OnnxFormatError naming the
 * reason when it cannot be: no rank-4 image input, an input or output whose leading axis is
 * neither 1 nor symbolic, a subgraph (If, Loop), weights stored outside the file.
 */
export function rebatchOnnxModel(model: Uint8Array, batch: number): RebatchedModel {
  if (!Number.isInteger(batch) || batch < 2) {
    throw new RangeError(`batch must be an integer of at least 2, got ${batch}`);
  }
  const buf = Buffer.from(model.buffer, model.byteOffset, model.byteLength);
  const modelFields = fieldSpans(new Cursor(bufferSource(buf), 0, buf.length));
  const graphs = modelFields.filter((f) => f.no === 7);
  if (graphs.length !== 1) throw new OnnxFormatError(`expected one graph, found ${graphs.length}`);
  const graph = graphs[0]!;
  const graphFields = fieldSpans(
    new Cursor(bufferSource(buf), graph.start, graph.start + graph.len),
  );

  const initializerNames = new Map<string, FieldSpan>();
  for (const f of graphFields.filter((g) => g.no === 5)) {
    const c = new Cursor(bufferSource(buf), f.start, f.start + f.len);
    while (!c.done) {
      const x = c.field();
      if (x.no === 8 && x.wire === 2) initializerNames.set(c.text(x), f);
    }
  }
  const imageInputs = graphFields
    .filter((f) => f.no === 11)
    .map((f) => ({ span: f, ...readValueInfo(buf, f) }))
    .filter((i) => !initializerNames.has(i.name) && i.tensor?.dims?.length === 4);
  if (imageInputs.length !== 1) {
    throw new OnnxFormatError(`expected one rank-4 image input, found ${imageInputs.length}`);
  }
  const image = imageInputs[0]!;
  const imageDims = image.tensor!.dims!;
  const inputBatchWas = imageDims[0]!;
  const leading = (what: string, dims: readonly (number | string)[]): void => {
    const d = dims[0];
    // 1, a symbolic name, or -1: dynamic without a name.
    if (d !== 1 && d !== -1 && typeof d !== 'string') {
      throw new OnnxFormatError(
        `${what} [${dims.join(', ')}] has no batch axis of 1 or a symbolic one: it cannot be re-batched`,
      );
    }
  };
  leading(`input ${image.name}`, imageDims);

  const nodes = graphFields.filter((f) => f.no === 1).map((f) => readNode(buf, f));
  const sub = nodes.find((n) => n.hasSubgraph);
  if (sub) throw new OnnxFormatError(`a ${sub.opType} node has a subgraph: not re-batched`);
  const constants = new Map<string, FieldSpan>();
  for (const n of nodes) {
    if (n.opType === 'Constant' && n.value && n.outputs[0]) constants.set(n.outputs[0], n.value);
  }

  // Each constant target shape starting with 1 gets a batch-N twin, made once per source.
  const twins = new Map<string, { name: string; bytes: Buffer }>();
  const renamed = new Map<NodeAt, string>();
  for (const n of nodes) {
    if (n.opType !== 'Reshape') continue;
    const shapeName = n.inputs[1];
    if (!shapeName) continue;
    // An initializer's or a Constant's TensorProto (their spans' payloads).
    const tensor = initializerNames.get(shapeName) ?? constants.get(shapeName);
    if (!tensor) continue; // computed at run time (Shape, Gather, Concat): follows the batch
    const shape = readInt64Vector(buf, tensor);
    if (!shape || shape.values[0] !== 1) continue;
    let twin = twins.get(shapeName);
    if (!twin) {
      const name = `${shapeName}__batch${batch}`;
      const values = [batch, ...shape.values.slice(1)];
      const bytes = Buffer.from(tensorProto(name, ONNX_INT64, [values.length], int64Raw(values)));
      twin = { name, bytes: Buffer.concat(lengthDelimited(5, [bytes])) };
      twins.set(shapeName, twin);
    }
    renamed.set(n, twin.name);
  }

  const outputs = graphFields.filter((f) => f.no === 12).map((f) => readValueInfo(buf, f));
  const rewrittenOutputs = outputs.map((o) => {
    const dims = o.tensor?.dims;
    if (!dims || dims.length === 0) {
      throw new OnnxFormatError(`output ${o.name} has no tensor shape: it cannot be re-batched`);
    }
    leading(`output ${o.name}`, dims);
    return batchedValueInfo(12, o, batch);
  });

  const nodeAt = new Map(nodes.map((n) => [n.span.from, n]));
  const parts: Buffer[] = [];
  let outputsWritten = false;
  for (const f of graphFields) {
    if (f.no === 1) {
      const n = nodeAt.get(f.from)!;
      const twin = renamed.get(n);
      parts.push(twin ? renameInput(buf, f, 1, twin) : buf.subarray(f.from, f.to));
    } else if (f.no === 11 && f.from === image.span.from) {
      parts.push(batchedValueInfo(11, image, batch));
    } else if (f.no === 12) {
      if (!outputsWritten) parts.push(...rewrittenOutputs);
      outputsWritten = true;
    } else if (f.no === 13) {
      // Value infos recorded for batch 1 would contradict the new shapes: inferred again.
    } else {
      parts.push(buf.subarray(f.from, f.to));
    }
  }
  for (const t of twins.values()) parts.push(t.bytes);
  const newGraph = Buffer.concat(lengthDelimited(7, parts));
  const modelParts: Buffer[] = modelFields.map((f) =>
    f.no === 7 ? newGraph : buf.subarray(f.from, f.to),
  );
  modelParts.push(Buffer.from(metadataPropsBytes({ [BATCH_METADATA_KEY]: String(batch) })));
  return {
    bytes: Buffer.concat(modelParts),
    batch,
    input: image.name,
    reshapes: renamed.size,
    inputBatchWas,
  };
}
