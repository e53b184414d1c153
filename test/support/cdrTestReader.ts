/**
 * A little-endian XCDR1 reader for tests (what our encoders write, 0x0001), written apart from
 * src/ros/codecs/cdrReader.ts so the encoders' round trips are not checked by the code under test. Reads
 * past the end throw RangeError (DataView), which a property reports as a failure.
 */
export class CdrTestReader {
  private at = 4;
  private readonly view: DataView;

  constructor(private readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (this.view.getUint16(0, false) !== 0x0001) throw new Error('not little-endian XCDR1');
  }

  get remaining(): number {
    return this.bytes.length - this.at;
  }

  uint8(): number {
    return this.view.getUint8(this.at++);
  }

  uint32(): number {
    this.align(4);
    const v = this.view.getUint32(this.at, true);
    this.at += 4;
    return v;
  }

  int32(): number {
    this.align(4);
    const v = this.view.getInt32(this.at, true);
    this.at += 4;
    return v;
  }

  float32(): number {
    this.align(4);
    const v = this.view.getFloat32(this.at, true);
    this.at += 4;
    return v;
  }

  float64(): number {
    this.align(8);
    const v = this.view.getFloat64(this.at, true);
    this.at += 8;
    return v;
  }

  string(): string {
    const n = this.uint32();
    if (n < 1 || this.view.getUint8(this.at + n - 1) !== 0)
      throw new Error(`bad string at ${this.at}`);
    const s = Buffer.from(this.bytes.buffer, this.bytes.byteOffset + this.at, n - 1).toString(
      'utf8',
    );
    this.at += n;
    return s;
  }

  private align(n: number): void {
    this.at += (n - ((this.at - 4) % n)) % n;
  }
}
