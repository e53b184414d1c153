/**
 * Rewriting protobuf (ONNX) by byte ranges: a message's fields as spans of the source buffer, to
 * keep, drop or replace without decoding them (weights are never copied into JavaScript values),
 * and the header of a length-delimited field whose payload stays a view of the source.
 */
import { Buffer } from 'node:buffer';
import { varint } from './onnxWriter';
import type { Cursor } from './readOnnxModel';

/** One field of a message in the source buffer. */
export interface FieldSpan {
  /** From the field's tag to its end. */
  readonly from: number;
  readonly to: number;
  readonly no: number;
  /** Payload of a length-delimited field (len 0 for other wire types). */
  readonly start: number;
  readonly len: number;
}

/** Every field the cursor has left, in order. */
export function fieldSpans(c: Cursor): FieldSpan[] {
  const out: FieldSpan[] = [];
  while (!c.done) {
    const from = c.pos;
    const f = c.field();
    out.push({ from, to: c.pos, no: f.no, start: f.start, len: f.wire === 2 ? f.len : 0 });
  }
  return out;
}

/** The tag (field number and wire type) as varint bytes. */
export function tagBytes(no: number, wire: number): number[] {
  return varint(no * 8 + wire);
}

/** Field `no` (wire type 2) around `parts`: its header, then the parts themselves (not copied). */
export function lengthDelimited(no: number, parts: readonly Buffer[]): Buffer[] {
  const len = parts.reduce((n, p) => n + p.length, 0);
  return [Buffer.from([...tagBytes(no, 2), ...varint(len)]), ...parts];
}
