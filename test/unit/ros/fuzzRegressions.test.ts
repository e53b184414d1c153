/**
 * Inputs the property suites (*.property.test.ts) found, kept as plain cases: each names the seed
 * and the fast-check path that found it (HTP_PERCEPTION_FUZZ_SEED / HTP_PERCEPTION_FUZZ_PATH).
 */
import { strict as assert } from 'node:assert';
import { decodeImage } from '../../../src/ros/imageCodec';
import { decodeCompressedImage } from '../../../src/ros/compressedImageCodec';
import { parseImageEncoding } from '../../../src/core/imageEncoding';
import { writeCompressedImage, writeImage } from '../../support/rosMessageArbitraries';

const header = { sec: 0, nanosec: 0, frameId: '' };

describe('decoder inputs found by the property suites', function () {
  it('a message cut in the padding before a field names that field (seed 20261127, path 62:283)', function () {
    // frame_id "ab" ends the header at body offset 15: height's 4-byte alignment wants 1 more.
    const full = writeImage(0x0001, {
      header: { ...header, frameId: 'ab' },
      encoding: 'mono8',
      width: 1,
      height: 1,
      step: 1,
      isBigEndian: 0,
      data: new Uint8Array(1),
    });
    assert.throws(() => decodeImage(full.subarray(0, 4 + 15)), {
      name: 'FrameError',
      message:
        'TRUNCATED: alignment padding before height: needs 1 bytes at offset 19, message has 19',
    });
    const compressed = writeCompressedImage(0x0007, {
      header: { ...header, frameId: 'x' },
      format: 'jpeg',
      data: new Uint8Array(3),
    });
    // frame_id "x" ends the header at body offset 14; format "jpeg" (length at 16) ends at 25.
    assert.throws(() => decodeCompressedImage(compressed.subarray(0, 4 + 25)), {
      name: 'FrameError',
      message:
        'TRUNCATED: alignment padding before data length: needs 3 bytes at offset 29, message has 29',
    });
  });

  it('an encoding named like an Object property is unknown, not a TypeError (seed 20261127, path 34:0:0:0:0:0:0:0:0:0:0)', function () {
    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf']) {
      assert.equal(parseImageEncoding(name), undefined, name);
      const bytes = writeImage(0x0001, {
        header,
        encoding: name,
        width: 1,
        height: 1,
        step: 3,
        isBigEndian: 0,
        data: new Uint8Array(3),
      });
      assert.throws(() => decodeImage(bytes), {
        name: 'FrameError',
        message: `UNKNOWN_ENCODING: encoding "${name}" is not supported`,
      });
    }
    assert.equal(parseImageEncoding('YUV422_YUY2'), 'yuyv');
  });
});
