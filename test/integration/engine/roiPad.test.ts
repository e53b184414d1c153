/**
 * The 'pad' ROI (HRNet's top-down affine crop) through the real addon: an identity model returns
 * the preprocessed input, and a frame whose red and green channels are ramps of x and y tells
 * where each input pixel sampled. Out-of-image pixels must be exactly the pad value; in-image
 * pixels must hold the ramp value at the source position the planner's affine gives.
 */
import * as assert from 'node:assert/strict';
import { EngineError } from '../../../src/core/engineError';
import type { Frame } from '../../../src/core/frame';
import { EngineSession } from '../../../src/engine/engineSession';
import { mapPointToSource } from '../../../src/heads/mapBoxToSource';
import { planHrnetCrop } from '../../../src/heads/planHrnetCrop';
import { model } from './engineFixtures';

const W = 50;
const H = 40;
const IN_W = 24; // the identity model's dynamic input, at HRNet's 3:4 aspect
const IN_H = 32;
const RX = 5; // red = RX * x, green = GY * y, blue constant
const GY = 6;
const BLUE = 200;

function rampFrame(): Frame {
  const data = new Uint8Array(W * H * 3);
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) data.set([RX * x, GY * y, BLUE], (y * W + x) * 3);
  return { data, width: W, height: H, step: W * 3, encoding: 'rgb8' };
}

const EDGE_BOXES = {
  left: { x1: 0, y1: 8, x2: 9, y2: 30 },
  right: { x1: 41, y1: 5, x2: 50, y2: 28 },
  top: { x1: 20, y1: 0, x2: 29, y2: 14 },
  bottom: { x1: 15, y1: 26, x2: 27, y2: 40 },
  corner: { x1: 0, y1: 0, x2: 12, y2: 25 },
};

describe("engine ROI outside: 'pad' (top-down affine crop)", function () {
  this.timeout(60000);
  for (const padValue of [0, 77]) {
    it(`boxes touching each edge: out-of-image pixels are ${padValue}, in-image pixels where the affine says`, async () => {
      const s = await EngineSession.load({
        threads: 1,
        model: model('id_dynamic.onnx'),
        preprocess: {
          width: IN_W,
          height: IN_H,
          resize: 'stretch',
          padValue,
          mean: [0, 0, 0],
          std: [1, 1, 1],
        },
      });
      try {
        const frame = rampFrame();
        for (const [edge, box] of Object.entries(EDGE_BOXES)) {
          const plan = planHrnetCrop(box, W, H, { inputWidth: IN_W, inputHeight: IN_H });
          const r = await s.run(frame, { ...plan.region, outside: 'pad' });
          assert.deepEqual(r.transform, plan.transform, `${edge}: transform`);
          const out = r.outputs[0]!.data as Float32Array;
          const plane = IN_W * IN_H;
          const [a, , c, , e, f] = plan.affine;
          let padded = 0;
          let sampled = 0;
          for (let Y = 0; Y < IN_H; Y++) {
            for (let X = 0; X < IN_W; X++) {
              // The input pixel's centre, through the inverse affine, in continuous source
              // coordinates; pixel-index coordinates are half a pixel less.
              const u = (X + 0.5 - c) / a;
              const v = (Y + 0.5 - f) / e;
              const got = [0, 1, 2].map((ch) => out[ch * plane + Y * IN_W + X]!);
              const at = `${edge} (${X}, ${Y}) -> (${u.toFixed(3)}, ${v.toFixed(3)})`;
              if (u < 0 || u >= W || v < 0 || v >= H) {
                assert.deepEqual(got, [padValue, padValue, padValue], at);
                padded++;
              } else {
                const sx = Math.min(Math.max(u - 0.5, 0), W - 1);
                const sy = Math.min(Math.max(v - 0.5, 0), H - 1);
                assert.ok(Math.abs(got[0]! - RX * sx) < 1e-3, `${at}: red ${got[0]}`);
                assert.ok(Math.abs(got[1]! - GY * sy) < 1e-3, `${at}: green ${got[1]}`);
                assert.equal(got[2], BLUE, at);
                sampled++;
              }
            }
          }
          assert.ok(padded > 0 && sampled > 0, `${edge}: ${padded} padded, ${sampled} sampled`);
          // Keypoint back-mapping: an input position maps to the source point the affine came from.
          for (const [u, v] of [
            [box.x1 + 0.25, box.y1 + 0.5],
            [box.x2 - 0.5, box.y2 - 0.125],
          ] as const) {
            const p = mapPointToSource(r.transform, a * u + c, e * v + f);
            assert.ok(Math.abs(p.x - u) < 1e-9 && Math.abs(p.y - v) < 1e-9, `${edge} round trip`);
          }
        }
      } finally {
        s.dispose();
      }
    });
  }

  it('refuses a pad region that misses the frame or is not finite; integer ROIs stay strict', async () => {
    const s = await EngineSession.load({
      threads: 1,
      model: model('id_dynamic.onnx'),
      preprocess: { width: IN_W, height: IN_H, resize: 'stretch' },
    });
    try {
      const frame = rampFrame();
      const bad: [object, RegExp][] = [
        [{ x: W, y: 0, width: 10, height: 10, outside: 'pad' }, /does not overlap the 50x40/],
        [{ x: -20, y: 0, width: 20, height: 10, outside: 'pad' }, /does not overlap/],
        [{ x: 0, y: 0, width: NaN, height: 10, outside: 'pad' }, /not finite/],
        [{ x: 0, y: 0, width: 1e12, height: 10, outside: 'pad' }, /too large/],
        [{ x: -1, y: 0, width: 10, height: 10 }, /is empty or outside the 50x40 frame/],
        [{ x: 0.5, y: 0, width: 10, height: 10 }, /is empty or outside/],
        [{ x: 0, y: 0, width: 10, height: 10, outside: 'wrap' }, /roi\.outside must be/],
      ];
      for (const [roi, pattern] of bad) {
        await assert.rejects(
          s.run(frame, roi as never),
          (e: unknown) =>
            e instanceof EngineError && e.code === 'ERR_ROI_INVALID' && pattern.test(e.message),
          JSON.stringify(roi),
        );
      }
    } finally {
      s.dispose();
    }
  });

  it('runMany: every crop of a frame in one call, each as its own run() gives it', async () => {
    const s = await EngineSession.load({
      threads: 1,
      model: model('id_dynamic.onnx'),
      preprocess: { width: IN_W, height: IN_H, resize: 'stretch', padValue: 77 },
    });
    try {
      const frame = rampFrame();
      const regions = Object.values(EDGE_BOXES).map((box) => ({
        ...planHrnetCrop(box, W, H, { inputWidth: IN_W, inputHeight: IN_H }).region,
        outside: 'pad' as const,
      }));
      regions.push({ x: 10, y: 5, width: 24, height: 32, outside: 'reject' as never });
      const many = await s.runMany(frame, regions);
      assert.equal(many.length, regions.length);
      for (const [i, roi] of regions.entries()) {
        const one = await s.run(frame, roi);
        assert.deepEqual(many[i]!.transform, one.transform, `crop ${i}: transform`);
        const a = many[i]!.outputs[0]!.data as Float32Array;
        const b = one.outputs[0]!.data as Float32Array;
        assert.ok(Buffer.from(a.buffer).equals(Buffer.from(b.buffer)), `crop ${i}: pixels`);
        assert.ok(many[i]!.timings.preprocessMs > 0, `crop ${i}: its own preprocessing time`);
      }
      // One hand-over: only the first crop waited for the worker.
      assert.ok(many.slice(1).every((r) => r.timings.queueMs === 0));
      assert.deepEqual(await s.runMany(frame, []), []);
      // One region that does not fit rejects the call, as run() would, naming the fault.
      await assert.rejects(
        s.runMany(frame, [regions[0]!, { x: W, y: 0, width: 10, height: 10, outside: 'pad' }]),
        (e: unknown) =>
          e instanceof EngineError &&
          e.code === 'ERR_ROI_INVALID' &&
          /does not overlap/.test(e.message),
      );
      // A session is usable after a rejected call, and one call at a time.
      const first = s.runMany(frame, regions);
      await assert.rejects(
        s.runMany(frame, regions),
        (e: unknown) => e instanceof EngineError && e.code === 'ERR_BUSY',
      );
      assert.equal((await first).length, regions.length);
    } finally {
      s.dispose();
    }
  });
});
