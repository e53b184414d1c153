/**
 * The sender's side of image_transport's compressedDepth, for tests: a 16-bit greyscale PNG
 * writer that chooses each row's filter (so every filter the decoder undoes is exercised), an RVL
 * encoder written from Wilson's paper (runs of zeros and non-zeros, zigzagged differences in
 * 3-bit groups with a continuation bit, eight nibbles to a little-endian word, first nibble on
 * top), and the 12-byte configuration header in front.
 */
import * as fc from 'fast-check';
import * as zlib from 'node:zlib';
import { header, type TestCompressedImage } from './rosMessageArbitraries';

function chunk(type: string, body: Uint8Array): Buffer {
  const out = Buffer.alloc(12 + body.length);
  out.writeUInt32BE(body.length, 0);
  out.write(type, 4, 'latin1');
  out.set(body, 8);
  out.writeUInt32BE(zlib.crc32(out.subarray(4, 8 + body.length)), 8 + body.length);
  return out;
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/** `filters[y % filters.length]` filters row y (0 None, 1 Sub, 2 Up, 3 Average, 4 Paeth). */
export function writePng16(
  samples: Uint16Array,
  width: number,
  height: number,
  filters: readonly number[] = [0],
): Buffer {
  const rowBytes = width * 2;
  const rows = Buffer.alloc(height * (rowBytes + 1));
  let prev = new Uint8Array(rowBytes);
  for (let y = 0; y < height; y++) {
    const row = new Uint8Array(rowBytes);
    for (let x = 0; x < width; x++) {
      row[2 * x] = samples[y * width + x]! >> 8;
      row[2 * x + 1] = samples[y * width + x]! & 0xff;
    }
    const f = filters[y % filters.length]!;
    const at = y * (rowBytes + 1);
    rows[at] = f;
    for (let i = 0; i < rowBytes; i++) {
      const a = i >= 2 ? row[i - 2]! : 0;
      const b = prev[i]!;
      const c = i >= 2 ? prev[i - 2]! : 0;
      const predicted = [0, a, b, (a + b) >> 1, paeth(a, b, c)][f]!;
      rows[at + 1 + i] = (row[i]! - predicted) & 0xff;
    }
    prev = row;
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 16; // bit depth
  ihdr[9] = 0; // greyscale
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(rows)),
    chunk('IEND', new Uint8Array(0)),
  ]);
}

export function writeRvl(samples: Uint16Array): Buffer {
  const words: number[] = [];
  let word = 0;
  let nibbles = 0;
  const vle = (value: number) => {
    do {
      let nibble = value & 7;
      value = Math.floor(value / 8);
      if (value) nibble |= 8;
      word = ((word << 4) | nibble) >>> 0;
      if (++nibbles === 8) {
        words.push(word);
        word = 0;
        nibbles = 0;
      }
    } while (value);
  };
  let at = 0;
  let previous = 0;
  while (at < samples.length) {
    let zeros = 0;
    while (at < samples.length && samples[at] === 0) {
      at++;
      zeros++;
    }
    vle(zeros);
    let nonzeros = 0;
    while (at + nonzeros < samples.length && samples[at + nonzeros] !== 0) nonzeros++;
    vle(nonzeros);
    for (let i = 0; i < nonzeros; i++) {
      const current = samples[at++]!;
      const delta = current - previous;
      vle(delta >= 0 ? 2 * delta : -2 * delta - 1);
      previous = current;
    }
  }
  if (nibbles) words.push((word << (4 * (8 - nibbles))) >>> 0);
  const out = Buffer.alloc(words.length * 4);
  words.forEach((w, i) => out.writeUInt32LE(w, 4 * i));
  return out;
}

export interface DepthPayload {
  readonly encoding: '16UC1' | '32FC1';
  readonly method: 'png' | 'rvl';
  readonly width: number;
  readonly height: number;
  /** 16UC1: millimetres; 32FC1: quantized inverse depth (0 = none). */
  readonly samples: Uint16Array;
  readonly quantA: number;
  readonly quantB: number;
  readonly filters: readonly number[];
}

/** The `data` of a compressedDepth CompressedImage. */
export function writeCompressedDepth(p: DepthPayload): Buffer {
  const config = Buffer.alloc(12);
  config.writeInt32LE(p.encoding === '32FC1' ? 0 : -1, 0);
  config.writeFloatLE(p.quantA, 4);
  config.writeFloatLE(p.quantB, 8);
  if (p.method === 'png') {
    return Buffer.concat([config, writePng16(p.samples, p.width, p.height, p.filters)]);
  }
  const size = Buffer.alloc(8);
  size.writeUInt32LE(p.width, 0);
  size.writeUInt32LE(p.height, 4);
  return Buffer.concat([config, size, writeRvl(p.samples)]);
}

/** Depth as sensors send it: runs of no depth, smooth surfaces, jumps at edges. */
export const depthPayload: fc.Arbitrary<DepthPayload> = fc
  .record({
    encoding: fc.constantFrom('16UC1' as const, '32FC1' as const),
    method: fc.constantFrom('png' as const, 'rvl' as const),
    width: fc.integer({ min: 1, max: 16 }),
    height: fc.integer({ min: 1, max: 12 }),
    quantA: fc.constantFrom(100 * 101, 1000, 12.5),
    quantB: fc.constantFrom(1 - (100 * 101) / 10, 0, -3.5),
    filters: fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 1, maxLength: 5 }),
  })
  .chain((r) =>
    fc
      .array(
        fc.oneof(
          fc.constant(0),
          fc.integer({ min: 1, max: 0xffff }),
          fc.integer({ min: 990, max: 1010 }),
        ),
        { minLength: r.width * r.height, maxLength: r.width * r.height },
      )
      .map((values) => ({ ...r, samples: Uint16Array.from(values) })),
  );

export const FORMATS = {
  png: ['compressedDepth png', 'compressedDepth'],
  rvl: ['compressedDepth rvl'],
} as const;

/** A compressedDepth CompressedImage (format string as publishers write it) and its payload. */
export const validCompressedDepth: fc.Arbitrary<TestCompressedImage & { payload: DepthPayload }> =
  fc
    .tuple(header, depthPayload, fc.boolean(), fc.constantFrom('; ', ';'))
    .map(([h, payload, older, sep]) => ({
      header: h,
      format: `${payload.encoding}${sep}${FORMATS[payload.method][older && payload.method === 'png' ? 1 : 0]}`,
      data: writeCompressedDepth(payload),
      payload,
    }));
