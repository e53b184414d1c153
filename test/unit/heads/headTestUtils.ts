import { strict as assert } from 'node:assert';
import { HeadError, HeadErrorCode } from '../../../src/heads/headError';
import type { Tensor } from '../../../src/core/tensor';

export function f32(name: string, dims: number[], values?: ArrayLike<number>): Tensor {
  const n = dims.reduce((a, b) => a * b, 1);
  const data = new Float32Array(n);
  if (values !== undefined) data.set(values);
  return { name, dims, data };
}

export function throwsHead(fn: () => unknown, code: HeadErrorCode, message: RegExp): void {
  assert.throws(fn, (e: unknown) => {
    assert.ok(e instanceof HeadError, `expected HeadError, got ${String(e)}`);
    assert.equal(e.name, 'HeadError');
    assert.equal(e.code, code);
    assert.match(e.message, message);
    return true;
  });
}

export function near(actual: number, expected: number, tol = 1e-4, what = ''): void {
  assert.ok(
    Math.abs(actual - expected) <= tol,
    `${what} ${actual} is not within ${tol} of ${expected}`,
  );
}

/**
 * Ultralytics-layout YOLO output [1, 4 + C + extra, N] from per-anchor rows
 * [cx, cy, w, h, ...scores, ...extra].
 */
export function yoloOutput(name: string, rows: number[][], channels: number): Tensor {
  const n = rows.length;
  const t = f32(name, [1, channels, n]);
  const d = t.data as Float32Array;
  rows.forEach((r, a) => {
    assert.equal(r.length, channels, 'row length');
    r.forEach((v, c) => (d[c * n + a] = v));
  });
  return t;
}
