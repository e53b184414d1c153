/**
 * A second CDR writer, for tests only: it writes every representation the decoders accept
 * (plain XCDR1 0x0000 / 0x0001 and plain XCDR2 0x0006 / 0x0007, big- and little-endian), where
 * src/ros/codecs/cdrWriter.ts writes only what we publish (0x0001). Written from the rules, not from the
 * production writer, so a shared mistake does not cancel out: alignment counts from the end of the
 * 4-byte encapsulation header, and XCDR2 aligns 8-byte values to 4 (DDS-XTypes 1.3).
 */

export type CdrRepresentation = 0x0000 | 0x0001 | 0x0006 | 0x0007;

export const CDR_REPRESENTATIONS: readonly CdrRepresentation[] = [0x0000, 0x0001, 0x0006, 0x0007];

export class CdrTestWriter {
  private bytes = new Uint8Array(256);
  private view = new DataView(this.bytes.buffer);
  private length = 4;
  private readonly little: boolean;
  private readonly maxAlign: number;

  constructor(readonly representation: CdrRepresentation) {
    this.little = (representation & 1) === 1;
    this.maxAlign = representation >= 0x0006 ? 4 : 8;
    this.view.setUint16(0, representation, false);
  }

  uint8(v: number): this {
    this.reserve(1);
    this.view.setUint8(this.length, v);
    this.length += 1;
    return this;
  }

  uint32(v: number): this {
    this.align(4);
    this.reserve(4);
    this.view.setUint32(this.length, v, this.little);
    this.length += 4;
    return this;
  }

  int32(v: number): this {
    this.align(4);
    this.reserve(4);
    this.view.setInt32(this.length, v, this.little);
    this.length += 4;
    return this;
  }

  float32(v: number): this {
    this.align(4);
    this.reserve(4);
    this.view.setFloat32(this.length, v, this.little);
    this.length += 4;
    return this;
  }

  float64(v: number): this {
    this.align(8);
    this.reserve(8);
    this.view.setFloat64(this.length, v, this.little);
    this.length += 8;
    return this;
  }

  /** A string: its UTF-8 bytes, then NUL. */
  string(s: string): this {
    return this.rawString(Buffer.from(s, 'utf8'));
  }

  /** A string from exactly these body bytes (NULs inside and all), then NUL. */
  rawString(body: Uint8Array): this {
    this.uint32(body.length + 1);
    this.raw(body);
    return this.uint8(0);
  }

  sequence(data: Uint8Array): this {
    this.uint32(data.length);
    return this.raw(data);
  }

  raw(data: Uint8Array): this {
    this.reserve(data.length);
    this.bytes.set(data, this.length);
    this.length += data.length;
    return this;
  }

  finish(): Uint8Array {
    return this.bytes.slice(0, this.length);
  }

  private align(n: number): void {
    const a = Math.min(n, this.maxAlign);
    const pad = (a - ((this.length - 4) % a)) % a;
    this.reserve(pad);
    this.bytes.fill(0, this.length, this.length + pad);
    this.length += pad;
  }

  private reserve(n: number): void {
    if (this.length + n <= this.bytes.length) return;
    const next = new Uint8Array(Math.max(this.bytes.length * 2, this.length + n));
    next.set(this.bytes.subarray(0, this.length));
    this.bytes = next;
    this.view = new DataView(next.buffer);
  }
}
