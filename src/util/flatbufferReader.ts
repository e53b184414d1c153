/**
 * A bounded reader of flatbuffers (TFLite models and their metadata, ExecuTorch programs): tables
 * by slot number in schema declaration order, every offset checked against the bytes it may point
 * into, every vector's length against the bytes left, and the whole walk against a budget of
 * entries, so that a corrupt or hostile file ends in the format's own error (made by
 * Budget.fail) naming what was wrong, never in a crash, a huge allocation or a long loop.
 */
import type { ByteSource } from './byteSource';

export interface FlatbufferLimits {
  /** Tables and vector entries visited in one file. */
  readonly entries: number;
  /** Bytes of one string. */
  readonly stringBytes: number;
}

/** Counts what the walk visits, so that no file can make it long. */
export class Budget {
  private left: number;
  constructor(
    private readonly limits: FlatbufferLimits,
    /** Makes the format's own error from a message. */
    readonly fail: (message: string) => Error,
  ) {
    this.left = limits.entries;
  }
  get stringBytes(): number {
    return this.limits.stringBytes;
  }
  spend(n: number, what: string): void {
    this.left -= n;
    if (this.left < 0) {
      throw this.fail(
        `more than ${this.limits.entries} entries to visit (at ${what}): not a model's description`,
      );
    }
  }
}

const text = new TextDecoder('utf-8');

/**
 * One flatbuffer inside the source: `base` is where its root offset sits, positions are relative
 * to it, and nothing outside [base, base + length) is ever read.
 */
export class Flatbuffer {
  constructor(
    private readonly src: ByteSource,
    private readonly base: number,
    readonly length: number,
    readonly budget: Budget,
    /** Names the flatbuffer in errors: "the model", "the metadata". */
    readonly what: string,
  ) {}

  private at(pos: number, len: number, what: string): DataView {
    if (!Number.isInteger(pos) || pos < 0 || len < 0 || pos + len > this.length) {
      throw this.budget.fail(
        `${this.what}: ${what} at byte ${pos} runs past its end (${this.length} bytes)`,
      );
    }
    const b = this.src.bytes(this.base + pos, len);
    return new DataView(b.buffer, b.byteOffset, b.byteLength);
  }

  u8(pos: number, what: string): number {
    return this.at(pos, 1, what).getUint8(0);
  }
  u16(pos: number, what: string): number {
    return this.at(pos, 2, what).getUint16(0, true);
  }
  i32(pos: number, what: string): number {
    return this.at(pos, 4, what).getInt32(0, true);
  }
  u32(pos: number, what: string): number {
    return this.at(pos, 4, what).getUint32(0, true);
  }
  u64(pos: number, what: string): number {
    const v = this.at(pos, 8, what).getBigUint64(0, true);
    if (v > BigInt(Number.MAX_SAFE_INTEGER)) {
      throw this.budget.fail(`${this.what}: ${what} at byte ${pos} is ${v}, beyond any file`);
    }
    return Number(v);
  }
  f32(pos: number, what: string): number {
    return this.at(pos, 4, what).getFloat32(0, true);
  }
  raw(pos: number, len: number, what: string): Uint8Array {
    const v = this.at(pos, len, what);
    return new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
  }

  /** The four bytes after the root offset, where flatc writes the file identifier. */
  identifier(): string {
    return this.length < 8 ? '' : Buffer.from(this.raw(4, 4, 'file identifier')).toString('latin1');
  }

  root(what: string): Table {
    return this.table(this.u32(0, 'root offset'), what);
  }

  table(pos: number, what: string): Table {
    this.budget.spend(1, what);
    const vtable = pos - this.i32(pos, `${what} table`);
    const vsize = this.u16(vtable, `${what} vtable`);
    if (vsize < 4 || vsize % 2 !== 0) {
      throw this.budget.fail(`${this.what}: ${what} has a vtable of ${vsize} bytes`);
    }
    // The whole vtable must be readable; each field is checked again where it is read.
    this.raw(vtable, vsize, `${what} vtable`);
    return new Table(this, pos, vtable, vsize, what);
  }
}

/** A table: fields by slot (declaration order in the schema), absent ones give their default. */
export class Table {
  constructor(
    private readonly fb: Flatbuffer,
    private readonly pos: number,
    private readonly vtable: number,
    private readonly vsize: number,
    private readonly what: string,
  ) {}

  /** Where the field of `slot` lies, undefined when the table does not have it. */
  private field(slot: number): number | undefined {
    const entry = 4 + 2 * slot;
    if (entry + 2 > this.vsize) return undefined;
    const off = this.fb.u16(this.vtable + entry, `${this.what} vtable`);
    return off === 0 ? undefined : this.pos + off;
  }

  private target(slot: number, what: string): number | undefined {
    const p = this.field(slot);
    return p === undefined ? undefined : p + this.fb.u32(p, `${this.what}.${what} offset`);
  }

  u8(slot: number, what: string, def = 0): number {
    const p = this.field(slot);
    return p === undefined ? def : this.fb.u8(p, `${this.what}.${what}`);
  }

  u32(slot: number, what: string, def = 0): number {
    const p = this.field(slot);
    return p === undefined ? def : this.fb.u32(p, `${this.what}.${what}`);
  }

  u64(slot: number, what: string, def = 0): number {
    const p = this.field(slot);
    return p === undefined ? def : this.fb.u64(p, `${this.what}.${what}`);
  }

  string(slot: number, what: string): string {
    const p = this.target(slot, what);
    if (p === undefined) return '';
    const len = this.fb.u32(p, `${this.what}.${what} length`);
    if (len > this.fb.budget.stringBytes) {
      throw this.fb.budget.fail(
        `${this.fb.what}: ${this.what}.${what} is ${len} bytes long, over the ${this.fb.budget.stringBytes} a text may have`,
      );
    }
    return text.decode(this.fb.raw(p + 4, len, `${this.what}.${what}`));
  }

  /** A vector's element count and where its elements start, each `size` bytes. */
  private vector(slot: number, what: string, size: number): { start: number; n: number } {
    const p = this.target(slot, what);
    if (p === undefined) return { start: 0, n: 0 };
    const n = this.fb.u32(p, `${this.what}.${what} length`);
    if (p + 4 + n * size > this.fb.length) {
      throw this.fb.budget.fail(
        `${this.fb.what}: ${this.what}.${what} claims ${n} entries, more than the ${this.fb.length - p - 4} bytes left hold`,
      );
    }
    return { start: p + 4, n };
  }

  length(slot: number, what: string): number {
    return this.vector(slot, what, 4).n;
  }

  /** Element `i` of a vector of tables (or undefined past its end). */
  tableAt(slot: number, what: string, i: number): Table | undefined {
    const v = this.vector(slot, what, 4);
    if (i < 0 || i >= v.n) return undefined;
    const e = v.start + 4 * i;
    return this.fb.table(e + this.fb.u32(e, `${this.what}.${what}[${i}]`), `${what}[${i}]`);
  }

  tables(slot: number, what: string): Table[] {
    const v = this.vector(slot, what, 4);
    this.fb.budget.spend(v.n, `${this.what}.${what}`);
    const out: Table[] = [];
    for (let i = 0; i < v.n; i++) {
      const e = v.start + 4 * i;
      out.push(this.fb.table(e + this.fb.u32(e, `${this.what}.${what}[${i}]`), `${what}[${i}]`));
    }
    return out;
  }

  strings(slot: number, what: string): string[] {
    const v = this.vector(slot, what, 4);
    this.fb.budget.spend(v.n, `${this.what}.${what}`);
    const out: string[] = [];
    for (let i = 0; i < v.n; i++) {
      const e = v.start + 4 * i;
      const p = e + this.fb.u32(e, `${this.what}.${what}[${i}]`);
      const len = this.fb.u32(p, `${this.what}.${what}[${i}] length`);
      if (len > this.fb.budget.stringBytes) {
        throw this.fb.budget.fail(
          `${this.fb.what}: ${this.what}.${what}[${i}] is ${len} bytes long, over the ${this.fb.budget.stringBytes} a text may have`,
        );
      }
      out.push(text.decode(this.fb.raw(p + 4, len, `${this.what}.${what}[${i}]`)));
    }
    return out;
  }

  ints(slot: number, what: string): number[] {
    const v = this.vector(slot, what, 4);
    this.fb.budget.spend(v.n, `${this.what}.${what}`);
    const out: number[] = [];
    for (let i = 0; i < v.n; i++) out.push(this.fb.i32(v.start + 4 * i, `${this.what}.${what}`));
    return out;
  }

  floats(slot: number, what: string): number[] {
    const v = this.vector(slot, what, 4);
    this.fb.budget.spend(v.n, `${this.what}.${what}`);
    const out: number[] = [];
    for (let i = 0; i < v.n; i++) out.push(this.fb.f32(v.start + 4 * i, `${this.what}.${what}`));
    return out;
  }

  /** A [ubyte] vector's span, not copied. */
  byteSpan(slot: number, what: string): { start: number; n: number } | undefined {
    return this.target(slot, what) === undefined ? undefined : this.vector(slot, what, 1);
  }

  /** A field holding one table. */
  sub(slot: number, what: string): Table | undefined {
    const p = this.target(slot, what);
    return p === undefined ? undefined : this.fb.table(p, what);
  }

  /** A union's type (slot) and value table (slot + 1); type 0 is NONE. */
  union(slot: number, what: string): { type: number; value?: Table } {
    const type = this.u8(slot, `${what}_type`);
    if (type === 0) return { type };
    const p = this.target(slot + 1, what);
    return p === undefined ? { type } : { type, value: this.fb.table(p, what) };
  }
}
