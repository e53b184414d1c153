/**
 * The addon's output kernels (native/src/output_kernels.cc) against the heads' own TypeScript
 * loops they stand in for (src/heads/outputKernelsJs.ts): the same peaks and label maps on
 * awkward inputs (NaN, ties, signed zeros, planes of one value, crops and letterbox padding), the
 * same decoded keypoints and label maps through the heads, and a clear error instead of a crash
 * for arguments that do not fit.
 */
import * as assert from 'node:assert/strict';
import type { Tensor } from '../../../src/core/tensor';
import { nativeOutputKernels } from '../../../src/engine/outputKernels';
import { nativeAddon } from '../../../src/engine/nativeAddon';
import { decodeDeeplab } from '../../../src/heads/decodeDeeplab';
import { decodeHrnetHeatmaps } from '../../../src/heads/decodeHrnetHeatmaps';
import { letterboxTransform } from '../../../src/heads/letterboxTransform';
import { planePeaksJs, remapLabelsJs } from '../../../src/heads/outputKernelsJs';
import { planHrnetCrop } from '../../../src/heads/planHrnetCrop';

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe('engine output kernels: the heads’ results, from the addon', function () {
  const native = nativeOutputKernels();

  it('planePeaks: largest value and its first index per plane, NaN never winning', () => {
    const r = rng(1);
    const planes: number[][] = [
      [0.1, 0.7, 0.3, 0.7, 0.2], // tie: the first
      [NaN, NaN, 0.2, NaN, 0.1], // NaN around the peak
      [NaN, NaN, NaN, NaN, NaN], // none: -Infinity at 0
      [-Infinity, -Infinity, -Infinity, -Infinity, -Infinity],
      [-0, 0, -0, -1, -2], // signed zeros tie: the first, its sign kept
      [-3, -2, -5, -2, -9],
      [Infinity, 1, Infinity, NaN, 2],
      [1, 2, 3, 4, 5], // the peak in the scalar tail
    ];
    const data = Float32Array.from(planes.flat());
    const want = planePeaksJs(data, 5);
    const got = native.planePeaks(data, 5);
    assert.deepEqual([...got], [...want]);
    assert.deepEqual(
      [...got.subarray(0, 6)],
      [0.699999988079071, 1, 0.20000000298023224, 2, -Infinity, 0],
    );
    assert.ok(Object.is(got[8], -0));
    // Heatmap-sized planes with random peaks and repeated values, odd plane sizes included.
    for (const plane of [1, 3, 7, 64 * 48, 4099]) {
      const big = Float32Array.from({ length: plane * 9 }, () => Math.round(r() * 50) / 50);
      assert.deepEqual(
        [...native.planePeaks(big, plane)],
        [...planePeaksJs(big, plane)],
        `${plane}`,
      );
    }
  });

  it('remapLabels: the TypeScript resize, pixel for pixel, padding and crops included', () => {
    const r = rng(2);
    const grid = Uint8Array.from({ length: 13 * 11 }, () => Math.floor(r() * 21));
    const cases: { rows: number[]; cols: number[] }[] = [
      { rows: [0, 0, 1, 1, 2, 3, 3, 4, 5, 10], cols: [0, 1, 1, 2, 3, 4, 5, 6, 12, 12] },
      { rows: [-1, -1, 2, 2, 5, -1], cols: [-1, 3, 4, 4, 9, -1, -1] },
      { rows: [7], cols: [12] },
      { rows: [-1, -1], cols: [0, 1] },
      { rows: [0, 1], cols: [-1, -1, -1] },
    ];
    for (const c of cases) {
      const rows = Int32Array.from(c.rows);
      const cols = Int32Array.from(c.cols);
      const a = new Uint8Array(rows.length * cols.length).fill(255);
      const b = new Uint8Array(rows.length * cols.length).fill(255);
      remapLabelsJs(grid, 13, rows, cols, a);
      native.remapLabels(grid, 13, rows, cols, b);
      assert.deepEqual([...b], [...a], JSON.stringify(c));
    }
  });

  it('through the heads: HRNet keypoints and DeepLab label maps as with the heads’ own loops', () => {
    const r = rng(3);
    const hm: Tensor = {
      name: 'heatmaps',
      dims: [3, 17, 64, 48],
      data: Float32Array.from({ length: 3 * 17 * 64 * 48 }, () => r() - 0.2),
    };
    const transforms = [0, 1, 2].map(
      (i) =>
        planHrnetCrop({ x1: 100 + i * 200, y1: 90, x2: 220 + i * 200, y2: 460 }, 1280, 720)
          .transform,
    );
    assert.deepEqual(
      decodeHrnetHeatmaps(hm, transforms, { planePeaks: native.planePeaks }),
      decodeHrnetHeatmaps(hm, transforms),
    );
    const labels: Tensor = {
      name: 'mask',
      dims: [1, 520, 520],
      data: Uint8Array.from({ length: 520 * 520 }, () => Math.floor(r() * 21)),
    };
    for (const t of [
      letterboxTransform(640, 480, 520, 520, 'letterbox'),
      letterboxTransform(1280, 720, 520, 520, 'stretch'),
      letterboxTransform(1280, 720, 520, 520, 'letterbox', {
        x: 300,
        y: 100,
        width: 500,
        height: 400,
      }),
    ]) {
      const a = decodeDeeplab(labels, t, { remapLabels: native.remapLabels });
      const b = decodeDeeplab(labels, t);
      assert.equal(a.width, b.width);
      assert.ok(Buffer.from(a.data).equals(Buffer.from(b.data)));
    }
  });

  it('refuses arguments that do not fit with a TypeError or RangeError, never a crash', () => {
    const addon = nativeAddon();
    const grid = new Uint8Array(12);
    const call = (f: () => unknown, type: ErrorConstructor, message: RegExp): void =>
      assert.throws(f, (e: Error) => e instanceof type && message.test(e.message));
    const loose = addon as unknown as Record<string, (...args: unknown[]) => unknown>;
    call(() => loose.planePeaks!(new Float64Array(4), 2), TypeError, /Float32Array/);
    call(() => loose.planePeaks!(new Float32Array(5), 2), RangeError, /whole planes of 2/);
    call(() => loose.planePeaks!(new Float32Array(4), 0), RangeError, /planeSize/);
    call(() => loose.planePeaks!(new Float32Array(4), 1.5), RangeError, /planeSize/);
    call(() => loose.planePeaks!(new Float32Array(4)), TypeError, /planeSize/);
    const rows = Int32Array.from([0, 1]);
    const cols = Int32Array.from([0, 1, 2]);
    call(() => addon.remapLabels(grid, 4, rows, cols, new Uint8Array(5)), RangeError, /holds 5/);
    call(
      () => addon.remapLabels(grid, 4, Int32Array.from([0, 3]), cols, new Uint8Array(6)),
      RangeError,
      /row is outside/,
    );
    call(
      () => addon.remapLabels(grid, 4, rows, Int32Array.from([0, 4, 1]), new Uint8Array(6)),
      RangeError,
      /column is outside/,
    );
    call(
      () => addon.remapLabels(grid, 4, rows, Int32Array.from([0, -1, 1]), new Uint8Array(6)),
      RangeError,
      /not one run/,
    );
    call(() => loose.remapLabels!(grid, 4, [0, 1], cols, new Uint8Array(6)), TypeError, /rows/);
  });
});
