import { strict as assert } from 'node:assert';
import {
  decodeMovenetMultipose,
  decodeMovenetSinglepose,
} from '../../../../src/families/movenet/decodeMovenet';
import { HeadError } from '../../../../src/heads/headError';
import { letterboxTransform } from '../../../../src/heads/letterboxTransform';
import type { Tensor } from '../../../../src/core/tensor';

const K = 3; // three keypoints keep the rows short; COCO's 17 work the same way
const WIDTH = 3 * K + 5;

/** A person row: keypoints (y, x, score) as fractions, then ymin, xmin, ymax, xmax, score. */
function person(
  kp: [number, number, number][],
  box: [number, number, number, number],
  score: number,
): number[] {
  return [...kp.flat(), ...box, score];
}

function multipose(rows: number[][]): Tensor {
  return { name: 'output_0', dims: [1, rows.length, WIDTH], data: Float32Array.from(rows.flat()) };
}

describe('families/movenet/decodeMovenet', () => {
  // A 640x480 source letterboxed into 256x256: scale 0.4, 32 px of padding above and below.
  const T = letterboxTransform(640, 480, 256, 256);

  it('MultiPose: people above the threshold, best first, keypoints and boxes in source pixels', () => {
    const a = person(
      [
        [0.5, 0.25, 0.9],
        [0.25, 0.5, 0.8],
        [0.75, 0.75, 0.1],
      ],
      [0.1875, 0.125, 0.8125, 0.875],
      0.6,
    );
    const b = person(
      [
        [0.5, 0.5, 0.5],
        [0.5, 0.5, 0.5],
        [0.5, 0.5, 0.5],
      ],
      [0.4, 0.4, 0.6, 0.6],
      0.9,
    );
    const weak = person(
      [
        [0, 0, 0],
        [0, 0, 0],
        [0, 0, 0],
      ],
      [0, 0, 0, 0],
      0.1,
    );
    const poses = decodeMovenetMultipose(multipose([a, b, weak]), T, {
      scoreThreshold: 0.2,
      maxDetections: 10,
      numKeypoints: K,
    });
    assert.deepEqual(
      poses.map((p) => p.score),
      [Math.fround(0.9), Math.fround(0.6)],
    );
    const p = poses[1]!;
    assert.equal(p.classId, 0);
    // Keypoint 0 at (x 0.25, y 0.5) of 256: network (64, 128); source (64 / 0.4, (128 - 32) / 0.4).
    const k0 = p.keypoints[0]!;
    assert.ok(Math.abs(k0.x - 160) < 1e-3 && Math.abs(k0.y - 240) < 1e-3, JSON.stringify(k0));
    assert.ok(Math.abs(k0.score - 0.9) < 1e-6);
    // Box x 0.125..0.875, y 0.1875..0.8125 of 256: network 32..224 x 48..208; source 80..560 x 40..440.
    const box = p.box;
    for (const [got, want] of [
      [box.x1, 80],
      [box.x2, 560],
      [box.y1, 40],
      [box.y2, 440],
    ] as const) {
      assert.ok(Math.abs(got - want) < 1e-3, JSON.stringify(box));
    }
    assert.equal(
      decodeMovenetMultipose(multipose([a, b, weak]), T, {
        scoreThreshold: 0.2,
        maxDetections: 1,
        numKeypoints: K,
      }).length,
      1,
      'maxDetections caps',
    );
  });

  it('singlepose: the crop transform takes the keypoints back into the source', () => {
    // A 100x100 crop at (300, 200) of a 640x480 image, stretched onto 192x192.
    const crop = {
      srcWidth: 640,
      srcHeight: 480,
      crop: { x: 300, y: 200, width: 100, height: 100 },
      dstWidth: 192,
      dstHeight: 192,
      scaleX: 1.92,
      scaleY: 1.92,
      padX: 0,
      padY: 0,
    };
    const out: Tensor = {
      name: 'Identity:0',
      dims: [1, 1, K, 3],
      data: Float32Array.from([0.5, 0.5, 0.7, 0, 1, 0.2, 1, 0, 0.4]),
    };
    const kps = decodeMovenetSinglepose(out, crop, K);
    assert.deepEqual(
      kps.map((k) => [Math.round(k.x), Math.round(k.y)]),
      [
        [350, 250],
        [400, 200],
        [300, 300],
      ],
    );
  });

  it('refuses outputs of another shape, naming what MoveNet gives', () => {
    const bad: Tensor = { name: 'o', dims: [1, 6, 56], data: new Float32Array(6 * 56) };
    assert.throws(
      () =>
        decodeMovenetMultipose(bad, T, { scoreThreshold: 0, maxDetections: 6, numKeypoints: K }),
      (e: unknown) => e instanceof HeadError && /expected \[1, P, 14\]/.test(e.message),
    );
    const bad4: Tensor = { name: 'k', dims: [1, 1, 17, 3], data: new Float32Array(51) };
    assert.throws(
      () => decodeMovenetSinglepose(bad4, T, K),
      (e: unknown) => e instanceof HeadError && /expected \[1, 1, 3, 3\]/.test(e.message),
    );
  });
});
