/**
 * The engine's outputPeaks option: each run finds the channel peaks of one float output on its
 * worker (native/src/kernels/plane_peaks.cc), for channels-first and channels-last heatmaps. They must be
 * exactly what the HRNet head finds itself (the same value, the first index on ties, NaN never
 * winning, -Infinity and 0 for a channel without a number), so the head's keypoints do not change
 * with where the peaks were found. A bad option fails the load with a message naming the output.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { EngineError } from '../../../src/core/engineError';
import type { Frame } from '../../../src/core/frame';
import type { ImageTransform, Tensor } from '../../../src/core/tensor';
import { EngineSession } from '../../../src/engine/engineSession';
import { decodeHrnetHeatmaps } from '../../../src/families/hrnet/decodeHrnetHeatmaps';
import { planePeaksJs } from '../../../src/heads/outputKernelsJs';
import {
  intAttribute,
  modelProto,
  nodeProto,
  ONNX_FLOAT,
  tensorProto,
  valueInfoProto,
} from '../../../src/model/onnxWriter';

const ONNX_INT64 = 7;
const ONNX_UINT8 = 2;
const SIDE = 8;

function int64s(values: readonly number[]): number[] {
  const b = Buffer.alloc(values.length * 8);
  values.forEach((v, i) => b.writeBigInt64LE(BigInt(v), i * 8));
  return [...b];
}

/**
 * A model whose output `heatmaps` is `values` (shape `dims`) plus -0 times one input value (the
 * input is really fed, and x + (-0) keeps every x); `uint8` casts it to uint8 instead.
 */
function fixedOutputModel(
  dims: readonly number[],
  values: Float32Array,
  uint8 = false,
): Uint8Array {
  const rank = dims.length;
  return modelProto({
    name: 'fixed_heatmaps',
    producer: 'htp_perception tests',
    initializers: [
      tensorProto('starts', ONNX_INT64, [4], int64s([0, 0, 0, 0])),
      tensorProto('ends', ONNX_INT64, [4], int64s([1, 1, 1, 1])),
      // x + (-0) is x for every x, -0 included: the output holds `values` exactly.
      tensorProto('zero', ONNX_FLOAT, [], [...Buffer.from(new Float32Array([-0]).buffer)]),
      tensorProto('ones', ONNX_INT64, [rank], int64s(new Array<number>(rank).fill(1))),
      tensorProto('fixed', ONNX_FLOAT, [...dims], [...Buffer.from(values.buffer)]),
    ],
    nodes: [
      nodeProto('Slice', 'one_value', ['image', 'starts', 'ends'], ['p']),
      nodeProto('Mul', 'times_zero', ['p', 'zero'], ['z4']),
      nodeProto('Reshape', 'to_rank', ['z4', 'ones'], ['z']),
      nodeProto('Add', 'plus_fixed', ['fixed', 'z'], [uint8 ? 'sum' : 'heatmaps']),
      ...(uint8
        ? [nodeProto('Cast', 'to_u8', ['sum'], ['heatmaps'], [intAttribute('to', 2)])]
        : []),
    ],
    inputs: [valueInfoProto('image', ONNX_FLOAT, [1, 3, SIDE, SIDE])],
    outputs: [valueInfoProto('heatmaps', uint8 ? ONNX_UINT8 : ONNX_FLOAT, [...dims])],
  });
}

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/**
 * Heatmaps of `items` x `joints` planes of h x w, channels-first, with the awkward planes of the
 * head's own tests planted in the first joints: ties, NaN around the peak, all NaN, all
 * -Infinity, signed zeros, a peak on the last pixel.
 */
function awkwardPlanes(items: number, joints: number, h: number, w: number): Float32Array {
  const plane = h * w;
  const r = rng(items * 100 + joints);
  const d = new Float32Array(items * joints * plane);
  for (let i = 0; i < d.length; i++) d[i] = r() * 2 - 0.5;
  const at = (b: number, k: number): Float32Array =>
    d.subarray((b * joints + k) * plane, (b * joints + k + 1) * plane);
  const roomy = plane >= 8; // room for the planted runs of values
  for (let b = 0; b < items; b++) {
    if (joints > 0 && roomy) at(b, 0).set([0.1, 5, 0.3, 5, 5], 1); // ties: the first (index 2)
    if (joints > 1 && roomy)
      at(b, 1)
        .fill(NaN)
        .set([0.2, 0.9, 0.1], 1 + b); // NaN around it
    if (joints > 2) at(b, 2).fill(NaN);
    if (joints > 3) at(b, 3).fill(-Infinity);
    if (joints > 4 && roomy) at(b, 4).fill(-1).set([-0, 0, -0], 1); // signed zeros
    if (joints > 5) at(b, 5)[plane - 1] = 9; // the last pixel
    if (joints > 6) at(b, 6).fill(0.25); // one value everywhere
  }
  return d;
}

/** The same values channels-last: [items, h, w, joints]. */
function toChannelsLast(
  d: Float32Array,
  items: number,
  joints: number,
  plane: number,
): Float32Array {
  const out = new Float32Array(d.length);
  for (let b = 0; b < items; b++) {
    for (let k = 0; k < joints; k++) {
      for (let p = 0; p < plane; p++) {
        out[(b * plane + p) * joints + k] = d[(b * joints + k) * plane + p]!;
      }
    }
  }
  return out;
}

function transform(): ImageTransform {
  return {
    srcWidth: 640,
    srcHeight: 480,
    crop: { x: 100, y: 50, width: 192, height: 256 },
    dstWidth: 192,
    dstHeight: 256,
    scaleX: 1,
    scaleY: 1,
    padX: 0,
    padY: 0,
  };
}

describe('engine outputPeaks: channel peaks found on the worker', function () {
  this.timeout(60000);
  let dir: string;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'htp-peaks-'));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  const frame: Frame = {
    data: new Uint8Array(SIDE * SIDE * 3).fill(90),
    width: SIDE,
    height: SIDE,
    step: SIDE * 3,
    encoding: 'rgb8',
  };

  async function load(
    name: string,
    dims: readonly number[],
    values: Float32Array,
    peaks?: { output: string; layout: 'NCHW' | 'NHWC' },
    uint8 = false,
  ): Promise<EngineSession> {
    const file = path.join(dir, `${name}.onnx`);
    fs.writeFileSync(file, fixedOutputModel(dims, values, uint8));
    return EngineSession.load({
      model: file,
      threads: 1,
      preprocess: { resize: 'stretch' },
      ...(peaks ? { outputPeaks: peaks } : {}),
    });
  }

  // 17 joints: four vector groups of four and one joint left for the scalar loop; 3: scalar only.
  for (const [items, joints, h, w] of [
    [2, 17, 64, 48],
    [1, 3, 5, 7],
    [3, 8, 1, 1],
  ] as const) {
    for (const layout of ['NCHW', 'NHWC'] as const) {
      it(`${layout} [${items}, ${joints} joints, ${h}x${w}]: the head's peaks and keypoints`, async () => {
        const plane = h * w;
        const nchw = awkwardPlanes(items, joints, h, w);
        const values = layout === 'NCHW' ? nchw : toChannelsLast(nchw, items, joints, plane);
        const dims = layout === 'NCHW' ? [items, joints, h, w] : [items, h, w, joints];
        const s = await load(`${layout}_${items}_${joints}`, dims, values, {
          output: 'heatmaps',
          layout,
        });
        try {
          const r = await s.run(frame);
          assert.ok(r.channelPeaks, 'the run carries the peaks');
          // The head's own scan over channels-first planes is the reference, for both layouts.
          const expected = planePeaksJs(nchw, plane);
          assert.deepEqual([...r.channelPeaks], [...expected]);
          if (joints > 4 && plane >= 8) {
            // The signed zeros' peak keeps the first one's sign.
            assert.ok(Object.is(r.channelPeaks[2 * 4], -0), 'the first zero, -0');
          }
          const tensor = r.outputs[0] as Tensor;
          const transforms = Array.from({ length: items }, transform);
          assert.deepEqual(
            decodeHrnetHeatmaps(tensor, transforms, { layout, peaks: r.channelPeaks }),
            decodeHrnetHeatmaps(tensor, transforms, { layout }),
          );
        } finally {
          s.dispose();
        }
      });
    }
  }

  it('a rank-3 output is one item; without the option, or on another rank, no peaks', async () => {
    const values = awkwardPlanes(1, 5, 4, 6);
    const three = await load('rank3', [5, 4, 6], values, { output: 'heatmaps', layout: 'NCHW' });
    const plain = await load('plain', [1, 5, 4, 6], values);
    const two = await load('rank2', [5, 24], values, { output: 'heatmaps', layout: 'NCHW' });
    try {
      assert.deepEqual([...(await three.run(frame)).channelPeaks!], [...planePeaksJs(values, 24)]);
      assert.equal((await plain.run(frame)).channelPeaks, undefined);
      assert.equal((await two.run(frame)).channelPeaks, undefined);
    } finally {
      for (const s of [three, plain, two]) s.dispose();
    }
  });

  it('every crop of runMany carries its own peaks', async () => {
    const values = awkwardPlanes(1, 17, 8, 6);
    const s = await load('many', [1, 17, 8, 6], values, { output: 'heatmaps', layout: 'NCHW' });
    try {
      const rois = [0, 1, 2].map((i) => ({ x: i, y: 0, width: 4, height: 4 }));
      const runs = await s.runMany(frame, rois);
      assert.equal(runs.length, 3);
      for (const r of runs) assert.deepEqual([...r.channelPeaks!], [...planePeaksJs(values, 48)]);
    } finally {
      s.dispose();
    }
  });

  it('fails the load for an output the model lacks, or one that is not float', async () => {
    const values = awkwardPlanes(1, 2, 3, 3);
    await assert.rejects(
      load('missing', [1, 2, 3, 3], values, { output: 'heat', layout: 'NCHW' }),
      (e: unknown) =>
        e instanceof EngineError &&
        e.code === 'ERR_INVALID_OPTIONS' &&
        /outputPeaks: the model has no output heat \(its outputs: heatmaps\)/.test(e.message),
    );
    await assert.rejects(
      load(
        'uint8',
        [1, 2, 3, 3],
        values.map(Math.abs),
        { output: 'heatmaps', layout: 'NCHW' },
        true,
      ),
      (e: unknown) =>
        e instanceof EngineError &&
        e.code === 'ERR_INVALID_OPTIONS' &&
        /output heatmaps has ONNX element type 2, not float32 or float16/.test(e.message),
    );
  });
});
