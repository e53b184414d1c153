/**
 * INT8 QDQ graphs fed quantized bytes (foldInputQuantize + prepareEngineOptions) against the same
 * graphs fed float, through the real addon and ONNX Runtime, on the CPU and on the QNN HTP
 * simulator.
 *
 * What "identical within one quantization step" means here, exactly: the float path hands ORT
 * float32 values v, and its QuantizeLinear computes saturate(rint(v / scale) + zeroPoint) (MLAS:
 * float32 division, round half to even). The fused preprocessing computes the same v with the
 * same float32 operations and quantizes with the same formula, so the quantized tensor is the
 * same bit for bit (0 steps apart, ties included) and every later node sees identical input. The
 * tests assert that equality: on the dequantized input itself (a Quantize -> Dequantize graph,
 * with a scale that puts half the pixels on a .5 tie) and on the real detector's raw output.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DEFAULT_QNN_LIBRARY } from '../../../src/engine/engineOptions';
import type { EngineOptionsInput } from '../../../src/engine/engineOptions';
import { EngineSession } from '../../../src/engine/engineSession';
import { type Frame } from '../../../src/core/frame';
import { foldInputQuantize } from '../../../src/model/foldInputQuantize';
import { tinyQdqModelBytes } from '../../../src/model/tinyQdqModel';
import { ModelPipeline } from '../../../src/pipeline/modelPipeline';
import type { RuntimeChoices } from '../../../src/pipeline/runtimeChoices';
import { modelProto, nodeProto, ONNX_FLOAT, valueInfoProto } from '../../../src/model/onnxWriter';
import { inputQdqModel, type InputQdqOptions } from '../../support/inputQdqModel';
import { tempDir } from '../../support/tempDir';
import { repoPath } from '../../support/paths';
import { photoFrame } from '../../support/photos';

const FALL = repoPath('models', 'yolov8-fall', 'yolov8s-fall.manifest.json');

function patternFrame(width: number, height: number, seed: number): Frame {
  const data = new Uint8Array(width * height * 3);
  let s = seed >>> 0;
  for (let i = 0; i < data.length; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    data[i] = s >>> 24;
  }
  return { data, width, height, step: width * 3, encoding: 'rgb8' };
}

/** Elements that differ, and the largest difference. */
function compare(a: ArrayLike<number>, b: ArrayLike<number>): { differ: number; worst: number } {
  assert.equal(a.length, b.length);
  let differ = 0;
  let worst = 0;
  for (let i = 0; i < a.length; i++) {
    const d = Math.abs(a[i]! - b[i]!);
    if (d !== 0) differ++;
    worst = Math.max(worst, d);
  }
  return { differ, worst };
}

type Preprocess = NonNullable<EngineOptionsInput['preprocess']>;

/** The float model and its folded twin, as files, with the engine options for each. */
function bothPaths(
  bytes: Uint8Array,
  preprocess: NonNullable<EngineOptionsInput['preprocess']>,
): { float: EngineOptionsInput; quantized: EngineOptionsInput } {
  const dir = tempDir('htp-qin-');
  const floatFile = path.join(dir, 'float.onnx');
  const quantizedFile = path.join(dir, 'quantized.onnx');
  fs.writeFileSync(floatFile, bytes);
  const r = foldInputQuantize(bytes);
  assert.ok(r.folded, r.folded ? '' : r.reason);
  fs.writeFileSync(quantizedFile, r.bytes);
  return {
    float: { model: floatFile, threads: 1, preprocess },
    quantized: {
      model: quantizedFile,
      threads: 1,
      preprocess: { ...preprocess, inputQuantization: r.quantization },
    },
  };
}

async function runBoth(
  o: { float: EngineOptionsInput; quantized: EngineOptionsInput },
  frame: Frame,
): Promise<{ a: Float32Array; b: Float32Array; types: string[] }> {
  const f = await EngineSession.load(o.float);
  const q = await EngineSession.load(o.quantized);
  try {
    const [ra, rb] = [await f.run(frame), await q.run(frame)];
    return {
      a: ra.outputs[0]!.data as Float32Array,
      b: rb.outputs[0]!.data as Float32Array,
      types: [f.inputSpec.type, q.inputSpec.type],
    };
  } finally {
    f.dispose();
    q.dispose();
  }
}

describe('quantized input for INT8 QDQ graphs (input QuantizeLinear folded into preprocessing)', function () {
  this.timeout(300_000);
  const W = 40;
  const H = 30;
  const frame = patternFrame(57, 43, 7);

  const cases: { title: string; model: Partial<InputQdqOptions>; preprocess: Preprocess }[] = [
    {
      // std 1 and scale 2: every odd pixel value lands on a .5 tie (half to even decides).
      title: 'uint8, ties on every odd pixel',
      model: { scale: 2, zeroPoint: { type: 'uint8', value: 0 } },
      preprocess: { resize: 'stretch', roundPixels: true, std: [1, 1, 1] },
    },
    {
      title: 'uint8, ImageNet mean/std, fractional bilinear values, letterbox pad',
      model: { scale: 0.0186584, zeroPoint: { type: 'uint8', value: 114 } },
      preprocess: { mean: [123.675, 116.28, 103.53], std: [58.395, 57.12, 57.375] },
    },
    {
      title: 'int8 with a negative zero point, values past both ends saturate',
      model: { scale: 0.0123, zeroPoint: { type: 'int8', value: -3 } },
      preprocess: { resize: 'stretch', mean: [128, 128, 128], std: [64, 64, 64] },
    },
  ];
  for (const c of cases) {
    it(`feeds the exact tensor ORT's QuantizeLinear makes: ${c.title}`, async () => {
      const bytes = inputQdqModel({
        scale: 1,
        zeroPoint: 'none',
        width: W,
        height: H,
        ...c.model,
      });
      const { a, b, types } = await runBoth(
        bothPaths(bytes, { width: W, height: H, ...c.preprocess }),
        frame,
      );
      assert.deepEqual(types, [
        'float32',
        c.model.zeroPoint !== 'none' && c.model.zeroPoint?.type === 'int8' ? 'int8' : 'uint8',
      ]);
      assert.deepEqual(compare(a, b), { differ: 0, worst: 0 });
    });
  }

  it('the tie case really has ties, rounded half to even', async () => {
    const pre: Preprocess = {
      width: W,
      height: H,
      resize: 'stretch',
      roundPixels: true,
      std: [1, 1, 1],
    };
    const o = bothPaths(inputQdqModel({ scale: 2, zeroPoint: 'none', width: W, height: H }), pre);
    // An Identity graph shows the float values the preprocessing hands the float path.
    const dir = tempDir('htp-qin-id-');
    const identity = path.join(dir, 'identity.onnx');
    fs.writeFileSync(
      identity,
      modelProto({
        name: 'identity',
        producer: 'htp_perception tests',
        initializers: [],
        nodes: [nodeProto('Identity', 'id', ['images'], ['features'])],
        inputs: [valueInfoProto('images', ONNX_FLOAT, [1, 3, H, W])],
        outputs: [valueInfoProto('features', ONNX_FLOAT, [1, 3, H, W])],
      }),
    );
    const plain = await EngineSession.load({ model: identity, threads: 1, preprocess: pre });
    const q = await EngineSession.load(o.quantized);
    try {
      const v = (await plain.run(frame)).outputs[0]!.data as Float32Array;
      const deq = (await q.run(frame)).outputs[0]!.data as Float32Array;
      let ties = 0;
      for (let i = 0; i < v.length; i++) {
        const x = v[i]! / 2;
        const floor = Math.floor(x);
        const expected = x - floor === 0.5 ? (floor % 2 === 0 ? floor : floor + 1) : Math.round(x);
        if (x - floor === 0.5) ties++;
        assert.equal(deq[i]! / 2, Math.min(255, expected), `element ${i}: ${v[i]} / 2`);
      }
      assert.ok(ties > v.length / 4, `${ties} ties of ${v.length}`);
    } finally {
      plain.dispose();
      q.dispose();
    }
  });

  describe('yolov8s-fall INT8 on the CPU (real weights, real photos)', () => {
    const choices: RuntimeChoices = { provider: 'cpu', precision: 'int8', threads: 2 };
    let quantized: ModelPipeline;
    let float: ModelPipeline;
    before(async () => {
      quantized = await ModelPipeline.load(FALL, choices);
      float = await ModelPipeline.load(FALL, { ...choices, int8Input: 'float' });
    });
    after(() => {
      quantized?.dispose();
      float?.dispose();
    });

    it('takes the quantized path by default and the float path when asked', () => {
      assert.deepEqual(quantized.inputFeed, {
        fed: 'quantized',
        type: 'uint8',
        scale: Math.fround(1 / 255),
        zeroPoint: 0,
        removedNode: 'images_QuantizeLinear',
      });
      assert.equal(quantized.session.inputSpec.type, 'uint8');
      assert.deepEqual(float.inputFeed, { fed: 'float', reason: 'int8_input is float' });
      assert.equal(float.session.inputSpec.type, 'float32');
      assert.deepEqual(
        float.providerReport.nodesByProvider.CPUExecutionProvider! - 1,
        quantized.providerReport.nodesByProvider.CPUExecutionProvider,
      );
    });

    for (const photo of ['person.jpg', 'dog.jpg']) {
      it(`gives the float path's raw output bit for bit, and its detections (${photo})`, async () => {
        const f = await photoFrame(photo);
        const [a, b] = [await float.session.run(f), await quantized.session.run(f)];
        assert.deepEqual(
          compare(a.outputs[0]!.data as Float32Array, b.outputs[0]!.data as Float32Array),
          { differ: 0, worst: 0 },
        );
        const [ra, rb] = [await float.run(f), await quantized.run(f)];
        assert.ok(ra.task === 'detect' && rb.task === 'detect');
        assert.ok(ra.detections.length > 0, 'the detector finds something to compare');
        assert.deepEqual(rb.detections, ra.detections);
      });
    }
  });

  describe('on the QNN HTP simulator', () => {
    before(function () {
      if (!(os.platform() === 'linux' && os.arch() === 'x64')) this.skip();
      assert.ok(fs.existsSync(DEFAULT_QNN_LIBRARY), `${DEFAULT_QNN_LIBRARY} missing`);
    });

    it('the tiny QDQ conv: the input quantize leaves the CPU, the output is unchanged', async () => {
      const o = bothPaths(tinyQdqModelBytes(), {});
      const f = await EngineSession.load({ ...o.float, provider: 'htp' });
      const q = await EngineSession.load({ ...o.quantized, provider: 'htp' });
      try {
        assert.deepEqual(f.providerReport.cpuNodes.map((n) => n.opType).sort(), [
          'DequantizeLinear',
          'QuantizeLinear',
        ]);
        assert.deepEqual(
          q.providerReport.cpuNodes.map((n) => n.opType),
          ['DequantizeLinear'],
        );
        assert.equal(q.inputSpec.type, 'uint8');
        const small = patternFrame(16, 16, 3);
        const [a, b] = [await f.run(small), await q.run(small)];
        assert.deepEqual(
          compare(a.outputs[0]!.data as Float32Array, b.outputs[0]!.data as Float32Array),
          { differ: 0, worst: 0 },
        );
      } finally {
        f.dispose();
        q.dispose();
      }
    });

    it('yolov8s-fall INT8: no QuantizeLinear on the CPU, same raw output as the float path (one frame)', async () => {
      const htp: RuntimeChoices = { provider: 'htp', precision: 'int8', threads: 1 };
      const q = await ModelPipeline.load(FALL, htp);
      const f = await ModelPipeline.load(FALL, { ...htp, int8Input: 'float' });
      try {
        const cpuOps = (p: ModelPipeline): string[] =>
          p.providerReport.cpuNodes.filter((n) => n.opType === 'QuantizeLinear').map((n) => n.name);
        assert.deepEqual(cpuOps(f), ['images_QuantizeLinear']);
        assert.deepEqual(cpuOps(q), []);
        assert.equal(q.inputFeed.fed, 'quantized');
        const frame640 = await photoFrame('person.jpg');
        const [a, b] = [await f.session.run(frame640), await q.session.run(frame640)];
        assert.deepEqual(
          compare(a.outputs[0]!.data as Float32Array, b.outputs[0]!.data as Float32Array),
          { differ: 0, worst: 0 },
        );
      } finally {
        q.dispose();
        f.dispose();
      }
    });
  });
});
