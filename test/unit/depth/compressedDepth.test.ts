import { strict as assert } from 'node:assert';
import * as fc from 'fast-check';
import * as zlib from 'node:zlib';
import * as fs from 'node:fs';
import {
  CompressedDepthError,
  decodeCompressedDepth,
  parseCompressedDepthFormat,
} from '../../../src/depth/compressedDepth';
import type { DepthImage } from '../../../src/depth/depthImage';
import { decodePng16 } from '../../../src/depth/png16';
import { decodeRvl } from '../../../src/depth/rvl';
import { decodeCompressedDepthImage, type DepthFrame } from '../../../src/ros/codecs/depthCodecs';
import {
  type DepthPayload,
  depthPayload,
  validCompressedDepth,
  writeCompressedDepth,
  writePng16,
  writeRvl,
} from '../../support/compressedDepthWriters';
import { checkHostileOutcome } from '../../support/decodeOutcome';
import { repoPath } from '../../support/paths';
import { FUZZ_SIDE_RUNS, propertyCheck } from '../../support/propertyCheck';
import { encoded, hostileBytes, writeCompressedImage } from '../../support/rosMessageArbitraries';

/** What a receiver must read at each pixel: millimetres / 1000, or the inverse quantization. */
function expectedMetres(p: DepthPayload, i: number): number {
  const v = p.samples[i]!;
  if (v === 0) return NaN;
  if (p.encoding === '16UC1') return v / 1000;
  const m = Math.fround(Math.fround(p.quantA) / (v - Math.fround(p.quantB)));
  return m > 0 && Number.isFinite(m) ? m : NaN;
}

function assertPixels(image: DepthImage, p: DepthPayload): void {
  assert.equal(image.width, p.width);
  assert.equal(image.height, p.height);
  for (let y = 0; y < p.height; y++) {
    for (let x = 0; x < p.width; x++) {
      const got = image.metresAt(x, y);
      const want = expectedMetres(p, y * p.width + x);
      assert.ok(Object.is(got, want), `(${x}, ${y}) ${p.encoding} ${p.method}: ${got} != ${want}`);
    }
  }
}

const DATA_WORDS = ['PNG', 'RVL', 'header', 'bytes', 'quantization'];

describe("compressedDepth (image_transport's PNG and RVL depth)", function () {
  it('RVL: a stream worked out by hand from the paper decodes to its pixels', function () {
    // [0, 0, 5]: 2 zeros (nibble 2), 1 non-zero (1), 5 - 0 zigzagged = 10 = 2 + 1 * 8 (A, 1).
    const stream = Buffer.alloc(4);
    stream.writeUInt32LE(0x21a10000);
    assert.deepEqual([...decodeRvl(stream, 3)], [0, 0, 5]);
    assert.deepEqual(writeRvl(Uint16Array.from([0, 0, 5])), stream);
  });

  it("PNG: decodes what OpenCV's encoder (compressed_depth_image_transport's own) wrote", function () {
    // test/fixtures/depth/make_opencv_png.py: a floor, a hole, an edge, 1 and 65535.
    const png = fs.readFileSync(repoPath('test', 'fixtures', 'depth', 'opencv-depth.png'));
    const raw = fs.readFileSync(repoPath('test', 'fixtures', 'depth', 'opencv-depth.u16'));
    const got = decodePng16(png, 16384);
    assert.equal(got.width, 41);
    assert.equal(got.height, 23);
    const want = [...new Uint16Array(raw.buffer, raw.byteOffset, raw.length / 2)];
    assert.deepEqual([...got.samples], want);
  });

  it('decodes every valid payload (both encodings, PNG with every row filter, RVL) to its depth', function () {
    propertyCheck(
      fc.property(depthPayload, (p) => {
        const format = `${p.encoding}; compressedDepth ${p.method}`;
        assertPixels(decodeCompressedDepth(format, writeCompressedDepth(p), 16384), p);
      }),
      FUZZ_SIDE_RUNS,
    );
  });

  it('reads the format strings publishers write, and refuses the others by name', function () {
    assert.deepEqual(parseCompressedDepthFormat('16UC1; compressedDepth png'), {
      encoding: '16UC1',
      method: 'png',
    });
    assert.deepEqual(parseCompressedDepthFormat('32FC1; compressedDepth rvl'), {
      encoding: '32FC1',
      method: 'rvl',
    });
    assert.deepEqual(parseCompressedDepthFormat('16UC1; compressedDepth'), {
      encoding: '16UC1',
      method: 'png',
    });
    assert.deepEqual(parseCompressedDepthFormat('mono16'), { encoding: '16UC1', method: 'png' });
    for (const [format, pattern] of [
      ['rgb8; jpeg compressed bgr8', /compressedDepth of "rgb8": only 16UC1 and 32FC1/],
      ['16UC1; compressedDepth zstd', /not compressedDepth png or rvl/],
      ['16UC1; png', /not compressedDepth png or rvl/],
    ] as const) {
      assert.throws(
        () => decodeCompressedDepth(format, Buffer.alloc(40), 16384),
        (e: unknown) =>
          e instanceof CompressedDepthError && e.kind === 'format' && pattern.test(e.message),
        format,
      );
    }
  });

  it('refuses what no sender writes: another PNG kind, a bad CRC, a cut stream, an RVL run past the image', function () {
    const p: DepthPayload = {
      encoding: '16UC1',
      method: 'png',
      width: 4,
      height: 3,
      samples: Uint16Array.from([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]),
      quantA: 1,
      quantB: 0,
      filters: [4],
    };
    const good = writeCompressedDepth(p);
    const refused = (data: Uint8Array, format: string, pattern: RegExp) =>
      assert.throws(
        () => decodeCompressedDepth(format, data, 16384),
        (e: unknown) =>
          e instanceof CompressedDepthError && e.kind === 'data' && pattern.test(e.message),
        String(pattern),
      );
    const eightBit = Buffer.from(good);
    eightBit[12 + 8 + 8 + 8] = 8; // IHDR bit depth (CRC now wrong too: the CRC is checked first)
    refused(eightBit, '16UC1; compressedDepth png', /PNG: chunk IHDR: CRC mismatch/);
    refused(
      good.subarray(0, good.length - 12),
      '16UC1; compressedDepth png',
      /PNG: cut short: no IEND/,
    );
    refused(good.subarray(0, 12), '16UC1; compressedDepth png', /no room for the 12-byte header/);
    const colour = writePng16(p.samples, 4, 3);
    colour[8 + 8 + 9] = 2; // colour type RGB, with its CRC rewritten below
    colour.writeUInt32BE(zlib.crc32(colour.subarray(12, 29)), 29);
    refused(
      Buffer.concat([good.subarray(0, 12), colour]),
      '16UC1; compressedDepth png',
      /colour type 2, 16-bit: depth PNGs are 16-bit greyscale/,
    );
    const rvl = writeCompressedDepth({ ...p, method: 'rvl' });
    const longer = Buffer.from(rvl);
    longer.writeUInt32LE(3, 12); // width 3 (height 3): 9 pixels, the stream holds 12
    refused(longer, '16UC1; compressedDepth rvl', /RVL: a run of \d+ pixels past the image's end/);
    refused(rvl.subarray(0, rvl.length - 4), '16UC1; compressedDepth rvl', /RVL: stream cut short/);
    const noQuant = writeCompressedDepth({ ...p, encoding: '32FC1', quantA: 0 });
    refused(noQuant, '32FC1; compressedDepth png', /inverse-depth quantization a=0/);
  });

  it('over CDR: decodes every compressedDepth message to its header and depth', function () {
    propertyCheck(
      fc.property(encoded(validCompressedDepth, writeCompressedImage), ({ message: m, bytes }) => {
        const f = decodeCompressedDepthImage(bytes);
        assert.deepEqual(f.header, {
          stamp: { sec: m.header.sec, nanosec: m.header.nanosec },
          frameId: m.header.frameId,
        });
        assertPixels(f.image, m.payload);
      }),
      FUZZ_SIDE_RUNS,
    );
  });

  it('refuse hostile compressedDepth messages with a FrameError naming what is wrong, or read them in bounds', function () {
    const accept = (f: DepthFrame) => {
      const { width, height } = f.image;
      for (let y = 0; y < height; y++) {
        for (let x = 0; x < width; x++) {
          const v = f.image.metresAt(x, y);
          assert.ok(Number.isNaN(v) || (v > 0 && Number.isFinite(v)), `${v} at ${x},${y}`);
        }
      }
    };
    propertyCheck(
      fc.property(hostileBytes(encoded(validCompressedDepth, writeCompressedImage)), (h) =>
        checkHostileOutcome(
          h,
          decodeCompressedDepthImage,
          ['format', 'data', ...DATA_WORDS],
          accept,
        ),
      ),
    );
  });
});
