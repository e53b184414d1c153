import { ENCAPSULATION_SIZE } from './cdrReader';

/**
 * Writes a little-endian plain CDR message (representation 0x0001, as Fast DDS sends), into one
 * buffer sized up front so pixel data is copied exactly once.
 */
export class CdrWriter {
  private offset = ENCAPSULATION_SIZE;
  private readonly view: DataView;
  readonly buffer: Buffer;

  /** `scratch`: write into its buffer instead of a new one (see MessageScratch). */
  constructor(capacity: number, scratch?: MessageScratch) {
    this.buffer = scratch
      ? scratch.take(ENCAPSULATION_SIZE + capacity)
      : Buffer.alloc(ENCAPSULATION_SIZE + capacity);
    this.view = new DataView(this.buffer.buffer, this.buffer.byteOffset, this.buffer.byteLength);
    this.buffer.fill(0, 0, ENCAPSULATION_SIZE);
    this.buffer[1] = 0x01;
  }

  /** Upper bound of the body size of a string field, with worst-case alignment. */
  static stringSize(s: string): number {
    return 3 + 4 + Buffer.byteLength(s, 'utf8') + 1;
  }

  uint8(v: number): void {
    this.view.setUint8(this.offset, v);
    this.offset += 1;
  }

  uint32(v: number): void {
    this.align(4);
    this.view.setUint32(this.offset, v, true);
    this.offset += 4;
  }

  int32(v: number): void {
    this.align(4);
    this.view.setInt32(this.offset, v, true);
    this.offset += 4;
  }

  float32(v: number): void {
    this.align(4);
    this.view.setFloat32(this.offset, v, true);
    this.offset += 4;
  }

  float64(v: number): void {
    this.align(8);
    this.view.setFloat64(this.offset, v, true);
    this.offset += 8;
  }

  string(s: string): void {
    const length = Buffer.byteLength(s, 'utf8');
    this.uint32(length + 1);
    this.buffer.write(s, this.offset, 'utf8');
    this.offset += length;
    this.buffer[this.offset] = 0;
    this.offset += 1;
  }

  byteSequence(data: Uint8Array): void {
    this.uint32(data.length);
    this.buffer.set(data, this.offset);
    this.offset += data.length;
  }

  /** The finished message: a view of the bytes written so far. */
  finish(): Buffer {
    return this.buffer.subarray(0, this.offset);
  }

  private align(n: number): void {
    const rel = this.offset - ENCAPSULATION_SIZE;
    const pad = (n - (rel % n)) % n;
    // Zero padding whatever the buffer held before (a reused one): the same message, the same bytes.
    for (let i = 0; i < pad; i++) this.buffer[this.offset + i] = 0;
    this.offset += pad;
  }
}

/**
 * One buffer a publisher writes its large messages into, message after message. Safe because a
 * raw publish copies the message into DDS before it returns; what it saves is a fresh allocation
 * per message, which above the mmap threshold the engine addon fixes (256 KB,
 * native/src/memory/malloc_tuning.cc) is a new mapping and its page faults: a 640x480 label image every
 * frame cost the three-pipeline container ~5 % of its CPU in faults. Grows to the largest message; the buffer a writer returns
 * is valid until the next one starts.
 */
export class MessageScratch {
  private buffer = Buffer.alloc(0);

  take(bytes: number): Buffer {
    if (this.buffer.length < bytes) this.buffer = Buffer.alloc(bytes);
    return this.buffer.subarray(0, bytes);
  }
}
