/**
 * Cuts an Ultralytics end-to-end export (`nms=True`: the NMS model Ultralytics wraps around the
 * network) back to its raw head: the packed [1, 4 + C (+ M | + K*3), anchors] tensor the wrapper
 * transposes before its score threshold and NonMaxSuppression. The graph then ends there (plus the
 * export's other outputs, the prototypes of seg), so the whole network can run on the HTP, which
 * does not take the NMS tail (NonZero, NonMaxSuppression, dynamic shapes: on HTP v68 the QNN graph
 * of the uncut INT8 yolo11n fails to finalize), and our heads do the NMS on the CPU.
 *
 * Protobuf is walked with readOnnxModel's Cursor; nodes, initializers and value infos are kept or
 * dropped as byte ranges (weights are never decoded), the raw head's value info becomes the first
 * graph output, and a metadata entry records the cut. Field numbers follow onnx/onnx.proto.
 */
import { Buffer } from 'node:buffer';
import { bufferSource } from '../util/byteSource';
import { fieldSpans, type FieldSpan, lengthDelimited } from './protoSpans';
import { Cursor, OnnxFormatError } from './readOnnxModel';
import { metadataPropsBytes } from './onnxWriter';
import { type NodeFields, readNodeFields } from './onnxNodeFields';
import { RAW_HEAD_METADATA_KEY } from '../families/yolov8/readUltralyticsExport';

// The metadata key a cut file carries (which tensor it ends at, and what was removed) is read by
// the YOLO family's importer, which names it in the manifest's notes.
export { RAW_HEAD_METADATA_KEY };

/** What the removed NMS did, read from its constants (undefined where not a float scalar). */
export interface EmbeddedNms {
  /** The export's conf: rows scoring at most this never reached the NMS. */
  readonly scoreThreshold: number | undefined;
  /** The export's iou: NonMaxSuppression's IoU threshold. */
  readonly iouThreshold: number | undefined;
}

export interface RawHeadCut {
  /** The rewritten ModelProto. */
  readonly bytes: Buffer;
  /** Name of the raw head tensor, now the first graph output. */
  readonly rawHead: string;
  /** The graph outputs of the cut file, in order. */
  readonly outputs: readonly string[];
  readonly keptNodes: number;
  readonly removedNodes: number;
  readonly embeddedNms: EmbeddedNms;
}

interface NodeInfo extends NodeFields {
  readonly span: FieldSpan;
}

function readNode(c: Cursor, span: FieldSpan): NodeInfo {
  return { ...readNodeFields(c), span };
}

/** A TensorProto holding one float32 (raw_data or float_data): its value, else undefined. */
function floatScalar(buf: Buffer, t: FieldSpan): number | undefined {
  const c = new Cursor(bufferSource(buf), t.start, t.start + t.len);
  let dataType = 0;
  let elements = 1;
  let value: number | undefined;
  while (!c.done) {
    const f = c.field();
    if (f.no === 1 && f.wire === 0) elements *= f.value;
    else if (f.no === 1 && f.wire === 2) {
      const d = c.sub(f);
      while (!d.done) elements *= d.varint();
    } else if (f.no === 2 && f.wire === 0) dataType = f.value;
    else if ((f.no === 9 || f.no === 4) && f.wire === 2 && f.len === 4)
      value = buf.readFloatLE(f.start);
    else if (f.no === 4 && f.wire === 5) value = buf.readFloatLE(f.start);
  }
  // float32 (1): the exporter's thresholds; anything else is not what this looks for.
  return dataType === 1 && elements === 1 ? value : undefined;
}

/** Reads the conf (Greater's constant) and IoU (NonMaxSuppression input 3) of the removed tail. */
function embeddedNms(
  buf: Buffer,
  removed: readonly NodeInfo[],
  producer: ReadonlyMap<string, NodeInfo>,
  initializers: ReadonlyMap<string, FieldSpan>,
): EmbeddedNms {
  const scalar = (name: string | undefined): number | undefined => {
    if (name === undefined || name === '') return undefined;
    const init = initializers.get(name);
    if (init !== undefined) return floatScalar(buf, init);
    const c = producer.get(name);
    return c?.opType === 'Constant' && c.value !== undefined
      ? floatScalar(buf, c.value)
      : undefined;
  };
  const nms = removed.find((n) => n.opType === 'NonMaxSuppression');
  // Ultralytics' wrapper keeps rows whose best score is greater than conf, before the NMS.
  const greater = removed.filter((n) => n.opType === 'Greater');
  const round = (v: number | undefined) =>
    v === undefined ? undefined : Math.round(v * 1e6) / 1e6;
  return {
    scoreThreshold: greater.length === 1 ? round(scalar(greater[0]!.inputs[1])) : undefined,
    iouThreshold: round(scalar(nms?.inputs[3])),
  };
}

/** The `name` (field 1 of ValueInfoProto, field 8 of TensorProto) of a message. */
function messageName(c: Cursor, field: number): string {
  while (!c.done) {
    const f = c.field();
    if (f.no === field && f.wire === 2) return c.text(f);
  }
  return '';
}

/**
 * The file's bytes cut at the raw head. Throws OnnxFormatError, naming what is missing, when the
 * file is not an Ultralytics `nms=True` export (no NonMaxSuppression, no Transpose [0, 2, 1] of a
 * network tensor on the way to the first output, or no shape recorded for that tensor).
 */
export function cutAtRawHead(model: Uint8Array): RawHeadCut {
  const buf = Buffer.from(model.buffer, model.byteOffset, model.byteLength);
  const top = new Cursor(bufferSource(buf), 0, buf.length);
  const modelFields = fieldSpans(top);
  const graphs = modelFields.filter((f) => f.no === 7);
  if (graphs.length !== 1) throw new OnnxFormatError(`expected one graph, found ${graphs.length}`);
  const graph = graphs[0]!;
  const g = new Cursor(bufferSource(buf), graph.start, graph.start + graph.len);
  const graphFields = fieldSpans(g);
  const text = (s: FieldSpan, field: number) =>
    messageName(new Cursor(bufferSource(buf), s.start, s.start + s.len), field);

  const nodes = graphFields
    .filter((f) => f.no === 1)
    .map((s) => readNode(new Cursor(bufferSource(buf), s.start, s.start + s.len), s));
  const outputSpans = graphFields.filter((f) => f.no === 12);
  const outputNames = outputSpans.map((s) => text(s, 1));
  const first = outputNames[0];
  if (first === undefined) throw new OnnxFormatError('the graph has no outputs');
  if (!nodes.some((n) => n.opType === 'NonMaxSuppression')) {
    throw new OnnxFormatError('no NonMaxSuppression node: not an end-to-end (nms=True) export');
  }
  const producer = new Map<string, NodeInfo>();
  for (const n of nodes) for (const o of n.outputs) producer.set(o, n);

  // Ultralytics' NMS wrapper transposes the network's [1, channels, anchors] first; the network's
  // own nodes are named under /model/. That Transpose, an ancestor of the first output, is the cut.
  const ancestors = new Set<NodeInfo>();
  const todo = [first];
  while (todo.length > 0) {
    const n = producer.get(todo.pop()!);
    if (n === undefined || ancestors.has(n)) continue;
    ancestors.add(n);
    todo.push(...n.inputs.filter((i) => i !== ''));
  }
  const cuts = [...ancestors].filter(
    (n) =>
      n.opType === 'Transpose' &&
      n.perm?.join(',') === '0,2,1' &&
      (producer.get(n.inputs[0] ?? '')?.name.startsWith('/model/') ?? false),
  );
  if (cuts.length !== 1) {
    throw new OnnxFormatError(
      `expected one Transpose [0, 2, 1] of a /model/ tensor before '${first}', found ${cuts.length}`,
    );
  }
  const rawHead = cuts[0]!.inputs[0]!;
  const newOutputs = [rawHead, ...outputNames.slice(1)];

  // Keep what the new outputs need.
  const kept = new Set<NodeInfo>();
  const need = [...newOutputs];
  while (need.length > 0) {
    const n = producer.get(need.pop()!);
    if (n === undefined || kept.has(n)) continue;
    if (n.hasSubgraph) throw new OnnxFormatError(`node '${n.name}' has a subgraph: not cut`);
    kept.add(n);
    need.push(...n.inputs.filter((i) => i !== ''));
  }
  const used = new Set<string>();
  for (const n of kept) for (const i of n.inputs) used.add(i);
  const produced = new Set<string>();
  for (const n of kept) for (const o of n.outputs) produced.add(o);

  const valueInfos = graphFields.filter((f) => f.no === 13);
  const headInfo = valueInfos.find((s) => text(s, 1) === rawHead);
  if (headInfo === undefined) {
    throw new OnnxFormatError(`no shape recorded for the raw head '${rawHead}' (value_info)`);
  }

  const initializers = new Map(
    graphFields.filter((f) => f.no === 5).map((f) => [text(f, 8), f] as const),
  );
  const nms = embeddedNms(
    buf,
    nodes.filter((n) => !kept.has(n)),
    producer,
    initializers,
  );
  const nodeAt = new Map(nodes.map((n) => [n.span.from, n]));
  const parts: Buffer[] = [];
  let outputsWritten = false;
  for (const f of graphFields) {
    const bytes = buf.subarray(f.from, f.to);
    if (f.no === 1) {
      if (kept.has(nodeAt.get(f.from)!)) parts.push(bytes);
    } else if (f.no === 5) {
      // Initializers: only those a kept node reads.
      if (used.has(text(f, 8))) parts.push(bytes);
    } else if (f.no === 12) {
      if (!outputsWritten) {
        parts.push(
          Buffer.concat(
            lengthDelimited(12, [buf.subarray(headInfo.start, headInfo.start + headInfo.len)]),
          ),
        );
        for (const s of outputSpans.slice(1)) parts.push(buf.subarray(s.from, s.to));
        outputsWritten = true;
      }
    } else if (f.no === 13) {
      const name = text(f, 1);
      if (name !== rawHead && produced.has(name)) parts.push(bytes);
    } else {
      parts.push(bytes);
    }
  }
  const newGraph = Buffer.concat(lengthDelimited(7, parts));
  const modelParts: Buffer[] = modelFields.map((f) =>
    f.no === 7 ? newGraph : buf.subarray(f.from, f.to),
  );
  // Appended metadata_props merge into the model's (readOnnxModel: a later key wins).
  modelParts.push(
    Buffer.from(
      metadataPropsBytes({
        [RAW_HEAD_METADATA_KEY]: `${rawHead}; the NMS it fed was removed (its conf ${String(nms.scoreThreshold ?? 'unknown')}, IoU ${String(nms.iouThreshold ?? 'unknown')})`,
      }),
    ),
  );
  return {
    bytes: Buffer.concat(modelParts),
    rawHead,
    outputs: newOutputs,
    keptNodes: kept.size,
    removedNodes: nodes.length - kept.size,
    embeddedNms: nms,
  };
}
