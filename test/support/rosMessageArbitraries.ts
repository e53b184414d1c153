/**
 * fast-check generators of the messages our decoders read (sensor_msgs Image, CompressedImage,
 * depth Image, CameraInfo), valid ones and hostile variants of them, with a test-side writer for
 * each (cdrTestWriter.ts: every CDR representation the decoders accept). The tables here are
 * restated from sensor_msgs/image_encodings and REP-118, not imported, so a wrong production table
 * shows up as a failed property rather than agreeing with itself.
 */
import * as fc from 'fast-check';
import type { FrameErrorCode } from '../../src/ros/frameError';
import { CDR_REPRESENTATIONS, CdrTestWriter, type CdrRepresentation } from './cdrTestWriter';

export interface TestHeader {
  readonly sec: number;
  readonly nanosec: number;
  readonly frameId: string;
}

export interface TestImage {
  readonly header: TestHeader;
  readonly height: number;
  readonly width: number;
  readonly encoding: string;
  /** The raw byte: any nonzero value means big-endian. */
  readonly isBigEndian: number;
  readonly step: number;
  readonly data: Uint8Array;
}

export interface TestCompressedImage {
  readonly header: TestHeader;
  readonly format: string;
  readonly data: Uint8Array;
}

export interface TestCameraInfo {
  readonly header: TestHeader;
  readonly height: number;
  readonly width: number;
  readonly distortionModel: string;
  readonly d: readonly number[];
  readonly k: readonly number[];
  readonly r: readonly number[];
  readonly p: readonly number[];
  readonly binning: readonly [number, number];
  /** x_offset, y_offset, height, width. */
  readonly roi: readonly [number, number, number, number];
  readonly doRectify: number;
}

/** A message and the representation it is written in. */
export interface Encoded<T> {
  readonly message: T;
  readonly representation: CdrRepresentation;
  readonly bytes: Uint8Array;
}

// ---- writers ---------------------------------------------------------------------------------

function writeHeader(w: CdrTestWriter, h: TestHeader): CdrTestWriter {
  return w.int32(h.sec).uint32(h.nanosec).string(h.frameId);
}

export function writeImage(rep: CdrRepresentation, m: TestImage): Uint8Array {
  const w = writeHeader(new CdrTestWriter(rep), m.header);
  w.uint32(m.height).uint32(m.width).string(m.encoding).uint8(m.isBigEndian).uint32(m.step);
  return w.sequence(m.data).finish();
}

export function writeCompressedImage(rep: CdrRepresentation, m: TestCompressedImage): Uint8Array {
  return writeHeader(new CdrTestWriter(rep), m.header).string(m.format).sequence(m.data).finish();
}

/** `dLength`: the d.length to write instead of d's (a lying sender). */
export function writeCameraInfo(
  rep: CdrRepresentation,
  m: TestCameraInfo,
  dLength = m.d.length,
): Uint8Array {
  const w = writeHeader(new CdrTestWriter(rep), m.header);
  w.uint32(m.height).uint32(m.width).string(m.distortionModel).uint32(dLength);
  for (const v of [...m.d, ...m.k, ...m.r, ...m.p]) w.float64(v);
  for (const v of [...m.binning, ...m.roi]) w.uint32(v);
  return w.uint8(m.doRectify).finish();
}

// ---- valid messages --------------------------------------------------------------------------

/** Body bytes of a string field the reader accepts (NUL excluded, length + NUL <= 4096). */
export const MAX_STRING_BODY = 4095;

const wellFormed = (s: string) => !s.includes('\0') && Buffer.from(s, 'utf8').toString() === s;

/** Strings as drivers send them, plus any Unicode, plus long ones up to the reader's limit. */
export const rosString: fc.Arbitrary<string> = fc.oneof(
  { weight: 10, arbitrary: fc.string({ maxLength: 16 }) },
  { weight: 6, arbitrary: fc.string({ unit: 'binary', maxLength: 12 }).filter(wellFormed) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom('a', 'é', '€', '😀'), fc.integer({ min: 60, max: MAX_STRING_BODY }))
      .map(([c, bytes]) => c.repeat(Math.floor(bytes / Buffer.byteLength(c)))),
  },
);

export const header: fc.Arbitrary<TestHeader> = fc.record({
  sec: fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }),
  nanosec: fc.integer({ min: 0, max: 999_999_999 }),
  frameId: rosString,
});

export const representation: fc.Arbitrary<CdrRepresentation> = fc.constantFrom(
  ...CDR_REPRESENTATIONS,
);

/** Deterministic filler: cheap to make at any size, different per seed, compared by value. */
export function patternBytes(length: number, seed: number): Uint8Array {
  const out = new Uint8Array(length);
  let x = seed | 1;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

/** Bytes per pixel row unit, width and height multiples, plane factor (sensor_msgs names). */
export const IMAGE_LAYOUTS: Readonly<Record<string, readonly [number, number, number, number]>> = {
  rgb8: [3, 1, 1, 1],
  bgr8: [3, 1, 1, 1],
  rgba8: [4, 1, 1, 1],
  bgra8: [4, 1, 1, 1],
  mono8: [1, 1, 1, 1],
  yuyv: [2, 2, 1, 1],
  yuv422: [2, 2, 1, 1],
  yuv422_yuy2: [2, 2, 1, 1],
  nv12: [1, 2, 2, 1.5],
};

/** An encoding name as drivers spell it: canonical, alias, or in another letter case. */
const spelled = (names: readonly string[]) =>
  fc
    .tuple(fc.constantFrom(...names), fc.constantFrom('as is', 'upper', 'mixed'))
    .map(([n, how]) =>
      how === 'as is'
        ? n
        : how === 'upper'
          ? n.toUpperCase()
          : [...n].map((c, i) => (i % 2 ? c.toUpperCase() : c)).join(''),
    );

/** Side lengths: mostly small, sometimes at the 16384 limit on one side. */
const sides = (wMul: number, hMul: number) =>
  fc
    .oneof(
      {
        weight: 30,
        arbitrary: fc.tuple(fc.integer({ min: 1, max: 24 }), fc.integer({ min: 1, max: 12 })),
      },
      {
        weight: 1,
        arbitrary: fc.constantFrom([16384 / wMul, 1] as const, [1, 16384 / hMul] as const),
      },
    )
    .map(([w, h]) => [w * wMul, h * hMul] as const);

export const validImage: fc.Arbitrary<TestImage> = spelled(Object.keys(IMAGE_LAYOUTS)).chain(
  (encoding) => {
    const [bpp, wMul, hMul, planes] = IMAGE_LAYOUTS[encoding.toLowerCase()]!;
    return fc
      .record({
        header,
        encoding: fc.constant(encoding),
        size: sides(wMul, hMul),
        stepExtra: fc.integer({ min: 0, max: 8 }),
        dataExtra: fc.integer({ min: 0, max: 8 }),
        isBigEndian: fc.integer({ min: 0, max: 255 }),
        seed: fc.integer(),
      })
      .map(({ size: [width, height], stepExtra, dataExtra, seed, ...rest }) => {
        const step = width * bpp + stepExtra;
        const data = patternBytes(Math.ceil(step * height * planes) + dataExtra, seed);
        return { ...rest, width, height, step, data };
      });
  },
);

export const validCompressedImage: fc.Arbitrary<TestCompressedImage> = fc
  .record({
    header,
    format: fc.oneof(fc.constantFrom('jpeg', 'png', 'rgb8; jpeg compressed bgr8'), rosString),
    length: fc.integer({ min: 1, max: 300 }),
    seed: fc.integer(),
  })
  .map(({ length, seed, ...rest }) => ({ ...rest, data: patternBytes(length, seed) }));

/** REP-118 depth encodings, with their bytes per pixel. */
export const DEPTH_BYTES: Readonly<Record<string, number>> = { '16uc1': 2, mono16: 2, '32fc1': 4 };

export const validDepthImage: fc.Arbitrary<TestImage> = spelled(Object.keys(DEPTH_BYTES)).chain(
  (encoding) => {
    const bpp = DEPTH_BYTES[encoding.toLowerCase()]!;
    return fc
      .record({
        header,
        encoding: fc.constant(encoding),
        width: fc.integer({ min: 1, max: 16 }),
        height: fc.integer({ min: 1, max: 12 }),
        stepExtra: fc.integer({ min: 0, max: 7 }),
        dataExtra: fc.integer({ min: 0, max: 8 }),
        isBigEndian: fc.integer({ min: 0, max: 255 }),
        seed: fc.integer(),
      })
      .map(({ stepExtra, dataExtra, seed, ...rest }) => {
        const step = rest.width * bpp + stepExtra;
        // The last row needs only its pixels, not a whole step (drivers trim it).
        const need = step * (rest.height - 1) + rest.width * bpp;
        return { ...rest, step, data: patternBytes(need + dataExtra, seed) };
      });
  },
);

const anyDouble = fc.double();
const uint32 = fc.integer({ min: 0, max: 0xffffffff });

export const validCameraInfo: fc.Arbitrary<TestCameraInfo> = fc.record({
  header,
  height: uint32,
  width: uint32,
  distortionModel: fc.oneof(
    fc.constantFrom('plumb_bob', 'rational_polynomial', 'equidistant', ''),
    rosString,
  ),
  d: fc.oneof(
    { weight: 8, arbitrary: fc.array(anyDouble, { maxLength: 14 }) },
    { weight: 1, arbitrary: fc.array(anyDouble, { minLength: 60, maxLength: 64 }) },
  ),
  k: fc.array(anyDouble, { minLength: 9, maxLength: 9 }),
  r: fc.array(anyDouble, { minLength: 9, maxLength: 9 }),
  p: fc.array(anyDouble, { minLength: 12, maxLength: 12 }),
  binning: fc.tuple(uint32, uint32),
  roi: fc.tuple(uint32, uint32, uint32, uint32),
  doRectify: fc.integer({ min: 0, max: 255 }),
});

/** A valid message in a random representation, with its bytes. */
export function encoded<T>(
  message: fc.Arbitrary<T>,
  write: (rep: CdrRepresentation, m: T) => Uint8Array,
): fc.Arbitrary<Encoded<T>> {
  return fc
    .tuple(message, representation)
    .map(([m, rep]) => ({ message: m, representation: rep, bytes: write(rep, m) }));
}

// ---- hostile bytes ---------------------------------------------------------------------------

/**
 * Bytes a decoder must refuse or read consistently. `expect`: the one code a correct decoder
 * gives (the mutation leaves it no other choice); undefined: any FrameError, or a decode whose
 * result is self-consistent (random overwrites can make another valid message).
 */
export interface Hostile {
  readonly kind: string;
  readonly bytes: Uint8Array;
  readonly expect?: FrameErrorCode;
}

const BODY = 4;
/** Where every message's header puts its fields (all decoded messages start with a Header). */
const NANOSEC_AT = BODY + 4;
const FRAME_ID_LENGTH_AT = BODY + 8;
const FRAME_ID_AT = BODY + 12;

function withUint32(bytes: Uint8Array, at: number, v: number): Uint8Array {
  const out = bytes.slice();
  const little = (out[1]! & 1) === 1;
  new DataView(out.buffer).setUint32(at, v >>> 0, little);
  return out;
}

function frameIdLength(bytes: Uint8Array): number {
  return new DataView(bytes.buffer, bytes.byteOffset).getUint32(
    FRAME_ID_LENGTH_AT,
    (bytes[1]! & 1) === 1,
  );
}

const INTERESTING_UINT32 = [
  0, 1, 2, 3, 4, 7, 8, 0x7f, 0xff, 0x100, 4095, 4096, 4097, 16384, 16385, 0x7fffffff, 0x80000000,
  0xfffffffe, 0xffffffff, 999_999_999, 1_000_000_000,
];

/**
 * Hostile variants of valid encodings: each family is one way a sender (or a bit flip on the
 * wire) gets a message wrong.
 */
export function hostileBytes(valid: fc.Arbitrary<Encoded<unknown>>): fc.Arbitrary<Hostile> {
  const v = valid.map((e) => e.bytes);
  return fc.oneof(
    v.chain((b) =>
      fc
        .nat(b.length - 1)
        .map((n) => ({ kind: 'truncated', bytes: b.subarray(0, n), expect: 'TRUNCATED' as const })),
    ),
    fc
      .tuple(v, fc.integer({ min: 4, max: 64 }), fc.integer({ min: 0, max: 255 }))
      .map(([b, n, fill]) => ({
        kind: 'trailing garbage',
        bytes: Buffer.concat([b, Buffer.alloc(n, fill)]),
        expect: 'TRAILING_BYTES' as const,
      })),
    fc
      .tuple(
        v,
        fc.integer({ min: 0, max: 0xffff }).filter((r) => ![0, 1, 6, 7].includes(r)),
      )
      .map(([b, rep]) => {
        const out = b.slice();
        new DataView(out.buffer).setUint16(0, rep, false);
        return { kind: 'unknown representation', bytes: out, expect: 'BAD_ENCAPSULATION' as const };
      }),
    fc.tuple(v, fc.integer({ min: 1_000_000_000, max: 0xffffffff })).map(([b, ns]) => ({
      kind: 'nanosec out of range',
      bytes: withUint32(b, NANOSEC_AT, ns),
      expect: 'BAD_HEADER' as const,
    })),
    v.map((b) => ({
      kind: 'frame_id length 0',
      bytes: withUint32(b, FRAME_ID_LENGTH_AT, 0),
      expect: 'BAD_STRING' as const,
    })),
    fc.tuple(v, fc.integer({ min: 4097, max: 0xffffffff })).map(([b, n]) => ({
      kind: 'frame_id longer than the limit',
      bytes: withUint32(b, FRAME_ID_LENGTH_AT, n),
      expect: 'BAD_STRING' as const,
    })),
    fc.tuple(v, fc.integer({ min: 1, max: 255 })).map(([b, x]) => {
      const out = b.slice();
      out[FRAME_ID_AT + frameIdLength(b) - 1] = x;
      return { kind: 'frame_id loses its NUL', bytes: out, expect: 'BAD_STRING' as const };
    }),
    v
      .filter((b) => frameIdLength(b) > 1)
      .chain((b) =>
        fc.nat(frameIdLength(b) - 2).map((i) => {
          const out = b.slice();
          out[FRAME_ID_AT + i] = 0;
          return { kind: 'NUL inside frame_id', bytes: out, expect: 'BAD_STRING' as const };
        }),
      ),
    v.chain((b) =>
      fc
        .array(fc.tuple(fc.nat(b.length - 1), fc.integer({ min: 0, max: 255 })), {
          minLength: 1,
          maxLength: 8,
        })
        .map((edits) => {
          const out = b.slice();
          for (const [at, x] of edits) out[at] = x;
          return { kind: 'bytes overwritten', bytes: out };
        }),
    ),
    v
      .filter((b) => b.length >= 8)
      .chain((b) =>
        fc
          .tuple(
            fc.nat(Math.floor((b.length - BODY) / 4) - 1),
            fc.constantFrom(...INTERESTING_UINT32),
          )
          .map(([slot, x]) => ({
            kind: 'uint32 overwritten',
            bytes: withUint32(b, BODY + slot * 4, x),
          })),
      ),
    v.chain((b) =>
      fc
        .tuple(fc.nat(b.length), fc.nat(Math.min(32, b.length)), fc.uint8Array({ maxLength: 16 }))
        .map(([at, cut, insert]) => ({
          kind: 'bytes cut out or put in',
          bytes: Buffer.concat([
            b.subarray(0, at),
            insert,
            b.subarray(Math.min(b.length, at + cut)),
          ]),
        })),
    ),
    v.map((b) => {
      const out = b.slice();
      out[1] = out[1]! ^ 1;
      return { kind: 'byte order flipped', bytes: out };
    }),
    fc.tuple(representation, fc.uint8Array({ maxLength: 160 })).map(([rep, junk]) => {
      const out = new Uint8Array(BODY + junk.length);
      out[1] = rep;
      out.set(junk, BODY);
      return { kind: 'junk after a valid encapsulation', bytes: out };
    }),
    fc.uint8Array({ maxLength: 64 }).map((bytes) => ({ kind: 'junk', bytes })),
  );
}
