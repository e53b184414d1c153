import { strict as assert } from 'node:assert';
import * as fc from 'fast-check';
import {
  decodeCameraInfo,
  decodeDepthImage,
  type CameraInfoFrame,
  type DepthFrame,
} from '../../../../src/ros/codecs/depthCodecs';
import { CameraModel, CameraModelError } from '../../../../src/depth/cameraModel';
import { FUZZ_SIDE_RUNS, propertyCheck } from '../../../support/propertyCheck';
import { checkHostileOutcome } from '../../../support/decodeOutcome';
import {
  DEPTH_BYTES,
  encoded,
  hostileBytes,
  representation,
  validCameraInfo,
  validDepthImage,
  writeCameraInfo,
  writeImage,
  type TestImage,
} from '../../../support/rosMessageArbitraries';

const DEPTH_FIELDS = [
  'height',
  'width',
  'encoding',
  'is_bigendian',
  'step',
  'data',
  'depth image',
  'depth step',
  'depth data',
];
const CAMERA_INFO_FIELDS = [
  'before d:',
  'd: needs',
  'height',
  'width',
  'distortion_model',
  'd.length',
  'CameraInfo.d',
  'k',
  'r, p',
  'binning',
  'roi',
];

/** Depth in metres read straight from the test message's bytes (REP-118), NaN where none. */
function expectedMetres(m: TestImage, x: number, y: number): number {
  const view = new DataView(m.data.buffer, m.data.byteOffset, m.data.byteLength);
  const little = m.isBigEndian === 0;
  if (DEPTH_BYTES[m.encoding.toLowerCase()] === 2) {
    const mm = view.getUint16(y * m.step + x * 2, little);
    return mm === 0 ? NaN : mm / 1000;
  }
  const v = view.getFloat32(y * m.step + x * 4, little);
  return v > 0 && Number.isFinite(v) ? v : NaN;
}

/** Every pixel of a decoded depth image reads inside the message: a RangeError fails it. */
function acceptDepth(f: DepthFrame): void {
  const { width, height } = f.image;
  assert.ok(width >= 1 && width <= 16384 && height >= 1 && height <= 16384, `${width}x${height}`);
  for (const [x, y] of [
    [0, 0],
    [width - 1, 0],
    [0, height - 1],
    [width - 1, height - 1],
  ] as const) {
    const m = f.image.metresAt(x, y);
    assert.ok(Number.isNaN(m) || (m > 0 && Number.isFinite(m)), `depth ${m} at ${x},${y}`);
  }
}

/** A decoded CameraInfo either makes a camera or is refused with CameraModelError, nothing else. */
function acceptCameraInfo(f: CameraInfoFrame): void {
  assert.equal(f.info.k.length, 9);
  assert.ok(f.info.d.length <= 64);
  let camera: CameraModel;
  try {
    camera = CameraModel.fromCameraInfo(f.info);
  } catch (e) {
    assert.ok(e instanceof CameraModelError, `fromCameraInfo threw ${String(e)}`);
    return;
  }
  const [x, y] = camera.pixelToRay(0, 0);
  assert.equal(typeof x, 'number');
  assert.equal(typeof y, 'number');
}

describe('depth Image and CameraInfo decoders: properties (fast-check)', function () {
  it('decode every valid 16UC1 / 32FC1 image in every CDR representation, every pixel as written', function () {
    propertyCheck(
      fc.property(encoded(validDepthImage, writeImage), ({ message: m, bytes }) => {
        const f = decodeDepthImage(bytes);
        assert.deepEqual(f.header, {
          stamp: { sec: m.header.sec, nanosec: m.header.nanosec },
          frameId: m.header.frameId,
        });
        assert.equal(f.image.width, m.width);
        assert.equal(f.image.height, m.height);
        for (let y = 0; y < m.height; y++) {
          for (let x = 0; x < m.width; x++) {
            const got = f.image.metresAt(x, y);
            const want = expectedMetres(m, x, y);
            assert.ok(Object.is(got, want), `(${x}, ${y}): ${got} != ${want}`);
          }
        }
      }),
      FUZZ_SIDE_RUNS,
    );
  });

  it('refuse hostile depth bytes with a FrameError naming the field, or read them in bounds', function () {
    propertyCheck(
      fc.property(hostileBytes(encoded(validDepthImage, writeImage)), (h) =>
        checkHostileOutcome(h, decodeDepthImage, DEPTH_FIELDS, acceptDepth),
      ),
    );
  });

  it("refuse a depth image with one wrong field with that field's code", function () {
    const wrong = fc.oneof(
      fc
        .tuple(
          validDepthImage,
          fc.constantFrom(
            'rgb8',
            'mono8',
            '16SC1',
            '32FC3',
            '64FC1',
            '',
            '__proto__',
            'constructor',
          ),
        )
        .map(([m, encoding]) => ({
          kind: 'not a depth encoding',
          m: { ...m, encoding },
          expect: 'UNKNOWN_ENCODING' as const,
        })),
      fc.tuple(validDepthImage, fc.boolean()).map(([m, w]) => ({
        kind: 'zero size',
        m: w ? { ...m, width: 0 } : { ...m, height: 0 },
        expect: 'ZERO_SIZE' as const,
      })),
      fc
        .tuple(validDepthImage, fc.boolean(), fc.integer({ min: 16385, max: 0xffffffff }))
        .map(([m, w, big]) => ({
          kind: 'a side over 16384',
          m: w ? { ...m, width: big } : { ...m, height: big },
          expect: 'TOO_LARGE' as const,
        })),
      validDepthImage.chain((m) =>
        fc.nat(m.width * DEPTH_BYTES[m.encoding.toLowerCase()]! - 1).map((step) => ({
          kind: 'step below width x bytes per pixel',
          m: { ...m, step },
          expect: 'BAD_GEOMETRY' as const,
        })),
      ),
      validDepthImage.chain((m) =>
        fc
          .nat(m.step * (m.height - 1) + m.width * DEPTH_BYTES[m.encoding.toLowerCase()]! - 1)
          .map((n) => ({
            kind: 'data shorter than the last pixel',
            m: { ...m, data: m.data.subarray(0, n) },
            expect: 'BAD_GEOMETRY' as const,
          })),
      ),
    );
    propertyCheck(
      fc.property(wrong, representation, ({ kind, m, expect }, rep) =>
        checkHostileOutcome(
          { kind, bytes: writeImage(rep, m), expect },
          decodeDepthImage,
          DEPTH_FIELDS,
          acceptDepth,
        ),
      ),
      FUZZ_SIDE_RUNS,
    );
  });

  it('decode every valid CameraInfo in every CDR representation to the values written', function () {
    propertyCheck(
      fc.property(encoded(validCameraInfo, writeCameraInfo), ({ message: m, bytes }) => {
        const f = decodeCameraInfo(bytes);
        assert.deepEqual(f.header, {
          stamp: { sec: m.header.sec, nanosec: m.header.nanosec },
          frameId: m.header.frameId,
        });
        assert.deepEqual(f.info, {
          width: m.width,
          height: m.height,
          distortionModel: m.distortionModel,
          d: m.d,
          k: m.k,
        });
        acceptCameraInfo(f);
      }),
      FUZZ_SIDE_RUNS,
    );
  });

  it('refuse hostile CameraInfo bytes with a FrameError naming the field, or make a camera or a CameraModelError', function () {
    propertyCheck(
      fc.property(hostileBytes(encoded(validCameraInfo, writeCameraInfo)), (h) =>
        checkHostileOutcome(h, decodeCameraInfo, CAMERA_INFO_FIELDS, acceptCameraInfo),
      ),
    );
  });

  it('refuse a CameraInfo with more than 64 distortion coefficients (TOO_LARGE)', function () {
    propertyCheck(
      fc.property(
        validCameraInfo,
        representation,
        fc.integer({ min: 65, max: 0xffffffff }),
        (m, rep, n) => {
          const bytes = writeCameraInfo(rep, m, n);
          checkHostileOutcome(
            { kind: 'd too long', bytes, expect: 'TOO_LARGE' },
            decodeCameraInfo,
            CAMERA_INFO_FIELDS,
            acceptCameraInfo,
          );
        },
      ),
      1_000,
    );
  });
});
