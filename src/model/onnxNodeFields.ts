/**
 * The fields of an ONNX NodeProto the graph rewriters read (cutAtRawHead, foldInputQuantize,
 * rebatchOnnxModel), walked once with readOnnxModel's Cursor. Field numbers follow
 * onnx/onnx.proto: input 1, output 2, name 3, op_type 4, attribute 5, domain 7; in an
 * AttributeProto name 1, t 5, g 6, ints 8, graphs 11.
 */
import type { FieldSpan } from './protoSpans';
import type { Cursor } from './readOnnxModel';

export interface NodeFields {
  readonly name: string;
  readonly opType: string;
  readonly domain: string;
  readonly inputs: readonly string[];
  readonly outputs: readonly string[];
  readonly attributeNames: readonly string[];
  /** Transpose's perm, when the node has one. */
  readonly perm: readonly number[] | undefined;
  /** A Constant's `value` attribute, its payload the TensorProto. */
  readonly value: FieldSpan | undefined;
  /** An attribute holding a graph (If, Loop, Scan): it may read names from the outer scope. */
  readonly hasSubgraph: boolean;
}

/** Reads the node the cursor spans (a NodeProto's payload). */
export function readNodeFields(c: Cursor): NodeFields {
  const inputs: string[] = [];
  const outputs: string[] = [];
  const attributeNames: string[] = [];
  let name = '';
  let opType = '';
  let domain = '';
  let perm: number[] | undefined;
  let value: FieldSpan | undefined;
  let hasSubgraph = false;
  while (!c.done) {
    const f = c.field();
    if (f.wire !== 2) continue;
    if (f.no === 1) inputs.push(c.text(f));
    else if (f.no === 2) outputs.push(c.text(f));
    else if (f.no === 3) name = c.text(f);
    else if (f.no === 4) opType = c.text(f);
    else if (f.no === 7) domain = c.text(f);
    else if (f.no === 5) {
      const a = c.sub(f);
      let attr = '';
      const ints: number[] = [];
      let t: FieldSpan | undefined;
      while (!a.done) {
        const from = a.pos;
        const af = a.field();
        if (af.no === 1 && af.wire === 2) attr = a.text(af);
        else if (af.no === 5 && af.wire === 2)
          t = { from, to: a.pos, no: 5, start: af.start, len: af.len };
        else if (af.no === 8 && af.wire === 0) ints.push(af.value);
        else if (af.no === 8 && af.wire === 2) {
          const p = a.sub(af);
          while (!p.done) ints.push(p.varint());
        } else if ((af.no === 6 || af.no === 11) && af.wire === 2) hasSubgraph = true;
      }
      if (attr !== '') attributeNames.push(attr);
      if (attr === 'perm') perm = ints;
      if (attr === 'value') value = t;
    }
  }
  return { name, opType, domain, inputs, outputs, attributeNames, perm, value, hasSubgraph };
}
