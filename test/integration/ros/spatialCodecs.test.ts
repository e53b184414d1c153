import { strict as assert } from 'node:assert';
import { decodeCameraInfo, decodeDepthImage } from '../../../src/ros/codecs/depthCodecs';
import { FrameError } from '../../../src/ros/frameError';
import {
  encodeDetection3DArray,
  encodePersonPose3DArray,
} from '../../../src/ros/codecs/spatialCodec';
import { detection3DArray, personPose3DArray } from '../../../src/ros/spatialMessages';
import { repoPath } from '../../support/paths';
import { runPythonJson } from '../../support/python';

const SERDE = repoPath('test', 'fixtures', 'ros', 'spatial_serde.py');

interface Reply {
  decoded: { fields: Record<string, unknown>; reserialized: string }[];
  encoded: string[];
}

const header = { stamp: { sec: 1_763_900_000, nanosec: 987_654_321 }, frameId: 'cam_optical' };
const person = (x1: number, score: number, trackId?: number) => ({
  box: { x1, y1: 40, x2: x1 + 100, y2: 340 },
  classId: 0,
  score,
  ...(trackId !== undefined ? { trackId } : {}),
  keypoints: [
    { x: x1 + 10, y: 60, score: 0.9 },
    { x: x1 + 20, y: 70, score: 0.2 },
    { x: x1 + 30, y: 80, score: 0.7 },
  ],
});

// rclpy (rmw's own type support) reads what we publish: every field, and the same length as its
// own serialization of the message.
describe('3D result CDR and depth / CameraInfo decoding against rclpy', function () {
  it('Detection3DArray and PersonPose3DArray read back as built', function () {
    const det = detection3DArray(header, [
      { detection: person(10, 0.875, 7), index: 0, centre: [-0.5, 0.25, 2], size: [0.4, 1.2, 0.3] },
      {
        detection: { ...person(300, 0.5), classId: 3 },
        index: 1,
        centre: [0.1, -0.2, 3.5],
        size: [1, 2, 0],
      },
    ]);
    const poses = personPose3DArray(
      header,
      [
        {
          pose: person(10, 0.875, 7),
          index: 0,
          keypoints: [
            { position: [0.1, 0.2, 2], score: 0.9, valid: true },
            { position: [0, 0, 0], score: 0.2, valid: false },
            { position: [-0.3, 0.4, 2.25], score: 0.7, valid: true },
          ],
        },
      ],
      'coco17',
    );
    const empty = detection3DArray({ ...header, frameId: 'x' }, []);
    const bytes = [
      encodeDetection3DArray(det),
      encodePersonPose3DArray(poses),
      encodeDetection3DArray(empty),
    ];
    const r = runPythonJson<Reply>(SERDE, {
      decode: [
        { type: 'detections_3d', b64: bytes[0]!.toString('base64') },
        { type: 'poses_3d', b64: bytes[1]!.toString('base64') },
        { type: 'detections_3d', b64: bytes[2]!.toString('base64') },
      ],
    });
    const h = { stamp: header.stamp, frame_id: 'cam_optical' };
    assert.deepEqual(r.decoded[0]!.fields, {
      header: h,
      detections: [
        {
          header: h,
          id: '7',
          results: [{ class_id: '0', score: 0.875 }],
          center: [-0.5, 0.25, 2],
          orientation: [0, 0, 0, 1],
          size: [0.4, 1.2, 0.3],
        },
        {
          header: h,
          id: '2',
          results: [{ class_id: '3', score: 0.5 }],
          center: [0.1, -0.2, 3.5],
          orientation: [0, 0, 0, 1],
          size: [1, 2, 0],
        },
      ],
    });
    const p = (r.decoded[1]!.fields as { poses: { keypoints: unknown[][] }[] }).poses[0]!;
    assert.deepEqual(
      { ...p, keypoints: undefined },
      {
        id: '7',
        results: [{ class_id: '0', score: 0.875 }],
        skeleton: 'coco17',
        box: [60, 190, 100, 300],
        keypoints: undefined,
      },
    );
    assert.deepEqual(
      p.keypoints.map((k) => [k[0], k[1], k[2], Math.round((k[3] as number) * 1e6) / 1e6, k[4]]),
      [
        [0.1, 0.2, 2, 0.9, true],
        [0, 0, 0, 0.2, false],
        [-0.3, 0.4, 2.25, 0.7, true],
      ],
    );
    bytes.forEach((b, i) =>
      assert.equal(
        b.length,
        Buffer.from(r.decoded[i]!.reserialized, 'base64').length,
        `message ${i}`,
      ),
    );
  });

  it("decodes rclpy's depth images (both encodings, byte orders, row padding) and CameraInfo", function () {
    const u16 = Buffer.alloc(8 * 2);
    u16.writeUInt16BE(2000, 0);
    u16.writeUInt16BE(1234, 8 + 2);
    const f32 = Buffer.alloc(12);
    f32.writeFloatLE(1.5, 0);
    f32.writeFloatLE(NaN, 4);
    const stamp = { frame_id: 'depth_optical', sec: 5, nanosec: 6 };
    const r = runPythonJson<Reply>(SERDE, {
      encode: [
        {
          type: 'depth',
          encoding: '16UC1',
          width: 3,
          height: 2,
          step: 8,
          big: true,
          data_b64: u16.toString('base64'),
          ...stamp,
        },
        {
          type: 'depth',
          encoding: '32FC1',
          width: 3,
          height: 1,
          step: 12,
          big: false,
          data_b64: f32.toString('base64'),
          ...stamp,
        },
        {
          type: 'depth',
          encoding: 'rgb8',
          width: 1,
          height: 1,
          step: 3,
          big: false,
          data_b64: 'AAAA',
          ...stamp,
        },
        {
          type: 'camera_info',
          width: 640,
          height: 480,
          model: 'plumb_bob',
          d: [0.1, -0.2, 0, 0, 0.01],
          k: [500, 0, 320, 0, 501, 240, 0, 0, 1],
          ...stamp,
        },
      ],
    });
    const [a, b, c, info] = r.encoded.map((s) => Buffer.from(s, 'base64'));
    const da = decodeDepthImage(a!);
    assert.deepEqual(da.header, { stamp: { sec: 5, nanosec: 6 }, frameId: 'depth_optical' });
    assert.equal(da.image.metresAt(0, 0), 2);
    assert.equal(da.image.metresAt(1, 1), 1.234);
    const db = decodeDepthImage(b!);
    assert.equal(db.image.metresAt(0, 0), 1.5);
    assert.ok(Number.isNaN(db.image.metresAt(1, 0)));
    assert.throws(
      () => decodeDepthImage(c!),
      (e: unknown) => e instanceof FrameError && e.code === 'UNKNOWN_ENCODING',
    );
    const ci = decodeCameraInfo(info!);
    assert.deepEqual(ci.info, {
      width: 640,
      height: 480,
      distortionModel: 'plumb_bob',
      d: [0.1, -0.2, 0, 0, 0.01],
      k: [500, 0, 320, 0, 501, 240, 0, 0, 1],
    });
    // Truncated input: a typed error, never a read out of range.
    for (const cut of [3, 20, info!.length - 40]) {
      assert.throws(() => decodeCameraInfo(info!.subarray(0, cut)), FrameError);
    }
    assert.throws(() => decodeDepthImage(a!.subarray(0, a!.length - 3)), FrameError);
  });
});
