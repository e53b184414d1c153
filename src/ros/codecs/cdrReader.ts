import { FrameError } from '../frameError';

/** Bytes before the CDR body: representation id (2 bytes, big-endian) and options (2 bytes). */
export const ENCAPSULATION_SIZE = 4;

// Plain CDR (XCDR1) and plain XCDR2, big- and little-endian. The two versions lay out the messages
// we read (final structs, sequences of primitives: no DHEADER) alike but for one rule: XCDR2
// aligns 8-byte values to 4 (DDS-XTypes 1.3: its largest alignment is 4), which moves the doubles
// of CameraInfo.
const REPRESENTATIONS: Readonly<Record<number, { littleEndian: boolean; align8: number }>> = {
  0x0000: { littleEndian: false, align8: 8 },
  0x0001: { littleEndian: true, align8: 8 },
  0x0006: { littleEndian: false, align8: 4 },
  0x0007: { littleEndian: true, align8: 4 },
};

/** Longest string we accept in a header (frame_id) or encoding field, in bytes. */
const MAX_STRING_BYTES = 4096;

/**
 * Reads a serialized ROS 2 message (as delivered by a raw subscription) without copying:
 * byte sequences come back as views into the received buffer. Every read is bounds-checked and
 * throws FrameError, so malformed input can never read out of range.
 */
export class CdrReader {
  private offset = ENCAPSULATION_SIZE;
  private readonly view: DataView;
  readonly littleEndian: boolean;
  /** Alignment of 8-byte values: 8 in XCDR1, 4 in XCDR2. */
  private readonly align8: number;

  constructor(private readonly bytes: Uint8Array) {
    if (bytes.length < ENCAPSULATION_SIZE) {
      throw new FrameError(
        'TRUNCATED',
        `message has ${bytes.length} bytes, less than the 4-byte CDR header`,
      );
    }
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const representation = this.view.getUint16(0, false);
    const known = REPRESENTATIONS[representation];
    if (known === undefined) {
      throw new FrameError(
        'BAD_ENCAPSULATION',
        `unsupported CDR representation 0x${representation.toString(16).padStart(4, '0')}`,
      );
    }
    this.littleEndian = known.littleEndian;
    this.align8 = known.align8;
  }

  get position(): number {
    return this.offset;
  }

  /** Bytes left after the current position. */
  get remaining(): number {
    return this.bytes.length - this.offset;
  }

  uint8(field: string): number {
    this.need(1, field);
    const v = this.view.getUint8(this.offset);
    this.offset += 1;
    return v;
  }

  uint32(field: string): number {
    this.align(4, field);
    this.need(4, field);
    const v = this.view.getUint32(this.offset, this.littleEndian);
    this.offset += 4;
    return v;
  }

  int32(field: string): number {
    this.align(4, field);
    this.need(4, field);
    const v = this.view.getInt32(this.offset, this.littleEndian);
    this.offset += 4;
    return v;
  }

  float64(field: string): number {
    this.align(this.align8, field);
    this.need(8, field);
    const v = this.view.getFloat64(this.offset, this.littleEndian);
    this.offset += 8;
    return v;
  }

  /** A CDR string: uint32 length including the terminating NUL, the bytes, then the NUL. */
  string(field: string): string {
    const length = this.uint32(`${field} length`);
    if (length === 0) {
      throw new FrameError(
        'BAD_STRING',
        `${field}: string length 0 (must count its NUL terminator)`,
      );
    }
    if (length > MAX_STRING_BYTES) {
      throw new FrameError(
        'BAD_STRING',
        `${field}: string of ${length} bytes exceeds ${MAX_STRING_BYTES}`,
      );
    }
    this.need(length, field);
    const end = this.offset + length - 1;
    if (this.bytes[end] !== 0) {
      throw new FrameError('BAD_STRING', `${field}: string is not NUL-terminated`);
    }
    const body = this.bytes.subarray(this.offset, end);
    if (body.includes(0)) {
      throw new FrameError('BAD_STRING', `${field}: string contains a NUL byte`);
    }
    this.offset += length;
    return recentString(body);
  }

  /**
   * Checks that the message ends after the last field: up to 3 bytes of final alignment padding
   * are allowed, anything more means a length field lied.
   */
  end(lastField: string): void {
    if (this.remaining > 3) {
      throw new FrameError(
        'TRAILING_BYTES',
        `${this.remaining} bytes after the ${lastField} field`,
      );
    }
  }

  /** A sequence<uint8>: the returned array is a view into the message, not a copy. */
  byteSequence(field: string): Uint8Array {
    const length = this.uint32(`${field} length`);
    this.need(length, field);
    const view = this.bytes.subarray(this.offset, this.offset + length);
    this.offset += length;
    return view;
  }

  /** `field`: the field the padding comes before, so a message cut there still names it. */
  private align(n: number, field: string): void {
    // Alignment is relative to the start of the body, i.e. after the encapsulation header.
    const rel = this.offset - ENCAPSULATION_SIZE;
    const pad = (n - (rel % n)) % n;
    this.need(pad, `alignment padding before ${field}`);
    this.offset += pad;
  }

  private need(n: number, field: string): void {
    if (this.offset + n > this.bytes.length) {
      throw new FrameError(
        'TRUNCATED',
        `${field}: needs ${n} bytes at offset ${this.offset}, message has ${this.bytes.length}`,
      );
    }
  }
}

/**
 * Strings of every frame repeat (a camera's frame_id, its encoding): the last RECENT_COUNT short
 * ones are kept with their bytes, so a repeat costs a byte comparison instead of a UTF-8 decode
 * into a new string (~1 % of a perception node's CPU at 30 Hz).
 */
const RECENT_MAX_BYTES = 64;
const RECENT_COUNT = 8;
const recent: { bytes: Uint8Array; text: string }[] = [];
let recentNext = 0;

function recentString(body: Uint8Array): string {
  const n = body.length;
  if (n > RECENT_MAX_BYTES) return Buffer.from(body.buffer, body.byteOffset, n).toString('utf8');
  for (const e of recent) {
    const b = e.bytes;
    if (b.length !== n) continue;
    let i = 0;
    while (i < n && b[i] === body[i]) i++;
    if (i === n) return e.text;
  }
  const text = Buffer.from(body.buffer, body.byteOffset, n).toString('utf8');
  // A copy: the message may be a Buffer (whose slice() is a view) in a pooled receive buffer.
  const entry = { bytes: new Uint8Array(body), text };
  if (recent.length < RECENT_COUNT) recent.push(entry);
  else recent[recentNext] = entry;
  recentNext = (recentNext + 1) % RECENT_COUNT;
  return text;
}
