import { strict as assert } from 'node:assert';
import { encodePersonPoseArray } from '../../../src/ros/codecs/poseArrayCodec';
import { personPoseArray } from '../../../src/ros/visionMessages';
import { repoPath } from '../../support/paths';
import { runPythonJson } from '../../support/python';

const SERDE = repoPath('test', 'fixtures', 'ros', 'poses_serde.py');

interface Readback {
  fields: {
    header: { stamp: { sec: number; nanosec: number }; frame_id: string };
    poses: {
      id: string;
      class_id: string;
      score: number;
      box: number[];
      skeleton: string;
      keypoints: number[][];
    }[];
  };
  reserialized: string;
}

const header = { stamp: { sec: 1_763_900_001, nanosec: 5 }, frameId: 'cam' };
const person = (x: number, trackId?: number) => ({
  box: { x1: x, y1: 10, x2: x + 50, y2: 210 },
  classId: 0,
  score: 0.75,
  ...(trackId !== undefined ? { trackId } : {}),
  keypoints: Array.from({ length: 17 }, (_, k) => ({
    x: x + k * 0.5,
    y: 20 + k * 10,
    score: k / 16,
  })),
});

// rclpy is the reference: the bytes the pose pipelines publish read back as the message built.
describe('encodePersonPoseArray (our CDR) against rclpy', function () {
  it('reads back as built: ids, boxes, skeleton and every keypoint (float32)', function () {
    const cases = [
      personPoseArray(header, [], 'coco17'),
      personPoseArray(header, [person(100, 42), person(300)], 'coco17'),
      personPoseArray({ ...header, frameId: '' }, [person(0)], 'blazepose33'),
    ];
    const bytes = cases.map(encodePersonPoseArray);
    const back = runPythonJson<Readback[]>(
      SERDE,
      bytes.map((b) => b.toString('base64')),
    );
    cases.forEach((msg, i) => {
      const f = back[i]!.fields;
      assert.deepEqual(f.header, msg.header);
      assert.equal(f.poses.length, msg.poses.length);
      msg.poses.forEach((p, j) => {
        const b = f.poses[j]!;
        assert.equal(b.id, p.detection.id);
        assert.equal(b.class_id, '0');
        assert.equal(b.score, 0.75);
        const bb = p.detection.bbox;
        assert.deepEqual(b.box, [bb.center.position.x, bb.center.position.y, bb.size_x, bb.size_y]);
        assert.equal(b.skeleton, p.skeleton);
        assert.deepEqual(
          b.keypoints,
          p.keypoints.map((k) => [Math.fround(k.x), Math.fround(k.y), Math.fround(k.score)]),
        );
      });
      assert.equal(bytes[i]!.length, Buffer.from(back[i]!.reserialized, 'base64').length);
    });
    assert.equal(back[1]!.fields.poses[0]!.id, '42', 'the track id');
    assert.equal(back[1]!.fields.poses[1]!.id, '2', 'the position');
  });
});
