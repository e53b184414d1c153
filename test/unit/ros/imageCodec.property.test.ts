import { strict as assert } from 'node:assert';
import { decodeImage, encodeImage, ImageToEncode } from '../../../src/ros/imageCodec';
import {
  decodeCompressedImage,
  encodeCompressedImage,
} from '../../../src/ros/compressedImageCodec';
import { FrameError, FrameErrorCode } from '../../../src/ros/frameError';
import { makePrng, randInt } from '../../../src/bench/prng';

const BPP: Record<string, number> = {
  rgb8: 3,
  bgr8: 3,
  rgba8: 4,
  bgra8: 4,
  mono8: 1,
  yuyv: 2,
  yuv422: 2,
  nv12: 1,
};

function validImage(rand: () => number): ImageToEncode {
  const encodings = Object.keys(BPP);
  const encoding = encodings[randInt(rand, 0, encodings.length)]!;
  const width = 2 * randInt(rand, 1, 20);
  const height = 2 * randInt(rand, 1, 12);
  const step = width * BPP[encoding]! + randInt(rand, 0, 3);
  const rows = encoding === 'nv12' ? height * 1.5 : height;
  const frameId = 'f'.repeat(randInt(rand, 0, 9));
  return {
    header: { stamp: { sec: randInt(rand, -10, 1e6), nanosec: randInt(rand, 0, 1e9) }, frameId },
    height,
    width,
    encoding,
    step,
    data: new Uint8Array(step * rows).fill(7),
  };
}

type Mutation = { name: string; codes: FrameErrorCode[]; make: (rand: () => number) => Uint8Array };

const MUTATIONS: Mutation[] = [
  {
    name: 'truncated anywhere',
    codes: ['TRUNCATED'],
    make: (r) => {
      const b = encodeImage(validImage(r));
      return b.subarray(0, randInt(r, 0, b.length));
    },
  },
  {
    name: 'unknown CDR representation',
    codes: ['BAD_ENCAPSULATION'],
    make: (r) => {
      const b = Buffer.from(encodeImage(validImage(r)));
      let rep = randInt(r, 0, 0x10000);
      if ([0, 1, 6, 7].includes(rep)) rep = 0x0102;
      b.writeUInt16BE(rep, 0);
      return b;
    },
  },
  {
    name: 'frame_id length corrupted',
    codes: ['TRUNCATED', 'BAD_STRING'],
    make: (r) => {
      const b = Buffer.from(encodeImage(validImage(r)));
      const choices = [0, 0xffffffff, 4097 + randInt(r, 0, 1e6), b.length];
      b.writeUInt32LE(choices[randInt(r, 0, choices.length)]!, 12);
      return b;
    },
  },
  {
    name: 'frame_id loses its NUL',
    codes: ['BAD_STRING'],
    make: (r) => {
      const img = validImage(r);
      const b = Buffer.from(encodeImage(img));
      b[16 + img.header.frameId.length] = 0x41;
      return b;
    },
  },
  {
    name: 'nanosec out of range',
    codes: ['BAD_HEADER'],
    make: (r) => {
      const b = Buffer.from(encodeImage(validImage(r)));
      b.writeUInt32LE(1e9 + randInt(r, 0, 3e9), 8);
      return b;
    },
  },
  {
    name: 'unknown encoding',
    codes: ['UNKNOWN_ENCODING'],
    make: (r) => {
      const names = [
        '',
        'rgb16',
        'RGB8 ',
        'jpeg',
        'bayer_rggb8',
        'x'.repeat(randInt(r, 1, 40)),
        '32FC1',
      ];
      return encodeImage({ ...validImage(r), encoding: names[randInt(r, 0, names.length)]! });
    },
  },
  {
    name: 'zero width or height',
    codes: ['ZERO_SIZE'],
    make: (r) => {
      const img = validImage(r);
      return encodeImage(r() < 0.5 ? { ...img, width: 0 } : { ...img, height: 0 });
    },
  },
  {
    name: 'absurd size',
    codes: ['TOO_LARGE'],
    make: (r) => {
      const img = validImage(r);
      const big = 16385 + randInt(r, 0, 1e9);
      return encodeImage(
        r() < 0.5 ? { ...img, width: big, step: big * 4 } : { ...img, height: big },
      );
    },
  },
  {
    name: 'step below width x bytes per pixel',
    codes: ['STEP_TOO_SMALL'],
    make: (r) => {
      const img = validImage(r);
      return encodeImage({ ...img, step: randInt(r, 0, img.width * BPP[img.encoding]!) });
    },
  },
  {
    name: 'data shorter than height x step',
    codes: ['DATA_TOO_SHORT'],
    make: (r) => {
      const img = validImage(r);
      return encodeImage({ ...img, data: img.data.subarray(0, randInt(r, 0, img.data.length)) });
    },
  },
  {
    name: 'odd width for chroma-subsampled encodings',
    codes: ['BAD_GEOMETRY'],
    make: (r) => {
      const img = validImage(r);
      const encoding = ['yuyv', 'yuv422', 'nv12'][randInt(r, 0, 3)]!;
      const width = img.width + 1;
      return encodeImage({
        ...img,
        encoding,
        width,
        step: width * 2,
        data: new Uint8Array(width * 2 * img.height * 2),
      });
    },
  },
  {
    name: 'trailing garbage',
    codes: ['TRAILING_BYTES'],
    make: (r) => Buffer.concat([encodeImage(validImage(r)), Buffer.alloc(randInt(r, 4, 64), 0xee)]),
  },
];

describe('image decoder under malformed input', function () {
  it('rejects 12,000 malformed Image buffers, each with the expected typed error', function () {
    const rand = makePrng(20261122);
    const seen = new Map<string, number>();
    for (let i = 0; i < 12_000; i++) {
      const m = MUTATIONS[i % MUTATIONS.length]!;
      const bytes = m.make(rand);
      let caught: unknown;
      try {
        decodeImage(bytes);
      } catch (e) {
        caught = e;
      }
      assert.ok(
        caught instanceof FrameError,
        `${m.name} #${i}: expected FrameError, got ${String(caught)}`,
      );
      assert.ok(
        m.codes.includes(caught.code),
        `${m.name} #${i}: code ${caught.code} not in ${m.codes.join('|')}`,
      );
      seen.set(caught.code, (seen.get(caught.code) ?? 0) + 1);
    }
    // Every mutation family was exercised and recognised.
    for (const m of MUTATIONS)
      assert.ok(
        m.codes.some((c) => (seen.get(c) ?? 0) > 0),
        m.name,
      );
  });

  it('rejects random junk and corrupted CompressedImage buffers with typed errors only', function () {
    const rand = makePrng(7);
    for (let i = 0; i < 3_000; i++) {
      let bytes: Uint8Array;
      if (i % 3 === 0) {
        bytes = new Uint8Array(randInt(rand, 0, 200)).map(() => randInt(rand, 0, 256));
        bytes[1] = 1; // mostly well-encapsulated junk, to get past the first check
        if (bytes.length > 0) bytes[0] = 0;
      } else {
        const good = encodeCompressedImage({
          header: { stamp: { sec: 1, nanosec: 2 }, frameId: 'cam'.slice(0, randInt(rand, 0, 4)) },
          format: 'jpeg',
          data: new Uint8Array(randInt(rand, 1, 100)).fill(255),
        });
        bytes =
          i % 3 === 1
            ? good.subarray(0, randInt(rand, 0, good.length))
            : Buffer.concat([good, Buffer.alloc(8)]);
      }
      for (const decode of [decodeImage, decodeCompressedImage]) {
        assert.throws(
          () => decode(bytes),
          (e: unknown) => e instanceof FrameError,
          `junk #${i}`,
        );
      }
    }
  });

  it('accepts what it encodes, and the is_bigendian flag as nonzero', function () {
    const rand = makePrng(3);
    for (let i = 0; i < 500; i++) {
      const img = validImage(rand);
      const f = decodeImage(encodeImage(img));
      assert.equal(f.width, img.width);
      assert.equal(f.step, img.step);
      assert.equal(f.header.frameId, img.header.frameId);
      assert.equal(f.data.length, img.data.length);
    }
    const f = decodeImage(encodeImage({ ...validImage(rand), isBigEndian: true }));
    assert.equal(f.isBigEndian, true);
  });

  it('names the field and the numbers in its messages', function () {
    const img = { ...validImage(makePrng(1)), encoding: 'rgb8', width: 4, height: 2, step: 11 };
    assert.throws(() => decodeImage(encodeImage({ ...img, data: new Uint8Array(24) })), {
      name: 'FrameError',
      message: 'STEP_TOO_SMALL: step 11 < width 4 x 3 bytes (12)',
    });
    assert.throws(() => decodeImage(encodeImage({ ...img, step: 12, data: new Uint8Array(20) })), {
      name: 'FrameError',
      message: 'DATA_TOO_SHORT: data has 20 bytes, rgb8 4x2 step 12 needs 24',
    });
  });
});
