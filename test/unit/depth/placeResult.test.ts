import { strict as assert } from 'node:assert';
import { CameraModel } from '../../../src/depth/cameraModel';
import { placeResult } from '../../../src/depth/placeResult';
import type { PipelineResult } from '../../../src/core/pipelineResult';
import { renderDepth } from '../../support/syntheticDepth';
import { NO_TIMINGS } from '../../support/stageTimings';
import { COCO17 } from '../../../src/heads/cocoKeypoints';

const camera = CameraModel.fromCameraInfo({
  width: 640,
  height: 480,
  distortionModel: 'plumb_bob',
  d: [],
  k: [500, 0, 320, 0, 500, 240, 0, 0, 1],
});
const OPTIONS = { range: { min: 0.2, max: 10 }, keypointMinScore: 0.5 };

describe('depth/placeResult', function () {
  it('places detections with depth, leaves out and counts one over a hole', function () {
    // A hole (no depth) over the right third of the image.
    const depth = renderDepth(640, 480, '16UC1', (x) => (x >= 430 ? 0 : 2.5));
    const result: PipelineResult = {
      task: 'detect',
      timings: NO_TIMINGS,
      detections: [
        { box: { x1: 100, y1: 100, x2: 200, y2: 300 }, classId: 0, score: 0.9 },
        { box: { x1: 450, y1: 100, x2: 600, y2: 300 }, classId: 1, score: 0.8 },
      ],
    };
    const r = placeResult(result, 640, 480, depth, camera, OPTIONS);
    assert.equal(r.detections.length, 1);
    assert.equal(r.detections[0]!.index, 0);
    assert.equal(r.detections[0]!.centre[2], 2.5);
    assert.equal(r.withoutDepth, 1);
    assert.deepEqual(r.poses, []);
  });

  it('a camera calibrated at another size is used at the colour image size', function () {
    // CameraInfo for 1280x960, colour frames at 640x480: fx halves, the centre stays centred.
    const big = CameraModel.fromCameraInfo({
      width: 1280,
      height: 960,
      distortionModel: 'plumb_bob',
      d: [],
      k: [1000, 0, 639.5, 0, 1000, 479.5, 0, 0, 1],
    });
    const depth = renderDepth(640, 480, '16UC1', () => 2);
    const r = placeResult(
      {
        task: 'detect',
        timings: NO_TIMINGS,
        detections: [{ box: { x1: 370, y1: 240, x2: 470, y2: 340 }, classId: 0, score: 1 }],
      },
      640,
      480,
      depth,
      big,
      OPTIONS,
    );
    const [x, y] = r.detections[0]!.centre;
    assert.ok(Math.abs(x - ((420 - 319.5) * 2) / 500) < 1e-9, String(x));
    assert.ok(Math.abs(y - ((290 - 239.5) * 2) / 500) < 1e-9, String(y));
  });

  it('poses: the person box in space and every keypoint, the unseen ones marked', function () {
    const depth = renderDepth(640, 480, '32FC1', () => 1.8);
    const r = placeResult(
      {
        task: 'pose',
        skeleton: COCO17,
        timings: NO_TIMINGS,
        poses: [
          {
            box: { x1: 200, y1: 50, x2: 300, y2: 400 },
            classId: 0,
            score: 0.9,
            keypoints: [
              { x: 250, y: 80, score: 0.9 },
              { x: 260, y: 90, score: 0.1 },
            ],
          },
        ],
      },
      640,
      480,
      depth,
      camera,
      OPTIONS,
    );
    assert.equal(r.detections.length, 1);
    assert.equal(r.poses.length, 1);
    const [a, b] = r.poses[0]!.keypoints;
    assert.ok(a!.valid && Math.abs(a!.position[2] - 1.8) < 1e-6);
    assert.ok(Math.abs(a!.position[0] - ((250 - 320) * a!.position[2]) / 500) < 1e-6);
    assert.deepEqual([b!.valid, b!.position], [false, [0, 0, 0]]);
  });
});
