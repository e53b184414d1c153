/**
 * The addon's output kernels (native/src/kernels/output_kernels.cc) against the heads' own TypeScript
 * loops they stand in for (src/heads/outputKernelsJs.ts): the same peaks and label maps on
 * awkward inputs (NaN, ties, signed zeros, planes of one value, crops and letterbox padding), the
 * same decoded keypoints and label maps through the heads, and a clear error instead of a crash
 * for arguments that do not fit.
 */
import * as assert from 'node:assert/strict';
import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import type { Tensor } from '../../../src/core/tensor';
import { nativeOutputKernels } from '../../../src/engine/outputKernels';
import { nativeAddon } from '../../../src/engine/nativeAddon';
import { decodeDeeplab } from '../../../src/heads/decodeDeeplab';
import { decodeHrnetHeatmaps } from '../../../src/families/hrnet/decodeHrnetHeatmaps';
import { letterboxTransform } from '../../../src/heads/letterboxTransform';
import { planePeaksJs, remapLabelsJs, yoloBestClassesJs } from '../../../src/heads/outputKernelsJs';
import { decodeYoloDetections } from '../../../src/families/yolov8/decodeYoloDetections';
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
    // Ties between vector lanes: the earlier index sits in a later lane (+0 at 1, -0 at 4).
    const lanes = Float32Array.from([-1, 0, -1, -1, -0, -1, -1, -1, 3, 2, 3, 9, 9, 1, 1, 1]);
    const peaks = native.planePeaks(lanes, 8);
    assert.deepEqual([...peaks], [...planePeaksJs(lanes, 8)]);
    assert.deepEqual([...peaks.subarray(1, 4)], [1, 9, 3]);
    assert.ok(Object.is(peaks[0], 0));
    // Four running maxima of four lanes: a zero tie between them (+0 at 3, -0 at 20, all else
    // negative) and a peak only in the scalar tail of a 38-value plane.
    const zeros = Float32Array.from({ length: 32 }, (_, i) =>
      i === 3 ? 0 : i === 20 ? -0 : -i - 1,
    );
    assert.deepEqual([...native.planePeaks(zeros, 32)], [0, 3]);
    assert.ok(Object.is(native.planePeaks(zeros, 32)[0], 0));
    const tail = Float32Array.from({ length: 38 }, (_, i) => (i === 37 ? 9 : i % 7));
    assert.deepEqual([...native.planePeaks(tail, 38)], [9, 37]);
    // Heatmap-sized planes with random peaks and repeated values, odd plane sizes included.
    for (const plane of [1, 3, 7, 16, 17, 31, 32, 64 * 48, 4099]) {
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
    // Camera-sized rows from a 520-wide grid, 16 columns at a time where their labels lie within
    // 16 grid bytes: enlarged (640, 1280: all blocks), shrunk (320: none), letterboxed (padding
    // columns on both sides), and a width with a tail of fewer than 16.
    const big = Uint8Array.from({ length: 520 * 6 }, () => Math.floor(r() * 21));
    const nearest = (n: number, from: number, to: number): number[] =>
      Array.from({ length: n }, (_, u) => Math.min(to - 1, Math.floor(((u + 0.5) * to) / from)));
    const wide: number[][] = [
      nearest(640, 640, 520),
      nearest(1280, 1280, 520),
      nearest(320, 320, 520),
      [-1, -1, -1, ...nearest(600, 600, 520), -1, -1],
      nearest(37, 37, 520),
      nearest(100, 100, 20).map((c) => c + 500), // the last grid columns: windows end at the row's end
    ];
    for (const cols of wide) {
      const rows = Int32Array.from([0, 1, 1, 2, 5, -1, 4]);
      const a = new Uint8Array(rows.length * cols.length).fill(255);
      const b = new Uint8Array(rows.length * cols.length).fill(255);
      remapLabelsJs(big, 520, rows, Int32Array.from(cols), a);
      native.remapLabels(big, 520, rows, Int32Array.from(cols), b);
      assert.deepEqual([...b], [...a], `${cols.length} columns`);
    }
  });

  it('yoloBestClasses: the anchors, classes and scores of the TypeScript scan, both layouts', () => {
    const r = rng(4);
    for (const { classes, anchors, anchorsFirst, threshold } of [
      { classes: 2, anchors: 8400, anchorsFirst: false, threshold: 0.25 },
      { classes: 80, anchors: 8400, anchorsFirst: false, threshold: 0.3 }, // 0.3 is no float32
      { classes: 80, anchors: 2100, anchorsFirst: true, threshold: 0.5 },
      { classes: 1, anchors: 37, anchorsFirst: false, threshold: -Infinity },
      { classes: 3, anchors: 37, anchorsFirst: true, threshold: 1e39 }, // above every float32
    ]) {
      const channels = 4 + classes;
      const data = Float32Array.from({ length: channels * anchors }, () => {
        const u = r();
        if (u < 0.01) return NaN;
        if (u < 0.02) return 0.3; // ties with each other and with the threshold
        return Math.fround(u * 0.6);
      });
      const cs = anchorsFirst ? 1 : anchors;
      const as = anchorsFirst ? channels : 1;
      const run = (k: typeof yoloBestClassesJs) => {
        const a = new Int32Array(anchors);
        const c = new Int32Array(anchors);
        const sc = new Float32Array(anchors);
        const count = k(data, anchors, classes, cs, as, threshold, a, c, sc);
        return {
          count,
          a: [...a.subarray(0, count)],
          c: [...c.subarray(0, count)],
          s: [...sc.subarray(0, count)],
        };
      };
      const want = run(yoloBestClassesJs);
      const title = `${classes} classes, ${anchorsFirst ? 'anchors first' : 'channels first'}`;
      assert.ok(want.count > 0 || threshold > 1, `${title}: some anchors above the threshold`);
      assert.deepEqual(run(native.yoloBestClasses), want, title);
    }
  });

  it('through the YOLO head: the detections of the heads’ own scan', () => {
    const r = rng(5);
    const anchors = 8400;
    const data = new Float32Array(84 * anchors);
    for (let a = 0; a < anchors; a++) {
      data[a] = r() * 640;
      data[anchors + a] = r() * 640;
      data[2 * anchors + a] = 10 + r() * 100;
      data[3 * anchors + a] = 10 + r() * 100;
      for (let c = 0; c < 80; c++)
        data[(4 + c) * anchors + a] = r() < 0.002 ? 0.3 + r() * 0.7 : r() * 0.2;
    }
    const output: Tensor = { name: 'output0', dims: [1, 84, anchors], data };
    const t = letterboxTransform(1280, 720, 640, 640, 'letterbox');
    const yolo = { format: 'ultralytics' as const, output, anchorsFirst: false };
    const got = decodeYoloDetections(yolo, t, { bestClasses: native.yoloBestClasses });
    assert.ok(got.length > 5, `${got.length} detections`);
    assert.deepEqual(got, decodeYoloDetections(yolo, t));
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
    const n = 10;
    const out = (): [Int32Array, Int32Array, Float32Array] => [
      new Int32Array(n),
      new Int32Array(n),
      new Float32Array(n),
    ];
    call(
      () => addon.yoloBestClasses(new Float32Array(6 * n - 1), n, 2, n, 1, 0.25, ...out()),
      RangeError,
      /need 60 values, data has 59/,
    );
    call(
      () =>
        addon.yoloBestClasses(
          new Float32Array(6 * n),
          n,
          2,
          n,
          1,
          0.25,
          new Int32Array(n - 1),
          new Int32Array(n),
          new Float32Array(n),
        ),
      RangeError,
      /must hold numAnchors entries/,
    );
    call(
      () => loose.yoloBestClasses!(new Float64Array(6 * n), n, 2, n, 1, 0.25, ...out()),
      TypeError,
      /data must be a Float32Array/,
    );
    call(
      () => loose.yoloBestClasses!(new Float32Array(6 * n), n, 0, n, 1, 0.25, ...out()),
      RangeError,
      /numClasses/,
    );
    call(
      () => loose.yoloBestClasses!(new Float32Array(6 * n), n, 2, n, 1, '0.25', ...out()),
      TypeError,
      /threshold/,
    );
    call(
      () =>
        loose.yoloBestClasses!(
          new Float32Array(6 * n),
          n,
          2,
          n,
          1,
          0.25,
          new Int32Array(n),
          new Int32Array(n),
          new Int32Array(n),
        ),
      TypeError,
      /scores/,
    );
    call(() => loose.zeroedBytes!('8'), TypeError, /size must be a number/);
    for (const size of [0, -1, 1.5, NaN, 2 ** 28 + 1]) {
      call(() => loose.zeroedBytes!(size), RangeError, /whole number from 1/);
    }
  });

  it('zeroedBytes: zeros every time, the memory of collected arrays taken back', async () => {
    const addon = nativeAddon();
    const stats = addon.zeroedBytesStats;
    const held = (size: number): number => stats().keptSizes.filter((k) => k === size).length;
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void;
    // Made, checked and dirtied in here, so nothing refers to it afterwards.
    const dirty = (size: number): void => {
      const a = addon.zeroedBytes(size);
      assert.equal(a.length, size);
      assert.equal(a.byteOffset, 0);
      assert.ok(Buffer.alloc(size).equals(a), 'not all zeros');
      a.fill(0xa5);
    };
    // Finalizers run after a collection, from the event loop, sometimes several turns later.
    const settle = async (what: string, done: () => boolean): Promise<void> => {
      for (let i = 0; i < 300 && !done(); i++) {
        gc();
        await new Promise<void>((next) => setTimeout(next, 10));
      }
      assert.ok(done(), `${what}: ${JSON.stringify(stats())}`);
    };
    // Whatever earlier tests left for the collector comes back first (the pool still).
    let last = '';
    await settle('the pool still', () => last === (last = JSON.stringify(stats())));
    const label = 640 * 480 + 13; // no other test asks for these sizes
    for (let round = 0; round < 3; round++) {
      const before = stats();
      dirty(label);
      const made = stats();
      assert.equal(made.fresh + made.reused, before.fresh + before.reused + 1);
      if (round > 0) assert.equal(made.reused, before.reused + 1, 'not taken from the pool');
      await settle('the label image back', () => held(label) === 1);
    }
    // At most 8 MiB: a size that comes back to a full pool makes room by dropping blocks of other
    // sizes (a new camera resolution replaces the old one's blocks).
    const a = 3 << 20;
    const b = a + 1;
    for (let i = 0; i < 3; i++) dirty(a);
    await settle('two 3 MiB blocks kept, the third freed', () => stats().keptBytes === 2 * a);
    dirty(b);
    await settle('a 3 MiB block dropped for the new size', () => held(b) === 1 && held(a) === 1);
    const reused = stats().reused;
    dirty(b);
    assert.equal(stats().reused, reused + 1);
    // Small arrays are malloc's business: never kept (collected with a label image, by the time
    // that one is back).
    dirty(100);
    dirty(label);
    await settle('the label image back', () => held(label) === 1);
    const r = stats().reused;
    dirty(100);
    assert.equal(stats().reused, r, 'a 100-byte array was kept');
  });
});
