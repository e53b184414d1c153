import assert from 'node:assert/strict';
import { decodeRuns } from '../../src/maskRuns';

describe('bench:ultralytics mask runs', () => {
  it('turns alternating 0/1 runs (starting with 0) into one byte per pixel', () => {
    const m = decodeRuns({ x: 3, y: 4, width: 3, height: 2, runs: [1, 2, 2, 1] });
    assert.deepEqual([...m], [0, 1, 1, 0, 0, 1]);
  });

  it('reads a mask that starts with ones (a leading zero-length run)', () => {
    const m = decodeRuns({ x: 0, y: 0, width: 2, height: 2, runs: [0, 3, 1] });
    assert.deepEqual([...m], [1, 1, 1, 0]);
  });

  it('refuses runs that do not cover the region exactly', () => {
    assert.throws(
      () => decodeRuns({ x: 0, y: 0, width: 2, height: 2, runs: [1, 2] }),
      /mask runs cover 3 pixels, the region has 4/,
    );
    assert.throws(
      () => decodeRuns({ x: 0, y: 0, width: 2, height: 1, runs: [1, 5] }),
      /mask runs cover 6 pixels, the region has 2/,
    );
  });
});
