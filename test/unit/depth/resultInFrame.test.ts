import { strict as assert } from 'node:assert';
import type { SpatialResult } from '../../../src/depth/placeResult';
import { resultInFrame } from '../../../src/depth/resultInFrame';
import type { RigidTransform } from '../../../src/transforms/rigidTransform';

/** A camera 0.3 m ahead of base_link and 0.5 m up, its optical frame (z forward, x right, y down). */
const FRONT_OPTICAL_IN_BASE: RigidTransform = {
  translation: { x: 0.3, y: 0, z: 0.5 },
  rotation: { x: -0.5, y: 0.5, z: -0.5, w: 0.5 },
};

const box = { x1: 0, y1: 0, x2: 10, y2: 10 };

describe('resultInFrame', () => {
  it('moves box centres and placed keypoints into the target frame, keeps sizes and unplaced keypoints', () => {
    const r: SpatialResult = {
      withoutDepth: 2,
      detections: [
        {
          detection: { box, classId: 0, score: 0.9 },
          index: 0,
          centre: [0.5, -0.2, 2],
          size: [0.6, 1.7, 0.3],
        },
      ],
      poses: [
        {
          pose: { box, classId: 0, score: 0.9, keypoints: [] },
          index: 0,
          keypoints: [
            { position: [0, 0, 2], score: 0.9, valid: true },
            { position: [0, 0, 0], score: 0.1, valid: false },
          ],
        },
      ],
    };
    const moved = resultInFrame(r, FRONT_OPTICAL_IN_BASE);
    assert.equal(moved.withoutDepth, 2);
    const d = moved.detections[0]!;
    // 2 m ahead, 0.5 m to the image's right (the robot's -y), 0.2 m above the optical axis.
    const [x, y, z] = d.centre;
    assert.ok(Math.abs(x - 2.3) < 1e-12 && Math.abs(y + 0.5) < 1e-12 && Math.abs(z - 0.7) < 1e-12);
    assert.deepEqual(d.size, [0.6, 1.7, 0.3]);
    assert.deepEqual(d.orientation, FRONT_OPTICAL_IN_BASE.rotation);
    const [k0, k1] = moved.poses[0]!.keypoints;
    assert.ok(Math.abs(k0!.position[0] - 2.3) < 1e-12 && Math.abs(k0!.position[2] - 0.5) < 1e-12);
    assert.deepEqual(k1, r.poses[0]!.keypoints[1], 'an unplaced keypoint stays at the origin');
    // The input is left as it was (the 2D-frame result may be used again).
    assert.deepEqual(r.detections[0]!.centre, [0.5, -0.2, 2]);
  });
});
