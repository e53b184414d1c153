import { strict as assert } from 'node:assert';
import * as fc from 'fast-check';
import { decodeImage, encodeImage, ImageFrame } from '../../../../src/ros/codecs/imageCodec';
import {
  decodeCompressedImage,
  encodeCompressedImage,
  CompressedFrame,
} from '../../../../src/ros/codecs/compressedImageCodec';
import { FrameError } from '../../../../src/ros/frameError';
import { FUZZ_SIDE_RUNS, propertyCheck } from '../../../support/propertyCheck';
import { assertViewInside, checkHostileOutcome } from '../../../support/decodeOutcome';
import {
  encoded,
  header,
  hostileBytes,
  IMAGE_LAYOUTS,
  patternBytes,
  representation,
  validCompressedImage,
  validImage,
  writeCompressedImage,
  writeImage,
  type TestHeader,
  type TestImage,
} from '../../../support/rosMessageArbitraries';

const IMAGE_FIELDS = [
  'height',
  'width',
  'encoding',
  'is_bigendian',
  'step',
  'data',
  'image is',
  'image needs',
];
const COMPRESSED_FIELDS = ['format', 'data', 'compressed image'];

function sameHeader(got: ImageFrame['header'], want: TestHeader): void {
  assert.deepEqual(got, { stamp: { sec: want.sec, nanosec: want.nanosec }, frameId: want.frameId });
}

/** What a decoded Image must satisfy, whatever bytes it came from. */
function acceptImage(f: ImageFrame, bytes: Uint8Array): void {
  const layout = IMAGE_LAYOUTS[f.encoding];
  assert.ok(layout, `decoded encoding ${f.encoding} is not one we read`);
  const [bpp, wMul, hMul, planes] = layout;
  assert.ok(f.width >= 1 && f.width <= 16384 && f.width % wMul === 0, `width ${f.width}`);
  assert.ok(f.height >= 1 && f.height <= 16384 && f.height % hMul === 0, `height ${f.height}`);
  assert.ok(f.step >= f.width * bpp, `step ${f.step} for width ${f.width}`);
  assert.ok(f.data.length >= Math.ceil(f.step * f.height * planes), 'data shorter than needed');
  assertViewInside(f.data, bytes, 'data');
}

function acceptCompressed(f: CompressedFrame, bytes: Uint8Array): void {
  assert.ok(f.data.length > 0, 'empty data accepted');
  assertViewInside(f.data, bytes, 'data');
}

/** An Image with one field made wrong, and the code that wrong field must produce. */
const wrongImageField: fc.Arbitrary<{ kind: string; image: TestImage; expect: string }> = fc.oneof(
  fc
    .tuple(
      validImage,
      fc.oneof(
        fc.constantFrom('', 'rgb16', 'RGB8 ', 'jpeg', 'bayer_rggb8', '32FC1', '16UC1', 'mono16'),
        // Names an object has without owning them: a lookup table must not answer to them.
        fc.constantFrom('__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty'),
        fc
          .string({ maxLength: 12 })
          .filter((s) => !s.includes('\0') && !(s.toLowerCase() in IMAGE_LAYOUTS)),
      ),
    )
    .map(([image, encoding]) => ({
      kind: 'unknown encoding',
      image: { ...image, encoding },
      expect: 'UNKNOWN_ENCODING',
    })),
  fc.tuple(validImage, fc.boolean()).map(([image, w]) => ({
    kind: 'zero size',
    image: w ? { ...image, width: 0 } : { ...image, height: 0 },
    expect: 'ZERO_SIZE',
  })),
  fc
    .tuple(validImage, fc.boolean(), fc.integer({ min: 16385, max: 0xffffffff }))
    .map(([image, w, big]) => ({
      kind: 'a side over 16384',
      image: w ? { ...image, width: big } : { ...image, height: big },
      expect: 'TOO_LARGE',
    })),
  validImage.chain((image) =>
    fc.nat(image.width * IMAGE_LAYOUTS[image.encoding.toLowerCase()]![0] - 1).map((step) => ({
      kind: 'step below width x bytes per pixel',
      image: { ...image, step },
      expect: 'STEP_TOO_SMALL',
    })),
  ),
  validImage.chain((image) => {
    const [, , , planes] = IMAGE_LAYOUTS[image.encoding.toLowerCase()]!;
    const need = Math.ceil(image.step * image.height * planes);
    return fc.nat(need - 1).map((n) => ({
      kind: 'data shorter than height x step',
      image: { ...image, data: image.data.subarray(0, n) },
      expect: 'DATA_TOO_SHORT',
    }));
  }),
  fc
    .tuple(validImage, fc.constantFrom('yuyv', 'yuv422', 'nv12', 'YUV422_YUY2'), fc.boolean())
    .map(([image, encoding, oddWidth]) => {
      const width = encoding === 'nv12' && !oddWidth ? 2 : 3;
      const height = encoding === 'nv12' && !oddWidth ? 3 : 2;
      return {
        kind: 'odd size for chroma subsampling',
        image: { ...image, encoding, width, height, step: 8, data: new Uint8Array(64) },
        expect: 'BAD_GEOMETRY',
      };
    }),
);

describe('Image and CompressedImage decoders: properties (fast-check)', function () {
  it('decode every valid Image in every CDR representation to the fields written', function () {
    propertyCheck(
      fc.property(encoded(validImage, writeImage), ({ message: m, bytes }) => {
        const f = decodeImage(bytes);
        sameHeader(f.header, m.header);
        assert.equal(f.width, m.width);
        assert.equal(f.height, m.height);
        assert.equal(f.encodingName, m.encoding);
        assert.equal(
          f.encoding,
          m.encoding === 'YUV422_YUY2' || m.encoding.toLowerCase() === 'yuv422_yuy2'
            ? 'yuyv'
            : m.encoding.toLowerCase(),
        );
        assert.equal(f.isBigEndian, m.isBigEndian !== 0);
        assert.equal(f.step, m.step);
        assert.deepEqual(f.data, m.data);
        assertViewInside(f.data, bytes, 'data');
      }),
      FUZZ_SIDE_RUNS,
    );
  });

  it('our encoder writes the bytes the test writer does (0x0001), and they decode back', function () {
    propertyCheck(
      fc.property(validImage, (m) => {
        const image = {
          ...m,
          isBigEndian: m.isBigEndian !== 0,
          header: {
            stamp: { sec: m.header.sec, nanosec: m.header.nanosec },
            frameId: m.header.frameId,
          },
        };
        const ours = encodeImage(image);
        assert.deepEqual(
          new Uint8Array(ours),
          writeImage(0x0001, { ...m, isBigEndian: image.isBigEndian ? 1 : 0 }),
        );
        assert.equal(decodeImage(ours).data.length, m.data.length);
      }),
      FUZZ_SIDE_RUNS,
    );
  });

  it('refuse hostile Image bytes with a FrameError naming the field, or read them consistently', function () {
    propertyCheck(
      fc.property(hostileBytes(encoded(validImage, writeImage)), (h) =>
        checkHostileOutcome(h, decodeImage, IMAGE_FIELDS, acceptImage),
      ),
    );
  });

  it("refuse an Image with one wrong field with that field's code", function () {
    propertyCheck(
      fc.property(wrongImageField, representation, ({ kind, image, expect }, rep) =>
        checkHostileOutcome(
          { kind, bytes: writeImage(rep, image), expect: expect as FrameError['code'] },
          decodeImage,
          IMAGE_FIELDS,
          acceptImage,
        ),
      ),
      FUZZ_SIDE_RUNS,
    );
  });

  it('decode every valid CompressedImage, and our encoder writes the same bytes', function () {
    propertyCheck(
      fc.property(encoded(validCompressedImage, writeCompressedImage), ({ message: m, bytes }) => {
        const f = decodeCompressedImage(bytes);
        sameHeader(f.header, m.header);
        assert.equal(f.format, m.format);
        assert.deepEqual(f.data, m.data);
        const ours = encodeCompressedImage({
          header: {
            stamp: { sec: m.header.sec, nanosec: m.header.nanosec },
            frameId: m.header.frameId,
          },
          format: m.format,
          data: m.data,
        });
        assert.deepEqual(new Uint8Array(ours), writeCompressedImage(0x0001, m));
      }),
      FUZZ_SIDE_RUNS,
    );
  });

  it('refuse hostile CompressedImage bytes with a FrameError naming the field, or read them consistently', function () {
    propertyCheck(
      fc.property(hostileBytes(encoded(validCompressedImage, writeCompressedImage)), (h) =>
        checkHostileOutcome(h, decodeCompressedImage, COMPRESSED_FIELDS, acceptCompressed),
      ),
    );
  });

  it('refuse a CompressedImage without data (EMPTY_DATA)', function () {
    propertyCheck(
      fc.property(
        header,
        representation,
        fc.string({ maxLength: 8 }).filter((s) => !s.includes('\0')),
        (h, rep, format) =>
          checkHostileOutcome(
            {
              kind: 'no data',
              bytes: writeCompressedImage(rep, { header: h, format, data: new Uint8Array(0) }),
              expect: 'EMPTY_DATA',
            },
            decodeCompressedImage,
            COMPRESSED_FIELDS,
            acceptCompressed,
          ),
      ),
      1_000,
    );
  });

  it('names the field and the numbers in its messages', function () {
    const h = { sec: 1, nanosec: 2, frameId: 'cam' };
    const img = {
      header: h,
      encoding: 'rgb8',
      width: 4,
      height: 2,
      step: 11,
      isBigEndian: 0,
      data: patternBytes(24, 1),
    };
    assert.throws(() => decodeImage(writeImage(1, img)), {
      name: 'FrameError',
      message: 'STEP_TOO_SMALL: step 11 < width 4 x 3 bytes (12)',
    });
    assert.throws(
      () => decodeImage(writeImage(1, { ...img, step: 12, data: patternBytes(20, 1) })),
      {
        name: 'FrameError',
        message: 'DATA_TOO_SHORT: data has 20 bytes, rgb8 4x2 step 12 needs 24',
      },
    );
  });
});
