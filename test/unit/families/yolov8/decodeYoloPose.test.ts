import { strict as assert } from 'node:assert';
import { decodeYoloPose } from '../../../../src/families/yolov8/decodeYoloPose';
import { letterboxTransform } from '../../../../src/heads/letterboxTransform';
import { f32, near, throwsHead, yoloOutput } from '../../heads/headTestUtils';

const LB = letterboxTransform(1280, 720, 640, 640); // scale 0.5, padY 140

describe('heads/decodeYoloPose', () => {
  it('decodes box, person score and K keypoints (K from dims) into source pixels', () => {
    // K = 2: channels 5 + 6 = 11
    const out = yoloOutput(
      'output0',
      [[320, 320, 100, 200, 0.9, 300, 240, 0.95, 340, 400, 0.2]],
      11,
    );
    const poses = decodeYoloPose(out, LB);
    assert.equal(poses.length, 1);
    const p = poses[0]!;
    assert.deepEqual(p.box, { x1: 540, y1: 160, x2: 740, y2: 560 });
    assert.equal(p.classId, 0);
    near(p.score, 0.9);
    assert.equal(p.keypoints.length, 2);
    near(p.keypoints[0]!.x, 600);
    near(p.keypoints[0]!.y, 200);
    near(p.keypoints[0]!.score, 0.95);
    near(p.keypoints[1]!.x, 680);
    near(p.keypoints[1]!.y, 520);
    near(p.keypoints[1]!.score, 0.2);
  });

  it('decodes the 17-keypoint COCO layout [1, 56, N] and clamps keypoints to the image', () => {
    const rowA = [320, 320, 100, 200, 0.8];
    for (let k = 0; k < 17; k++) rowA.push(k === 3 ? -100 : 300 + k, 300, 0.5);
    const rowB = [100, 300, 50, 50, 0.1, ...new Array(51).fill(0)];
    const poses = decodeYoloPose(yoloOutput('o', [rowA, rowB], 56), LB, { numKeypoints: 17 });
    assert.equal(poses.length, 1);
    assert.equal(poses[0]!.keypoints.length, 17);
    assert.equal(poses[0]!.keypoints[3]!.x, 0);
    near(poses[0]!.keypoints[16]!.x, (316 - 0) / 0.5);
  });

  it('supports two values per keypoint (score reported as 1), anchors-first and normalized coordinates', () => {
    const t = f32('o', [1, 1, 7], [0.5, 0.5, 0.25, 0.25, 0.7, 0.5, 0.25]);
    const [p] = decodeYoloPose(t, letterboxTransform(640, 640, 640, 640), {
      keypointDims: 2,
      anchorsFirst: true,
      coordinatesNormalized: true,
    });
    assert.deepEqual(p!.box, { x1: 240, y1: 240, x2: 400, y2: 400 });
    assert.deepEqual(p!.keypoints, [{ x: 320, y: 160, score: 1 }]);
  });

  it('applies NMS, thresholds and the detection cap; returns [] for empty and NaN outputs', () => {
    const row = (cx: number, s: number): number[] => [cx, 320, 100, 100, s, 0, 0, 0];
    const out = yoloOutput(
      'o',
      [row(300, 0.9), row(305, 0.8), row(500, 0.7), row(100, NaN), row(600, 0.2)],
      8,
    );
    assert.deepEqual(
      decodeYoloPose(out, LB).map((p) => Math.round(p.score * 10)),
      [9, 7],
    );
    assert.equal(decodeYoloPose(out, LB, { maxDetections: 1 }).length, 1);
    assert.deepEqual(decodeYoloPose(f32('o', [1, 56, 0]), LB), []);
  });

  it('rejects channel counts that are not 5 + 3K and a keypoint count that disagrees', () => {
    throwsHead(
      () => decodeYoloPose(f32('o', [1, 57, 2]), LB),
      'BAD_SHAPE',
      /57 channels are not 5 \+ K x 3/,
    );
    throwsHead(() => decodeYoloPose(f32('o', [1, 5, 2]), LB), 'BAD_SHAPE', /not 5 \+ K x 3/);
    throwsHead(
      () => decodeYoloPose(f32('o', [1, 56, 2]), LB, { numKeypoints: 14 }),
      'BAD_SHAPE',
      /holds 17 keypoints but the model declares 14/,
    );
  });
});
