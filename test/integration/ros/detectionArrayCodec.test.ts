import { strict as assert } from 'node:assert';
import { encodeDetection2DArray } from '../../../src/ros/codecs/detectionArrayCodec';
import { detection2DArray, Detection2DArrayMsg } from '../../../src/ros/visionMessages';
import { repoPath } from '../../support/paths';
import { runPythonJson } from '../../support/python';

const SERDE = repoPath('test', 'fixtures', 'ros', 'detections_serde.py');

interface Readback {
  fields: {
    header: Detection2DArrayMsg['header'];
    detections: {
      header: Detection2DArrayMsg['header'];
      id: string;
      bbox: Detection2DArrayMsg['detections'][number]['bbox'];
      results: {
        hypothesis: { class_id: string; score: number };
        position: number[];
        orientation: number[];
        covariance: number[];
      }[];
    }[];
  };
  reserialized: string;
}

const header = (frameId: string) => ({
  stamp: { sec: 1_763_900_000, nanosec: 123_456_789 },
  frameId,
});

// rclpy (rmw's own type support) is the reference: the bytes we publish must read back as the
// message we built, laid out as rmw lays out that message.
describe('encodeDetection2DArray (our CDR) against rclpy', function () {
  const cases: [string, Detection2DArrayMsg][] = [
    ['no detections', detection2DArray(header('camera'), [])],
    [
      'detections, odd-length strings (alignment before the doubles)',
      detection2DArray(header('cam_optical_frame'), [
        { box: { x1: 10.5, y1: 20.25, x2: 110, y2: 220 }, classId: 0, score: 0.875 },
        { box: { x1: 0, y1: 0, x2: 639, y2: 479 }, classId: 12, score: 0.25 },
        { box: { x1: 1, y1: 2, x2: 3, y2: 4 }, classId: 3, score: 1 },
      ]),
    ],
    [
      'empty frame_id',
      detection2DArray(header(''), [
        { box: { x1: 1, y1: 2, x2: 5, y2: 9 }, classId: 7, score: 0.5 },
      ]),
    ],
  ];

  it('reads back as the messages built, in the length rmw writes', function () {
    const bytes = cases.map(([, m]) => encodeDetection2DArray(m));
    const back = runPythonJson<Readback[]>(
      SERDE,
      bytes.map((b) => b.toString('base64')),
    );
    cases.forEach(([name, msg], k) => {
      const f = back[k]!.fields;
      assert.deepEqual(f.header, msg.header, name);
      assert.equal(f.detections.length, msg.detections.length, name);
      msg.detections.forEach((d, i) => {
        const b = f.detections[i]!;
        assert.deepEqual(b.header, d.header, name);
        assert.equal(b.id, d.id, name);
        assert.deepEqual(b.bbox, d.bbox, name);
        assert.equal(b.results.length, 1, name);
        assert.deepEqual(b.results[0]!.hypothesis, d.results[0]!.hypothesis, name);
        assert.deepEqual(b.results[0]!.position, [0, 0, 0], name);
        assert.deepEqual(b.results[0]!.orientation, [0, 0, 0, 1], name);
        assert.deepEqual(b.results[0]!.covariance, new Array(36).fill(0), name);
      });
      // Same layout: same length (rmw leaves its alignment padding unwritten, so those bytes
      // differ; every field was compared above).
      assert.equal(bytes[k]!.length, Buffer.from(back[k]!.reserialized, 'base64').length, name);
    });
  });

  it('refuses a covariance that is not 6x6', function () {
    const msg = detection2DArray(header('c'), [
      { box: { x1: 0, y1: 0, x2: 1, y2: 1 }, classId: 0, score: 1 },
    ]);
    msg.detections[0]!.results[0]!.pose.covariance = new Float64Array(35);
    assert.throws(() => encodeDetection2DArray(msg), { name: 'RangeError', message: /35 values/ });
  });
});
