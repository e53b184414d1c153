/**
 * Fused preprocessing against an independent numpy reference (tools/engine/reference.py).
 * Identity models return exactly what the preprocessing produced.
 * Tolerance: float outputs within 1e-3 absolute (float32 vs float64 arithmetic); quantized outputs
 * within 1 step (rounding of values that land on .5 can differ).
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Frame, FrameEncoding } from '../../../src/core/frame';
import { EngineSession } from '../../../src/engine/engineSession';
import type { EngineOptionsInput } from '../../../src/engine/engineOptions';
import { model, reference } from './engineFixtures';
import { makeFrame, preprocessCases } from './preprocessCases';
import { modelProto, nodeProto, ONNX_UINT8, valueInfoProto } from '../../../src/model/onnxWriter';

function asNumbers(data: ArrayLike<number>): number[] {
  return Array.from(data);
}

describe('engine preprocessing vs numpy reference', function () {
  this.timeout(60000);
  const all = preprocessCases();
  let refs: ReturnType<typeof reference>;

  before(() => {
    refs = reference(all.map((c) => ({ frame: c.frame, roi: c.roi, spec: c.spec })));
  });

  all.forEach((c, i) => {
    it(c.title, async () => {
      const s = await EngineSession.load({ threads: 1, ...c.options });
      try {
        const r = await s.run(c.frame, c.roi);
        const ref = refs[i]!;
        const got = r.outputs[0]!;
        assert.deepEqual([...got.dims], ref.dims);
        let expected: number[];
        if (c.spec.type === 'float32') {
          expected = asNumbers(
            new Float32Array(ref.data.buffer, ref.data.byteOffset, ref.data.byteLength / 4),
          );
        } else if (c.spec.type === 'int8') {
          expected = asNumbers(
            new Int8Array(ref.data.buffer, ref.data.byteOffset, ref.data.byteLength),
          );
        } else {
          expected = asNumbers(
            new Uint8Array(ref.data.buffer, ref.data.byteOffset, ref.data.byteLength),
          );
        }
        const actual = asNumbers(got.data as ArrayLike<number>);
        assert.equal(actual.length, expected.length);
        const tol = c.spec.type === 'float32' ? 1e-3 : 1;
        let worst = 0;
        for (let k = 0; k < actual.length; k++)
          worst = Math.max(worst, Math.abs(actual[k]! - expected[k]!));
        assert.ok(worst <= tol, `max |diff| ${worst} > ${tol}`);
        const t = r.transform;
        assert.ok(Math.abs(t.scaleX - ref.transform.scaleX) < 1e-9);
        assert.ok(Math.abs(t.scaleY - ref.transform.scaleY) < 1e-9);
        assert.equal(t.padX, ref.transform.padX);
        assert.equal(t.padY, ref.transform.padY);
        assert.deepEqual(
          t.crop,
          c.roi ?? { x: 0, y: 0, width: c.frame.width, height: c.frame.height },
        );
        assert.equal(t.srcWidth, c.frame.width);
        assert.equal(t.dstWidth, c.spec.width);
      } finally {
        s.dispose();
      }
    });
  });
});

describe('engine preprocessing: roundPixels', function () {
  this.timeout(60000);
  it('rounds every resampled pixel to an integer before normalizing, and only the resampled ones', async () => {
    const frame = makeFrame('rgb8', 37, 29, 11);
    const run = async (roundPixels: boolean): Promise<Float32Array> => {
      const s = await EngineSession.load({
        threads: 1,
        model: model('id_f32_nchw.onnx'),
        preprocess: { mean: [0, 0, 0], std: [1, 1, 1], roundPixels },
      });
      try {
        return (await s.run(frame)).outputs[0]!.data as Float32Array;
      } finally {
        s.dispose();
      }
    };
    const exact = await run(false);
    const rounded = await run(true);
    assert.equal(rounded.length, exact.length);
    let changed = 0;
    for (let k = 0; k < exact.length; k++) {
      assert.equal(rounded[k], Math.floor(exact[k]! + 0.5), `value ${k}`);
      if (rounded[k] !== exact[k]) changed++;
    }
    assert.ok(changed > 0, 'a non-integer scale must produce fractional pixels to round');
  });
});

/**
 * On the source grid (1:1 or 1:2 per axis) packed 8-bit colour frames are read straight from
 * their bytes (native/src/kernels/exact_grid_rows.cc). The promise is bit-identity with the general
 * separable bilinear path, which `exactGrid: false` forces: every output byte compared.
 */
describe('engine preprocessing on the source grid: bit-identical to the general path', function () {
  this.timeout(120000);
  type Out = { model: string; preprocess: EngineOptionsInput['preprocess'] };
  // uint8 NCHW with the identity quantization (scale 1/255, zero 0), as YOLO QDQ inputs are fed:
  // the levels are copied into the planes as they are. Written here, removed after.
  let dir = '';
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'exact-grid-'));
    fs.writeFileSync(
      path.join(dir, 'id_u8_nchw.onnx'),
      modelProto({
        name: 'id_u8_nchw',
        producer: 'htp_perception tests',
        initializers: [],
        nodes: [nodeProto('Identity', 'id', ['images'], ['out'])],
        inputs: [valueInfoProto('images', ONNX_UINT8, [1, 3, 24, 40])],
        outputs: [valueInfoProto('out', ONNX_UINT8, [1, 3, 24, 40])],
      }),
    );
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const outputs: Record<string, Out> = {
    'uint8 NCHW rounded, identity quantization': {
      model: 'id_u8_nchw.onnx',
      preprocess: { roundPixels: true, inputQuantization: { scale: 1 / 255, zeroPoint: 0 } },
    },
    'uint8 NCHW rounded, identity quantization, BGR': {
      model: 'id_u8_nchw.onnx',
      preprocess: {
        roundPixels: true,
        colorOrder: 'bgr',
        inputQuantization: { scale: 1 / 255, zeroPoint: 0 },
      },
    },
    'float32 NCHW': { model: 'id_f32_nchw.onnx', preprocess: {} },
    'float32 NCHW rounded, mean/std': {
      model: 'id_f32_nchw.onnx',
      preprocess: { roundPixels: true, mean: [123.7, 116.3, 103.5], std: [58.4, 57.1, 57.4] },
    },
    // A table that is not the identity: quantized with vector arithmetic on the general path
    // (quantize_levels.cc, SSE2 or NEON), looked up on the grid.
    'uint8 NCHW rounded, mean/std quantized': {
      model: 'id_u8_nchw.onnx',
      preprocess: {
        roundPixels: true,
        mean: [123.7, 116.3, 103.5],
        std: [58.4, 57.1, 57.4],
        inputQuantization: { scale: 0.0186, zeroPoint: 114 },
      },
    },
    'uint8 NHWC rounded': { model: 'id_u8_nhwc.onnx', preprocess: { roundPixels: true } },
    'int8 NCHW rounded, BGR': {
      model: 'id_i8_nchw.onnx',
      preprocess: {
        roundPixels: true,
        colorOrder: 'bgr',
        mean: [127.5, 127.5, 127.5],
        std: [127.5, 127.5, 127.5],
        inputQuantization: { scale: 0.0078125, zeroPoint: 0 },
      },
    },
  };
  // Model input 40x24; frames whose resize lands on its grid.
  const geometries: {
    title: string;
    width: number;
    height: number;
    resize: 'letterbox' | 'stretch';
    roi?: { x: number; y: number; width: number; height: number };
  }[] = [
    { title: '1:1 letterbox with pad rows', width: 40, height: 18, resize: 'letterbox' },
    { title: '1:2 letterbox', width: 80, height: 48, resize: 'letterbox' },
    { title: '1:2 across, 1:1 down (stretch)', width: 80, height: 24, resize: 'stretch' },
    { title: '1:1 across, 1:2 down (stretch)', width: 40, height: 48, resize: 'stretch' },
    {
      title: '1:1 ROI inside a larger frame',
      width: 64,
      height: 40,
      resize: 'letterbox',
      roi: { x: 7, y: 5, width: 40, height: 24 },
    },
  ];
  const encodings: FrameEncoding[] = ['rgb8', 'bgr8', 'rgba8', 'bgra8'];

  async function run(
    o: Out,
    resize: 'letterbox' | 'stretch',
    exactGrid: boolean,
    frame: Frame,
    roi?: { x: number; y: number; width: number; height: number },
  ): Promise<Uint8Array> {
    const file = o.model === 'id_u8_nchw.onnx' ? path.join(dir, o.model) : model(o.model);
    const s = await EngineSession.load({
      threads: 1,
      model: file,
      preprocess: { ...o.preprocess, resize, exactGrid },
    });
    try {
      const data = (await s.run(frame, roi)).outputs[0]!.data as ArrayBufferView;
      return new Uint8Array(data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength));
    } finally {
      s.dispose();
    }
  }

  for (const [outTitle, o] of Object.entries(outputs)) {
    for (const g of geometries) {
      it(`${g.title}, ${outTitle}, every packed encoding`, async () => {
        for (const [k, enc] of encodings.entries()) {
          const frame = makeFrame(enc, g.width, g.height, 40 + k);
          const fast = await run(o, g.resize, true, frame, g.roi);
          const general = await run(o, g.resize, false, frame, g.roi);
          assert.equal(fast.length, general.length);
          assert.ok(Buffer.from(fast).equals(Buffer.from(general)), `${enc}: bytes differ`);
        }
      });
    }
  }

  // A session writes the padding of its input only when the sampled rectangle changes
  // (native/src/kernels/preprocess.h, PaddedRect): one session fed frames whose padding differs, and back,
  // must give the bytes a fresh session gives for each.
  for (const outTitle of ['uint8 NCHW rounded, identity quantization', 'float32 NCHW']) {
    it(`one session, padding that changes from frame to frame: ${outTitle}`, async () => {
      const o = outputs[outTitle]!;
      const file = o.model === 'id_u8_nchw.onnx' ? path.join(dir, o.model) : model(o.model);
      const sequence: {
        width: number;
        height: number;
        roi?: { x: number; y: number; width: number; height: number };
      }[] = [
        { width: 40, height: 18 }, // pad rows
        { width: 40, height: 18 }, // the same rectangle: padding kept
        { width: 30, height: 24 }, // pad columns, where rows were sampled before
        { width: 80, height: 48 }, // no padding at all
        { width: 40, height: 18 },
        { width: 64, height: 40, roi: { x: 7, y: 5, width: 20, height: 24 } },
        { width: 33, height: 17 }, // off the grid
        { width: 40, height: 18 },
      ];
      const s = await EngineSession.load({
        threads: 1,
        model: file,
        preprocess: { ...o.preprocess, resize: 'letterbox' },
      });
      try {
        for (const [k, g] of sequence.entries()) {
          const frame = makeFrame('rgb8', g.width, g.height, 90 + k);
          const data = (await s.run(frame, g.roi)).outputs[0]!.data as ArrayBufferView;
          const got = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
          const fresh = await run(o, 'letterbox', true, frame, g.roi);
          assert.ok(got.equals(Buffer.from(fresh)), `frame ${k} (${g.width}x${g.height}) differs`);
        }
      } finally {
        s.dispose();
      }
    });
  }

  it('1:1 is the source bytes themselves (float32, scale 1/255), padding included', async () => {
    const frame = makeFrame('rgb8', 40, 18, 77);
    const s = await EngineSession.load({
      threads: 1,
      model: model('id_f32_nchw.onnx'),
      preprocess: { mean: [0, 0, 0], std: [1, 1, 1] },
    });
    try {
      const got = (await s.run(frame)).outputs[0]!.data as Float32Array;
      // 40x18 in 40x24: three pad rows above, three below.
      for (let c = 0; c < 3; c++) {
        for (let y = 0; y < 24; y++) {
          for (let x = 0; x < 40; x++) {
            const v = got[c * 24 * 40 + y * 40 + x];
            const sy = y - 3;
            const want = sy < 0 || sy >= 18 ? 114 : frame.data[sy * frame.step + x * 3 + c];
            assert.equal(v, want, `c${c} (${x}, ${y})`);
          }
        }
      }
    } finally {
      s.dispose();
    }
  });

  it('camera size: 1280x720 -> letterbox 640x640 (1:2), float32', async () => {
    const frame = makeFrame('rgb8', 1280, 720, 13);
    const o = {
      model: 'id_dynamic.onnx',
      preprocess: { width: 640, height: 640, roundPixels: true },
    };
    const fast = await run(o, 'letterbox', true, frame);
    const general = await run(o, 'letterbox', false, frame);
    assert.ok(Buffer.from(fast).equals(Buffer.from(general)), 'bytes differ');
  });
});
