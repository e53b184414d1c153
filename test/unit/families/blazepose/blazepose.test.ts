import { strict as assert } from 'node:assert';
import { decodeBlazePoseLandmarks } from '../../../../src/families/blazepose/decodeBlazePoseLandmarks';
import { planHrnetCrop } from '../../../../src/heads/planHrnetCrop';
import { f32, near, throwsHead } from '../../heads/headTestUtils';

/** A [1, 195] landmark tensor: 39 landmarks of (x, y, z, visibility, presence). */
function landmarks(each: (i: number) => [number, number, number, number, number]): number[] {
  const v: number[] = [];
  for (let i = 0; i < 39; i++) v.push(...each(i));
  return v;
}

describe('decodeBlazePoseLandmarks', () => {
  // A person box in a 640x480 frame; the square x1.25 crop maps 256x256 input onto it.
  const plan = planHrnetCrop({ x1: 300, y1: 100, x2: 380, y2: 420 }, 640, 480, {
    inputWidth: 256,
    inputHeight: 256,
  });

  it('maps input pixels back through the crop and scores by sigmoid(visibility)', () => {
    const t = f32(
      'Identity',
      [1, 195],
      landmarks((i) => [8 * (i % 33), 4 + 6 * (i % 33), 0.1, i === 0 ? 0 : 2, -5]),
    );
    const r = decodeBlazePoseLandmarks(t, f32('Identity_1', [1, 1], [0.97]), plan.transform, 33);
    assert.equal(r.keypoints.length, 33);
    near(r.personScore, 0.97, 1e-6, 'person score');
    // The crop: 400 px square around (340, 260), so 400 / 256 source px per input px.
    const s = plan.width / 256;
    near(plan.width, 400, 1e-9, 'crop size');
    for (const i of [0, 5, 32]) {
      const k = r.keypoints[i]!;
      near(k.x, 340 - 200 + 8 * i * s, 1e-6, `x of ${i}`);
      near(k.y, 260 - 200 + (4 + 6 * i) * s, 1e-6, `y of ${i}`);
    }
    near(r.keypoints[0]!.score, 0.5, 1e-9, 'visibility logit 0');
    near(r.keypoints[1]!.score, 1 / (1 + Math.exp(-2)), 1e-9, 'visibility logit 2');
  });

  it('clamps points outside the image and scores NaN landmarks 0', () => {
    const t = f32(
      'Identity',
      [1, 195],
      landmarks((i) => (i === 1 ? [NaN, 3, 0, 4, 4] : [-500, 900, 0, NaN, 0])),
    );
    const r = decodeBlazePoseLandmarks(t, f32('Identity_1', [1, 1], [NaN]), plan.transform, 33);
    assert.deepEqual(r.keypoints[1], { x: 0, y: 0, score: 0 });
    assert.deepEqual(r.keypoints[0], { x: 0, y: 480, score: 0 });
    assert.equal(r.personScore, 0, 'a NaN person score is no person');
  });

  it('refuses tensors that are not 5 values per landmark or too short', () => {
    const flag = f32('Identity_1', [1, 1], [1]);
    throwsHead(
      () => decodeBlazePoseLandmarks(f32('L', [1, 194]), flag, plan.transform, 33),
      'BAD_SHAPE',
      /'L' hold 194 values, expected 5 per landmark for at least 33/,
    );
    throwsHead(
      () => decodeBlazePoseLandmarks(f32('L', [1, 100]), flag, plan.transform, 33),
      'BAD_SHAPE',
      /at least 33/,
    );
    throwsHead(
      () => decodeBlazePoseLandmarks(f32('L', [2, 195]), flag, plan.transform, 33),
      'BAD_SHAPE',
      /batch 2/,
    );
  });
});
