import { strict as assert } from 'node:assert';
import { loadRclnodejs } from '../../../src/ros/rosEnvironment';
import { runPythonJson } from '../../support/python';
import { repoPath } from '../../support/paths';

interface Decoded {
  det_frame: string;
  det_stamp: [number, number];
  detections: { id: string; center: number[]; size: number[]; results: [string, number][] }[];
  pose_frame: string;
  poses: { detection: { id: string }; skeleton: string; keypoints: number[][] }[];
  coco17_right_ankle: number;
}

type MessageClass = new (init: object) => object;

describe('rclnodejs bindings for vision_msgs and htp_perception messages', function () {
  it('serializes Detection2DArray and PersonPoseArray that rclpy reads back field for field', function () {
    const rcl = loadRclnodejs();
    const header = { stamp: { sec: 1700000000, nanosec: 5 }, frame_id: 'camera_optical_frame' };
    const detection = {
      header,
      id: '1',
      bbox: { center: { position: { x: 320.5, y: 240.25 }, theta: 0 }, size_x: 100, size_y: 200 },
      results: [{ hypothesis: { class_id: '0', score: 0.875 }, pose: {} }],
    };
    const DetArray = rcl.require('vision_msgs/msg/Detection2DArray') as unknown as MessageClass;
    const detections = rcl.serializeMessage(
      new DetArray({ header, detections: [detection] }),
      DetArray as never,
    );
    const keypoints = Array.from({ length: 17 }, (_, i) => ({ x: i * 2, y: i * 3, score: i / 16 }));
    const PoseArray = rcl.require('htp_perception/msg/PersonPoseArray') as unknown as MessageClass;
    const poses = rcl.serializeMessage(
      new PoseArray({ header, poses: [{ detection, skeleton: 'coco17', keypoints }] }),
      PoseArray as never,
    );
    const back = runPythonJson<Decoded>(
      repoPath('test', 'fixtures', 'ros', 'deserialize_results.py'),
      {
        detections: detections.toString('base64'),
        poses: poses.toString('base64'),
      },
    );
    assert.equal(back.det_frame, 'camera_optical_frame');
    assert.deepEqual(back.det_stamp, [1700000000, 5]);
    assert.deepEqual(back.detections, [
      { id: '1', center: [320.5, 240.25, 0], size: [100, 200], results: [['0', 0.875]] },
    ]);
    assert.equal(back.poses.length, 1);
    assert.equal(back.poses[0]!.skeleton, 'coco17');
    assert.deepEqual(back.poses[0]!.keypoints[16], [32, 48, 1]);
    assert.equal(back.coco17_right_ankle, 16);
  });
});
