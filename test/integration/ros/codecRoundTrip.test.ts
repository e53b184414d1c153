import { strict as assert } from 'node:assert';
import { decodeImage, encodeImage } from '../../../src/ros/codecs/imageCodec';
import {
  decodeCompressedImage,
  encodeCompressedImage,
} from '../../../src/ros/codecs/compressedImageCodec';
import { runPythonJson } from '../../support/python';
import { repoPath } from '../../support/paths';

interface ImageCase {
  kind: 'image';
  sec: number;
  nanosec: number;
  frame_id: string;
  height: number;
  width: number;
  encoding: string;
  is_bigendian: number;
  step: number;
  data: string;
}
interface CompressedCase {
  kind: 'compressed';
  sec: number;
  nanosec: number;
  frame_id: string;
  format: string;
  data: string;
}
type Case = ImageCase | CompressedCase;

/**
 * rclpy (Fast DDS) leaves CDR alignment padding uninitialized, so byte-exact comparison skips
 * exactly the padding bytes, which this computes independently of the codec from the field layout.
 */
function withPaddingZeroed(c: Case, bytes: Buffer): Buffer {
  const out = Buffer.from(bytes);
  let rel = 8; // stamp
  const skipTo4 = (): void => {
    while (rel % 4 !== 0) out[4 + rel++] = 0;
  };
  const str = (s: string): void => {
    rel += 4 + Buffer.byteLength(s, 'utf8') + 1;
  };
  str(c.frame_id);
  if (c.kind === 'image') {
    skipTo4();
    rel += 8; // height, width
    str(c.encoding);
    rel += 1; // is_bigendian
    skipTo4();
  } else {
    skipTo4();
    str(c.format);
    skipTo4();
  }
  return out;
}

const SERDE = repoPath('test', 'fixtures', 'ros', 'serde.py');

function pixels(n: number, seed: number): Buffer {
  const b = Buffer.alloc(n);
  for (let i = 0; i < n; i++) b[i] = (i * 31 + seed * 7) & 0xff;
  return b;
}

function imageCase(
  encoding: string,
  width: number,
  height: number,
  bpp: number,
  frameId: string,
  extraStep = 0,
  planeFactor = 1,
): ImageCase {
  const step = width * bpp + extraStep;
  return {
    kind: 'image',
    sec: 1_700_000_000 + width,
    nanosec: 123_456_789,
    frame_id: frameId,
    height,
    width,
    encoding,
    is_bigendian: 0,
    step,
    data: pixels(step * height * planeFactor, width + height).toString('base64'),
  };
}

// Frame ids of every length 0..7 move the following fields through every alignment padding.
const CASES: Case[] = [
  imageCase('rgb8', 3, 2, 3, ''),
  imageCase('bgr8', 5, 3, 3, 'c'),
  imageCase('rgba8', 7, 2, 4, 'ca'),
  imageCase('bgra8', 2, 9, 4, 'cam'),
  imageCase('mono8', 11, 5, 1, 'came'),
  imageCase('yuv422', 6, 4, 2, 'camer'),
  imageCase('yuyv', 8, 2, 2, 'camera'),
  imageCase('nv12', 8, 6, 1, 'camera_', 0, 1.5),
  imageCase('rgb8', 5, 4, 3, 'padded_rows', 1),
  imageCase('rgb8', 640, 480, 3, 'camera_color_optical_frame'),
  imageCase('mono8', 4, 4, 1, 'kamera/Ω-μ'),
  { ...imageCase('rgb8', 1, 1, 3, 'neg'), sec: -5, nanosec: 0 },
  {
    kind: 'compressed',
    sec: 12,
    nanosec: 34,
    frame_id: 'cam',
    format: 'jpeg',
    data: pixels(1001, 3).toString('base64'),
  },
  {
    kind: 'compressed',
    sec: 0,
    nanosec: 999_999_999,
    frame_id: '',
    format: 'rgb8; jpeg compressed bgr8',
    data: pixels(5, 9).toString('base64'),
  },
];

describe('CDR image codec against rclpy serialization', function () {
  let serialized: Buffer[];

  before(function () {
    serialized = runPythonJson<string[]>(SERDE, { mode: 'serialize', cases: CASES }).map((b) =>
      Buffer.from(b, 'base64'),
    );
  });

  it('decodes every message rclpy serialized, field for field, with pixels as views', function () {
    CASES.forEach((c, i) => {
      const bytes = serialized[i]!;
      if (c.kind === 'image') {
        const f = decodeImage(bytes);
        assert.equal(f.header.stamp.sec, c.sec);
        assert.equal(f.header.stamp.nanosec, c.nanosec);
        assert.equal(f.header.frameId, c.frame_id);
        assert.equal(f.width, c.width);
        assert.equal(f.height, c.height);
        assert.equal(f.encodingName, c.encoding);
        assert.equal(f.step, c.step);
        assert.ok(Buffer.from(f.data).equals(Buffer.from(c.data, 'base64')), `pixels of case ${i}`);
        // Zero-copy: the pixel array shares memory with the received message.
        assert.equal(f.data.buffer, bytes.buffer);
      } else {
        const f = decodeCompressedImage(bytes);
        assert.equal(f.header.frameId, c.frame_id);
        assert.equal(f.header.stamp.nanosec, c.nanosec);
        assert.equal(f.format, c.format);
        assert.ok(Buffer.from(f.data).equals(Buffer.from(c.data, 'base64')));
        assert.equal(f.data.buffer, bytes.buffer);
      }
    });
  });

  it('encodes byte for byte what rclpy serializes', function () {
    CASES.forEach((c, i) => {
      const header = { stamp: { sec: c.sec, nanosec: c.nanosec }, frameId: c.frame_id };
      const data = Buffer.from(c.data, 'base64');
      const ours =
        c.kind === 'image'
          ? encodeImage({
              header,
              height: c.height,
              width: c.width,
              encoding: c.encoding,
              step: c.step,
              data,
            })
          : encodeCompressedImage({ header, format: c.format, data });
      assert.equal(ours.length, serialized[i]!.length, `case ${i} length`);
      assert.ok(
        ours.equals(withPaddingZeroed(c, serialized[i]!)),
        `case ${i} (${c.kind} ${c.frame_id}) differs`,
      );
    });
  });

  it('produces messages rclpy deserializes to the same fields (mono16 output included)', function () {
    const header = { stamp: { sec: 7, nanosec: 8 }, frameId: 'map' };
    const labels = pixels(2 * 3 * 2, 1);
    const ours = [
      encodeImage({ header, height: 2, width: 3, encoding: 'mono16', step: 6, data: labels }),
      encodeCompressedImage({ header, format: 'jpeg', data: pixels(17, 2) }),
    ];
    const back = runPythonJson<Case[]>(SERDE, {
      mode: 'deserialize',
      cases: [
        { kind: 'image', bytes: ours[0]!.toString('base64') },
        { kind: 'compressed', bytes: ours[1]!.toString('base64') },
      ],
    });
    const img = back[0] as ImageCase;
    assert.equal(img.encoding, 'mono16');
    assert.equal(img.width, 3);
    assert.equal(img.step, 6);
    assert.equal(img.frame_id, 'map');
    assert.ok(Buffer.from(img.data, 'base64').equals(labels));
    const jpg = back[1] as CompressedCase;
    assert.equal(jpg.format, 'jpeg');
    assert.equal(jpg.sec, 7);
    assert.ok(Buffer.from(jpg.data, 'base64').equals(pixels(17, 2)));
  });
});
