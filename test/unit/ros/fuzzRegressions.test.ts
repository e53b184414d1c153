/**
 * Inputs the property suites (*.property.test.ts) found, kept as plain cases: each names the seed
 * and the fast-check path that found it (HTP_PERCEPTION_FUZZ_SEED / HTP_PERCEPTION_FUZZ_PATH).
 */
import { strict as assert } from 'node:assert';
import { decodeImage } from '../../../src/ros/codecs/imageCodec';
import { decodeCompressedImage } from '../../../src/ros/codecs/compressedImageCodec';
import { parseImageEncoding } from '../../../src/core/imageEncoding';
import { decodeCameraInfo } from '../../../src/ros/codecs/depthCodecs';
import {
  writeCameraInfo,
  writeCompressedImage,
  writeImage,
} from '../../support/rosMessageArbitraries';

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

  it('a CameraInfo in XCDR2 (0x0006 / 0x0007) reads its doubles 4-aligned (seed 20261127, path 5:0:0:...)', function () {
    const info = {
      header: { ...header, frameId: 'cam' },
      height: 480,
      width: 640,
      distortionModel: 'plumb_bob',
      d: [0.1, -0.2, 0.001, 0.002, 0.05],
      k: [600, 0, 320, 0, 610, 240, 0, 0, 1],
      r: [1, 0, 0, 0, 1, 0, 0, 0, 1],
      p: [600, 0, 320, 0, 0, 610, 240, 0, 0, 0, 1, 0],
      binning: [0, 0] as const,
      roi: [0, 0, 0, 0] as const,
      doRectify: 0,
    };
    for (const rep of [0x0000, 0x0001, 0x0006, 0x0007] as const) {
      const f = decodeCameraInfo(writeCameraInfo(rep, info));
      assert.deepEqual(f.info.d, info.d, `representation ${rep}`);
      assert.deepEqual(f.info.k, info.k, `representation ${rep}`);
    }
    // "plumb_bob" ends at body offset 38, d's length at 44: XCDR1 pads d's first double to 48,
    // XCDR2 starts it at 44; the rest follows unpadded in both.
    const xcdr1 = writeCameraInfo(0x0001, info).length;
    const xcdr2 = writeCameraInfo(0x0007, info).length;
    assert.equal(xcdr1 - xcdr2, 4);
  });
});
