/**
 * Optimal assignment between `rows` and `cols` (a row-major cost matrix) in which a pair is only
 * allowed when its cost is at most `maxCost`, and leaving a row or column unassigned is allowed.
 *
 * Objective: maximise the sum of (maxCost - cost) over the chosen pairs, which is what ByteTrack's
 * `lapjv(..., cost_limit)` solves: a pair is worth taking only while it is cheaper than leaving
 * both sides unmatched. Written as a square-free problem by clamping each entry to
 * min(cost - maxCost, 0) (a pair at 0 is "unmatched"), then solved exactly with the Hungarian
 * method (shortest augmenting paths with row and column potentials, O(n^2 m) for n <= m).
 *
 * Why not greedy: greedy by best IoU is what a simpler tracker would do, and it is exact when
 * objects are far apart; where two tracks and two detections overlap (the crossing-paths case)
 * greedy can take the single best pair and force the other track onto the wrong detection, one
 * ID switch each crossing. The optimal solution costs little at our sizes (per class, tens of
 * tracks): see bench/results/2026-11-23-tracking.md.
 */
export function minCostAssignment(
  cost: ArrayLike<number>,
  rows: number,
  cols: number,
  maxCost: number,
): Array<readonly [row: number, col: number]> {
  if (cost.length !== rows * cols) {
    throw new RangeError(`cost matrix holds ${cost.length} entries, expected ${rows}x${cols}`);
  }
  if (rows === 0 || cols === 0) return [];
  // The algorithm wants n <= m; solve the transpose when there are more rows than columns.
  const transpose = rows > cols;
  const n = transpose ? cols : rows;
  const m = transpose ? rows : cols;
  const at = (i: number, j: number): number => {
    const c = transpose ? cost[j * cols + i]! : cost[i * cols + j]!;
    // A NaN cost (degenerate box) is never a match.
    return c <= maxCost ? c - maxCost : 0;
  };
  // 1-based arrays: index 0 of the columns is the virtual start column of each augmenting path.
  const u = new Float64Array(n + 1);
  const v = new Float64Array(m + 1);
  const owner = new Int32Array(m + 1); // row (1-based) assigned to each column, 0 = none
  const via = new Int32Array(m + 1);
  const slack = new Float64Array(m + 1);
  const seen = new Uint8Array(m + 1);
  for (let row = 1; row <= n; row++) {
    owner[0] = row;
    let col = 0;
    slack.fill(Infinity);
    seen.fill(0);
    // Grow a shortest-path tree from `row` until it reaches a free column.
    do {
      seen[col] = 1;
      const r = owner[col]!;
      let delta = Infinity;
      let next = 0;
      for (let j = 1; j <= m; j++) {
        if (seen[j]) continue;
        const reduced = at(r - 1, j - 1) - u[r]! - v[j]!;
        if (reduced < slack[j]!) {
          slack[j] = reduced;
          via[j] = col;
        }
        if (slack[j]! < delta) {
          delta = slack[j]!;
          next = j;
        }
      }
      for (let j = 0; j <= m; j++) {
        if (seen[j]) {
          const owned = owner[j]!;
          u[owned] = u[owned]! + delta;
          v[j] = v[j]! - delta;
        } else {
          slack[j] = slack[j]! - delta;
        }
      }
      col = next;
    } while (owner[col] !== 0);
    // Flip the path: every column on it takes the row of its predecessor.
    do {
      const prev = via[col]!;
      owner[col] = owner[prev]!;
      col = prev;
    } while (col !== 0);
  }
  const pairs: Array<readonly [number, number]> = [];
  for (let j = 1; j <= m; j++) {
    const i = owner[j]! - 1;
    if (i < 0) continue;
    const [r, c] = transpose ? [j - 1, i] : [i, j - 1];
    if (cost[r * cols + c]! <= maxCost) pairs.push([r, c]);
  }
  pairs.sort((a, b) => a[0] - b[0]);
  return pairs;
}
