/**
 * The messages we publish as our own CDR (detections, poses, 3D results, diagnostics) have no
 * decoder of ours: their property is the round trip through a test-side reader. Any message is
 * written whole (the size estimated up front holds: a short buffer would throw RangeError or
 * truncate a string), field for field, with nothing after it.
 */
import { strict as assert } from 'node:assert';
import * as fc from 'fast-check';
import { encodeDetection2DArray } from '../../../../src/ros/codecs/detectionArrayCodec';
import { encodePersonPoseArray } from '../../../../src/ros/codecs/poseArrayCodec';
import {
  encodeDetection3DArray,
  encodePersonPose3DArray,
} from '../../../../src/ros/codecs/spatialCodec';
import {
  encodeDiagnosticArray,
  type DiagnosticStatusFields,
} from '../../../../src/ros/codecs/diagnosticArrayCodec';
import type { Detection2DArrayMsg, PersonPoseArrayMsg } from '../../../../src/ros/visionMessages';
import type {
  Detection3DArrayMsg,
  PersonPose3DArrayMsg,
} from '../../../../src/ros/spatialMessages';
import { propertyCheck } from '../../../support/propertyCheck';
import { CdrTestReader } from '../../../support/cdrTestReader';
import { header as testHeader, rosString } from '../../../support/rosMessageArbitraries';

type Header = Detection2DArrayMsg['header'];
type Detection2D = Detection2DArrayMsg['detections'][number];
type Hypothesis = Detection2D['results'][number];

const double = fc.double();
const float32 = fc.float();
const header: fc.Arbitrary<Header> = testHeader.map((h) => ({
  stamp: { sec: h.sec, nanosec: h.nanosec },
  frame_id: h.frameId,
}));
const point = fc.record({ x: double, y: double, z: double });
const pose = fc.record({
  position: point,
  orientation: fc.record({ x: double, y: double, z: double, w: double }),
});
const hypothesis: fc.Arbitrary<Hypothesis> = fc.record({
  hypothesis: fc.record({ class_id: rosString, score: double }),
  pose: fc.record({ pose, covariance: fc.array(double, { minLength: 36, maxLength: 36 }) }),
}) as fc.Arbitrary<Hypothesis>;
const detection2D: fc.Arbitrary<Detection2D> = fc.record({
  header,
  results: fc.array(hypothesis, { maxLength: 3 }),
  bbox: fc.record({
    center: fc.record({ position: fc.record({ x: double, y: double }), theta: double }),
    size_x: double,
    size_y: double,
  }),
  id: rosString,
});

// ---- test-side readers, field order as the message definitions -----------------------------

function readHeader(r: CdrTestReader): Header {
  const sec = r.int32();
  const nanosec = r.uint32();
  return { stamp: { sec, nanosec }, frame_id: r.string() };
}

const readPose = (r: CdrTestReader) => ({
  position: { x: r.float64(), y: r.float64(), z: r.float64() },
  orientation: { x: r.float64(), y: r.float64(), z: r.float64(), w: r.float64() },
});

function readResults(r: CdrTestReader): Hypothesis[] {
  return Array.from({ length: r.uint32() }, () => {
    const h = { class_id: r.string(), score: r.float64() };
    const p = readPose(r);
    const covariance = Array.from({ length: 36 }, () => r.float64());
    return { hypothesis: h, pose: { pose: p, covariance } } as Hypothesis;
  });
}

function readDetection2D(r: CdrTestReader): Detection2D {
  const h = readHeader(r);
  const results = readResults(r);
  const center = { position: { x: r.float64(), y: r.float64() }, theta: r.float64() };
  const bbox = { center, size_x: r.float64(), size_y: r.float64() };
  return { header: h, results, bbox, id: r.string() } as Detection2D;
}

function whole<T>(bytes: Uint8Array, read: (r: CdrTestReader) => T): T {
  const r = new CdrTestReader(bytes);
  const v = read(r);
  assert.ok(r.remaining <= 3, `${r.remaining} bytes after the message`);
  return v;
}

/** Deep equality with doubles compared by Object.is (NaN, -0) and arrays of any kind alike. */
function plain(v: unknown): unknown {
  if (ArrayBuffer.isView(v)) return Array.from(v as Float64Array);
  if (Array.isArray(v)) return v.map(plain);
  if (v && typeof v === 'object')
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]));
  return v;
}

/**
 * Cases per encoder: a message of a few detections is ~1 ms to generate, write, read and compare,
 * and these are our outputs, not hostile inputs: 500 each keeps the suite short.
 */
const ROUND_TRIPS = 500;

describe('message encoders: round-trip properties (fast-check)', function () {
  it('Detection2DArray', function () {
    propertyCheck(
      fc.property(
        fc.record({ header, detections: fc.array(detection2D, { maxLength: 4 }) }),
        (m) => {
          const got = whole(encodeDetection2DArray(m as Detection2DArrayMsg), (r) => ({
            header: readHeader(r),
            detections: Array.from({ length: r.uint32() }, () => readDetection2D(r)),
          }));
          assert.deepStrictEqual(plain(got), plain(m));
        },
      ),
      ROUND_TRIPS,
    );
  });

  it('PersonPoseArray (float32 keypoints)', function () {
    const keypoint = fc.record({ x: float32, y: float32, score: float32 });
    const poseMsg = fc.record({
      detection: detection2D,
      skeleton: rosString,
      keypoints: fc.array(keypoint, { maxLength: 20 }),
    });
    propertyCheck(
      fc.property(fc.record({ header, poses: fc.array(poseMsg, { maxLength: 3 }) }), (m) => {
        const got = whole(encodePersonPoseArray(m as unknown as PersonPoseArrayMsg), (r) => ({
          header: readHeader(r),
          poses: Array.from({ length: r.uint32() }, () => ({
            detection: readDetection2D(r),
            skeleton: r.string(),
            keypoints: Array.from({ length: r.uint32() }, () => ({
              x: r.float32(),
              y: r.float32(),
              score: r.float32(),
            })),
          })),
        }));
        assert.deepStrictEqual(plain(got), plain(m));
      }),
      ROUND_TRIPS,
    );
  });

  it('Detection3DArray', function () {
    const detection3D = fc.record({
      header,
      results: fc.array(hypothesis, { maxLength: 3 }),
      bbox: fc.record({ center: pose, size: point }),
      id: rosString,
    });
    propertyCheck(
      fc.property(
        fc.record({ header, detections: fc.array(detection3D, { maxLength: 4 }) }),
        (m) => {
          const got = whole(encodeDetection3DArray(m as unknown as Detection3DArrayMsg), (r) => ({
            header: readHeader(r),
            detections: Array.from({ length: r.uint32() }, () => ({
              header: readHeader(r),
              results: readResults(r),
              bbox: {
                center: readPose(r),
                size: { x: r.float64(), y: r.float64(), z: r.float64() },
              },
              id: r.string(),
            })),
          }));
          assert.deepStrictEqual(plain(got), plain(m));
        },
      ),
      ROUND_TRIPS,
    );
  });

  it('PersonPose3DArray (Point, float32 score, bool valid)', function () {
    const keypoint = fc.record({ position: point, score: float32, valid: fc.boolean() });
    const poseMsg = fc.record({
      detection: detection2D,
      skeleton: rosString,
      keypoints: fc.array(keypoint, { maxLength: 20 }),
    });
    propertyCheck(
      fc.property(fc.record({ header, poses: fc.array(poseMsg, { maxLength: 3 }) }), (m) => {
        const got = whole(encodePersonPose3DArray(m as unknown as PersonPose3DArrayMsg), (r) => ({
          header: readHeader(r),
          poses: Array.from({ length: r.uint32() }, () => ({
            detection: readDetection2D(r),
            skeleton: r.string(),
            keypoints: Array.from({ length: r.uint32() }, () => ({
              position: { x: r.float64(), y: r.float64(), z: r.float64() },
              score: r.float32(),
              valid: r.uint8() !== 0,
            })),
          })),
        }));
        assert.deepStrictEqual(plain(got), plain(m));
      }),
      ROUND_TRIPS,
    );
  });

  it('DiagnosticArray', function () {
    const status: fc.Arbitrary<DiagnosticStatusFields> = fc.record({
      level: fc.integer({ min: 0, max: 255 }),
      name: rosString,
      message: rosString,
      hardwareId: rosString,
      values: fc.array(fc.tuple(rosString, rosString), { maxLength: 6 }),
    });
    propertyCheck(
      fc.property(testHeader, fc.array(status, { maxLength: 4 }), (h, s) => {
        const bytes = encodeDiagnosticArray(
          { stamp: { sec: h.sec, nanosec: h.nanosec }, frameId: h.frameId },
          s,
        );
        const got = whole(bytes, (r) => ({
          header: readHeader(r),
          status: Array.from({ length: r.uint32() }, () => ({
            level: r.uint8(),
            name: r.string(),
            message: r.string(),
            hardwareId: r.string(),
            values: Array.from({ length: r.uint32() }, () => [r.string(), r.string()]),
          })),
        }));
        assert.deepStrictEqual(
          plain(got),
          plain({
            header: { stamp: { sec: h.sec, nanosec: h.nanosec }, frame_id: h.frameId },
            status: s,
          }),
        );
      }),
      ROUND_TRIPS,
    );
  });

  it('a covariance that is not 36 values is a RangeError naming it', function () {
    propertyCheck(
      fc.property(
        header,
        hypothesis,
        fc.array(double, { maxLength: 40 }).filter((c) => c.length !== 36),
        (h, hyp, covariance) => {
          const d = {
            header: h,
            results: [{ ...hyp, pose: { ...hyp.pose, covariance } }],
            bbox: { center: { position: { x: 0, y: 0 }, theta: 0 }, size_x: 1, size_y: 1 },
            id: '',
          };
          assert.throws(
            () =>
              encodeDetection2DArray({
                header: h,
                detections: [d],
              } as unknown as Detection2DArrayMsg),
            {
              name: 'RangeError',
              message: `pose covariance has ${covariance.length} values, vision_msgs needs 36`,
            },
          );
        },
      ),
      1_000,
    );
  });
});
