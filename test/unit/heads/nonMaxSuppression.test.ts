import { strict as assert } from 'node:assert';
import { nonMaxSuppression } from '../../../src/heads/nonMaxSuppression';
import { throwsHead } from './headTestUtils';

const opts = { iouThreshold: 0.5, maxDetections: 100, classAware: true };

function run(boxes: number[][], scores: number[], classes: number[], o = opts): number[] {
  return [
    ...nonMaxSuppression(
      new Float32Array(boxes.flat()),
      new Float32Array(scores),
      new Int32Array(classes),
      o,
    ),
  ];
}

describe('heads/nonMaxSuppression', () => {
  // Two boxes with IoU 0.6 (10x10 squares offset by 2.5 in x: inter 75, union 125).
  const a = [0, 0, 10, 10];
  const b = [2.5, 0, 12.5, 10];
  const far = [50, 50, 60, 60];

  it('keeps the best of overlapping same-class boxes and returns best first', () => {
    assert.deepEqual(run([a, b, far], [0.6, 0.9, 0.7], [0, 0, 0]), [1, 2]);
  });

  it('class-aware keeps overlapping boxes of different classes; agnostic does not', () => {
    assert.deepEqual(run([a, b], [0.6, 0.9], [0, 1]), [1, 0]);
    assert.deepEqual(run([a, b], [0.6, 0.9], [0, 1], { ...opts, classAware: false }), [1]);
  });

  it('suppresses only strictly above the IoU threshold', () => {
    assert.deepEqual(run([a, b], [0.9, 0.8], [0, 0], { ...opts, iouThreshold: 0.6 }), [0, 1]);
    assert.deepEqual(run([a, b], [0.9, 0.8], [0, 0], { ...opts, iouThreshold: 0.59 }), [0]);
  });

  it('caps at maxDetections, keeping the highest scores', () => {
    const boxes = [0, 1, 2, 3, 4].map((i) => [i * 20, 0, i * 20 + 10, 10]);
    assert.deepEqual(
      run(boxes, [0.1, 0.5, 0.3, 0.9, 0.2], [0, 0, 0, 0, 0], { ...opts, maxDetections: 2 }),
      [3, 1],
    );
    assert.deepEqual(
      run(boxes, [0.1, 0.5, 0.3, 0.9, 0.2], [0, 0, 0, 0, 0], { ...opts, maxDetections: 0 }),
      [],
    );
  });

  it('never keeps NaN scores, and handles empty input', () => {
    assert.deepEqual(run([a, far], [NaN, 0.3], [0, 0]), [1]);
    assert.deepEqual(run([], [], []), []);
  });

  it('zero-area boxes overlap nothing and do not divide by zero', () => {
    const point = [5, 5, 5, 5];
    assert.deepEqual(run([point, point, a], [0.9, 0.8, 0.7], [0, 0, 0]), [0, 1, 2]);
  });

  it('equal scores keep input order (deterministic)', () => {
    assert.deepEqual(run([far, a], [0.5, 0.5], [0, 0]), [0, 1]);
  });

  it('rejects mismatched lengths and bad options', () => {
    throwsHead(
      () => run([a], [0.5, 0.4], [0, 0]),
      'BAD_DATA_LENGTH',
      /4 box values and one class per score/,
    );
    throwsHead(
      () => run([a], [0.5], [0], { ...opts, iouThreshold: 1.5 }),
      'BAD_OPTION',
      /iouThreshold/,
    );
    throwsHead(
      () => run([a], [0.5], [0], { ...opts, maxDetections: -1 }),
      'BAD_OPTION',
      /maxDetections/,
    );
  });
});
