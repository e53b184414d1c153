import { strict as assert } from 'node:assert';
import {
  decodeNanodetDetections,
  type NanodetDetectOptions,
  type NanodetLevel,
} from '../../../../src/families/nanodet/decodeNanodetDetections';
import { HeadError } from '../../../../src/heads/headError';
import { letterboxTransform } from '../../../../src/heads/letterboxTransform';

// A 64x64 network input: stride 16 is a 4x4 grid, stride 32 a 2x2 one; 3 classes, regMax 3.
const ID = letterboxTransform(64, 64, 64, 64);
const BINS = 4;
const OPTIONS: NanodetDetectOptions = {
  scoreThreshold: 0.3,
  iouThreshold: 0.6,
  maxDetections: 100,
  numClasses: 3,
  regMax: BINS - 1,
  centerOffset: 0.5,
};

/** Logits that put (almost) all of a side's weight on bin `k`. */
function peaked(k: number): number[] {
  return Array.from({ length: BINS }, (_, i) => (i === k ? 40 : 0));
}

/** A level with every cell at score 0 but those given: cell -> [class scores, 4 sides' bins]. */
function level(
  stride: number,
  side: number,
  cells: Record<number, { scores: number[]; bins: number[][] }>,
): NanodetLevel {
  const n = side * side;
  const cls = new Float32Array(n * 3);
  const reg = new Float32Array(n * 4 * BINS);
  for (const [cell, v] of Object.entries(cells)) {
    cls.set(v.scores, Number(cell) * 3);
    reg.set(v.bins.flat(), Number(cell) * 4 * BINS);
  }
  return {
    stride,
    classScores: { name: `cls${stride}`, dims: [1, n, 3], data: cls },
    boxDistribution: { name: `reg${stride}`, dims: [1, n, 4 * BINS], data: reg },
  };
}

describe('families/nanodet/decodeNanodetDetections', () => {
  it("puts a box around the cell's centre, each side the expected bin times the stride", () => {
    // Cell 6 of the 4x4 grid: column 2, row 1; centre ((2 + 0.5) * 16, (1 + 0.5) * 16) = (40, 24).
    const l = level(16, 4, {
      6: { scores: [0.1, 0.9, 0.2], bins: [peaked(1), peaked(0), peaked(2), peaked(3)] },
    });
    const [d, ...rest] = decodeNanodetDetections([l, level(32, 2, {})], ID, OPTIONS);
    assert.equal(rest.length, 0);
    assert.equal(d!.classId, 1);
    assert.ok(Math.abs(d!.score - 0.9) < 1e-6);
    const b = d!.box;
    const expected = { x1: 40 - 16, y1: 24 - 0, x2: 40 + 32, y2: 24 + 48 };
    // x2 and y2 fall outside the 64x64 image and are clamped to it.
    assert.ok(Math.abs(b.x1 - expected.x1) < 1e-3, JSON.stringify(b));
    assert.ok(Math.abs(b.y1 - expected.y1) < 1e-3, JSON.stringify(b));
    assert.equal(b.x2, 64);
    assert.equal(b.y2, 64);
  });

  it('a flat distribution gives the mean bin: (regMax / 2) strides each side', () => {
    const flat = [0, 0, 0, 0];
    const l = level(32, 2, { 0: { scores: [0.8, 0, 0], bins: [flat, flat, flat, flat] } });
    const [d] = decodeNanodetDetections([level(16, 4, {}), l], ID, { ...OPTIONS, centerOffset: 0 });
    // NanoDet-Plus's centre (offset 0) of cell 0 is (0, 0); 1.5 bins x 32 = 48 px each side.
    assert.deepEqual(d!.box, { x1: 0, y1: 0, x2: 48, y2: 48 });
  });

  it('keeps cells above the threshold only, applies the class filter to the best class, and suppresses overlaps per class', () => {
    const same = [peaked(1), peaked(1), peaked(1), peaked(1)];
    const l = level(16, 4, {
      5: { scores: [0.9, 0, 0], bins: same },
      6: { scores: [0.7, 0, 0], bins: same }, // overlaps cell 5 (IoU 1/3 < 0.6): kept
      9: { scores: [0.8, 0, 0], bins: same }, // below cell 5: IoU 1/3, kept
      10: { scores: [0, 0.85, 0], bins: same },
      15: { scores: [0.2, 0.25, 0.29], bins: same }, // below the threshold
    });
    const all = decodeNanodetDetections([l], ID, OPTIONS);
    assert.deepEqual(
      all.map((d) => [d.classId, Math.round(d.score * 100)]),
      [
        [0, 90],
        [1, 85],
        [0, 80],
        [0, 70],
      ],
    );
    const onlyOne = decodeNanodetDetections([l], ID, { ...OPTIONS, classes: [1] });
    assert.deepEqual(
      onlyOne.map((d) => d.classId),
      [1],
    );
    const strict = decodeNanodetDetections([l], ID, { ...OPTIONS, iouThreshold: 0.3 });
    assert.deepEqual(
      strict.map((d) => Math.round(d.score * 100)),
      [90, 85],
      'class 0 cells 6 and 9 overlap cell 5 by 1/3',
    );
  });

  it('maps boxes back through the letterbox to source pixels', () => {
    const t = letterboxTransform(128, 64, 64, 64); // scale 0.5, padY 16
    const l = level(16, 4, {
      5: { scores: [0.9, 0, 0], bins: [peaked(1), peaked(1), peaked(1), peaked(1)] },
    });
    const [d] = decodeNanodetDetections([l], t, OPTIONS);
    // Centre (24, 24) in the network, box 8..40 both ways; back: x / 0.5, (y - 16) / 0.5.
    assert.deepEqual(d!.box, { x1: 16, y1: 0, x2: 80, y2: 48 });
  });

  it('refuses outputs that do not fit the grid, the bins or the classes, naming them', () => {
    const l = level(16, 4, {});
    const wrongGrid = { ...l, stride: 8 };
    assert.throws(
      () => decodeNanodetDetections([wrongGrid], ID, OPTIONS),
      (e: unknown) => e instanceof HeadError && /stride 8 .*expected \[1, 64, C\]/.test(e.message),
    );
    assert.throws(
      () => decodeNanodetDetections([l], ID, { ...OPTIONS, regMax: 7 }),
      (e: unknown) =>
        e instanceof HeadError && /16 box values a cell, expected 4 sides x 8 bins/.test(e.message),
    );
    assert.throws(
      () => decodeNanodetDetections([l], ID, { ...OPTIONS, numClasses: 80 }),
      (e: unknown) =>
        e instanceof HeadError && /3 class scores a cell, the model names 80/.test(e.message),
    );
  });
});
