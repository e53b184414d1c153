/**
 * A small flatbuffer writer for tests: builds TFLite models and TFLite metadata from a plain
 * description (fields by slot, in schema order), so the reader's tests control every byte,
 * including broken ones. Objects are written parent first (flatbuffer offsets point forward, so
 * children follow their parent), each table right after its own vtable.
 */
import * as zlib from 'node:zlib';

export type FbField =
  | { readonly u8: number }
  | { readonly u32: number }
  | { readonly u64: number }
  | { readonly str: string }
  | { readonly table: FbTable }
  | { readonly tables: readonly FbTable[] }
  | { readonly ints: readonly number[] }
  | { readonly floats: readonly number[] }
  | { readonly bytes: Uint8Array }
  | { readonly strs: readonly string[] };

/** A table's fields by slot; undefined leaves a slot absent. */
export interface FbTable {
  readonly fields: readonly (FbField | undefined)[];
}

export const table = (...fields: (FbField | undefined)[]): FbTable => ({ fields });

class Writer {
  private buf = new Uint8Array(1024);
  length = 0;

  private grow(n: number): void {
    while (this.length + n > this.buf.length) {
      const b = new Uint8Array(this.buf.length * 2);
      b.set(this.buf);
      this.buf = b;
    }
  }
  align(n: number): void {
    while (this.length % n !== 0) this.u8(0);
  }
  u8(v: number): number {
    this.grow(1);
    this.buf[this.length] = v;
    return this.length++;
  }
  u16(v: number): number {
    this.grow(2);
    new DataView(this.buf.buffer).setUint16(this.length, v, true);
    this.length += 2;
    return this.length - 2;
  }
  u32(v: number): number {
    this.grow(4);
    new DataView(this.buf.buffer).setUint32(this.length, v >>> 0, true);
    this.length += 4;
    return this.length - 4;
  }
  i32(v: number): number {
    this.grow(4);
    new DataView(this.buf.buffer).setInt32(this.length, v, true);
    this.length += 4;
    return this.length - 4;
  }
  f32(v: number): number {
    this.grow(4);
    new DataView(this.buf.buffer).setFloat32(this.length, v, true);
    this.length += 4;
    return this.length - 4;
  }
  u64(v: number): number {
    this.grow(8);
    new DataView(this.buf.buffer).setBigUint64(this.length, BigInt(v), true);
    this.length += 8;
    return this.length - 8;
  }
  bytes(b: Uint8Array): void {
    this.grow(b.length);
    this.buf.set(b, this.length);
    this.length += b.length;
  }
  /** Points the uoffset at `at` to `target`. */
  patch(at: number, target: number): void {
    new DataView(this.buf.buffer).setUint32(at, target - at, true);
  }
  done(): Uint8Array {
    return this.buf.slice(0, this.length);
  }
}

function writeString(w: Writer, s: string): number {
  w.align(4);
  const b = Buffer.from(s, 'utf8');
  const at = w.u32(b.length);
  w.bytes(b);
  w.u8(0);
  return at;
}

function writeTable(w: Writer, t: FbTable): number {
  w.align(4);
  const n = t.fields.length;
  const vtable = w.length;
  // Inline part: soffset, then 4 bytes a field (8 for u64, kept 4-aligned: the reader does not
  // care about alignment).
  const sizes = t.fields.map((f): number => (f === undefined ? 0 : 'u64' in f ? 8 : 4));
  const vsize = 4 + 2 * n;
  const tsize = 4 + sizes.reduce((a, b) => a + b, 0);
  w.u16(vsize);
  w.u16(tsize);
  let off = 4;
  for (const s of sizes) {
    w.u16(s === 0 ? 0 : off);
    off += s;
  }
  w.align(4);
  const pos = w.length;
  w.i32(pos - vtable);
  const refs: { at: number; f: FbField }[] = [];
  for (const f of t.fields) {
    if (f === undefined) continue;
    if ('u8' in f) {
      w.u8(f.u8);
      w.u8(0);
      w.u16(0);
    } else if ('u32' in f) w.u32(f.u32);
    else if ('u64' in f) w.u64(f.u64);
    else refs.push({ at: w.u32(0), f });
  }
  for (const { at, f } of refs) w.patch(at, writeChild(w, f));
  return pos;
}

function writeChild(w: Writer, f: FbField): number {
  w.align(4);
  if ('str' in f) return writeString(w, f.str);
  if ('table' in f) return writeTable(w, f.table);
  if ('ints' in f) {
    const at = w.u32(f.ints.length);
    for (const v of f.ints) w.i32(v);
    return at;
  }
  if ('floats' in f) {
    const at = w.u32(f.floats.length);
    for (const v of f.floats) w.f32(v);
    return at;
  }
  if ('bytes' in f) {
    const at = w.u32(f.bytes.length);
    w.bytes(f.bytes);
    return at;
  }
  if ('tables' in f || 'strs' in f) {
    const items = 'tables' in f ? f.tables : f.strs;
    const at = w.u32(items.length);
    const slots = items.map(() => w.u32(0));
    items.forEach((item, i) => {
      const target = typeof item === 'string' ? writeString(w, item) : writeTable(w, item);
      w.patch(slots[i] as number, target);
    });
    return at;
  }
  throw new Error(`scalar field ${JSON.stringify(f)} written as a reference`);
}

/** A flatbuffer with `root` and the 4-character file identifier. */
export function buildFlatbuffer(root: FbTable, identifier: string): Uint8Array {
  const w = new Writer();
  const rootAt = w.u32(0);
  w.bytes(Buffer.from(identifier, 'latin1'));
  w.patch(rootAt, writeTable(w, root));
  return w.done();
}

export interface ZipFile {
  readonly name: string;
  readonly data: Uint8Array;
  /** Deflate it (default: stored, as tflite-support's populator writes). */
  readonly deflate?: boolean;
}

/** A zip archive whose offsets count from `base` (the bytes it will be appended to). */
export function buildZip(files: readonly ZipFile[], base: number): Uint8Array {
  const w = new Writer();
  const central: { f: ZipFile; local: number; body: Uint8Array; method: number }[] = [];
  for (const f of files) {
    const body = f.deflate === true ? zlib.deflateRawSync(f.data) : f.data;
    const method = f.deflate === true ? 8 : 0;
    const name = Buffer.from(f.name, 'utf8');
    const local = w.u32(0x04034b50);
    w.u16(20);
    w.u16(0);
    w.u16(method);
    w.u32(0);
    w.u32(zlib.crc32(f.data));
    w.u32(body.length);
    w.u32(f.data.length);
    w.u16(name.length);
    w.u16(0);
    w.bytes(name);
    w.bytes(body);
    central.push({ f, local, body, method });
  }
  const cdStart = w.length;
  for (const { f, local, body, method } of central) {
    const name = Buffer.from(f.name, 'utf8');
    w.u32(0x02014b50);
    w.u16(20);
    w.u16(20);
    w.u16(0);
    w.u16(method);
    w.u32(0);
    w.u32(zlib.crc32(f.data));
    w.u32(body.length);
    w.u32(f.data.length);
    w.u16(name.length);
    w.u16(0);
    w.u16(0);
    w.u16(0);
    w.u16(0);
    w.u32(0);
    w.u32(base + local);
    w.bytes(name);
  }
  const cdSize = w.length - cdStart;
  w.u32(0x06054b50);
  w.u16(0);
  w.u16(0);
  w.u16(files.length);
  w.u16(files.length);
  w.u32(cdSize);
  w.u32(base + cdStart);
  w.u16(0);
  return w.done();
}
