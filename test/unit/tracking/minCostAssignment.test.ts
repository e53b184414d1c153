import { strict as assert } from 'node:assert';
import { makePrng } from '../../support/prng';
import { minCostAssignment } from '../../../src/tracking/minCostAssignment';

/** Best total of (maxCost - cost) over every partial matching, by exhaustive search. */
function bestValue(cost: number[], rows: number, cols: number, maxCost: number): number {
  const usedCols = new Set<number>();
  const go = (r: number): number => {
    if (r === rows) return 0;
    let best = go(r + 1); // row r unmatched
    for (let c = 0; c < cols; c++) {
      const v = cost[r * cols + c]!;
      if (usedCols.has(c) || !(v <= maxCost)) continue;
      usedCols.add(c);
      best = Math.max(best, maxCost - v + go(r + 1));
      usedCols.delete(c);
    }
    return best;
  };
  return go(0);
}

const value = (
  pairs: ReadonlyArray<readonly [number, number]>,
  cost: number[],
  cols: number,
  maxCost: number,
) => pairs.reduce((s, [r, c]) => s + maxCost - cost[r * cols + c]!, 0);

describe('tracking/minCostAssignment', () => {
  it('takes the assignment that matches both where greedy would match one', () => {
    // Greedy takes (0,0) at 0.1 and then finds (1,1) at 0.9 over the limit.
    const cost = [0.1, 0.2, 0.15, 0.9];
    assert.deepEqual(minCostAssignment(cost, 2, 2, 0.8), [
      [0, 1],
      [1, 0],
    ]);
  });

  it('leaves rows and columns unmatched when every pair is over the limit', () => {
    assert.deepEqual(minCostAssignment([0.95, 0.9, 0.99], 1, 3, 0.8), []);
    assert.deepEqual(minCostAssignment([0.95, 0.3, 0.99], 3, 1, 0.8), [[1, 0]]);
  });

  it('never matches a NaN cost', () => {
    assert.deepEqual(minCostAssignment([NaN, 0.5], 2, 1, 0.8), [[1, 0]]);
  });

  it('handles empty sides and refuses a matrix of the wrong size', () => {
    assert.deepEqual(minCostAssignment([], 0, 4, 0.8), []);
    assert.deepEqual(minCostAssignment([], 3, 0, 0.8), []);
    assert.throws(
      () => minCostAssignment([0.1, 0.2, 0.3], 2, 2, 0.8),
      (e: Error) => e.name === 'RangeError' && /3 entries, expected 2x2/.test(e.message),
    );
  });

  it('is optimal on random matrices (exhaustive search up to 5x6, either orientation)', () => {
    const rnd = makePrng(3);
    for (let k = 0; k < 300; k++) {
      const rows = 1 + Math.floor(rnd() * 5);
      const cols = 1 + Math.floor(rnd() * 6);
      const cost = Array.from({ length: rows * cols }, () => rnd());
      const maxCost = 0.3 + rnd() * 0.6;
      const pairs = minCostAssignment(cost, rows, cols, maxCost);
      assert.equal(new Set(pairs.map((p) => p[0])).size, pairs.length, 'a row used twice');
      assert.equal(new Set(pairs.map((p) => p[1])).size, pairs.length, 'a column used twice');
      for (const [r, c] of pairs) assert.ok(cost[r * cols + c]! <= maxCost);
      const got = value(pairs, cost, cols, maxCost);
      assert.ok(
        Math.abs(got - bestValue(cost, rows, cols, maxCost)) < 1e-9,
        `case ${k}: ${rows}x${cols}`,
      );
    }
  });
});
