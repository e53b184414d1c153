/**
 * Batched runs (issue 44 item 3): a batch-N copy made by rebatchOnnxModel, or a model with a
 * symbolic batch pinned to N, run once on N frames must give each frame what a batch-1 session
 * gives it alone. The identity models return the preprocessed input itself, so a frame written
 * into the wrong slot, a slot's stale letterbox padding, or an output split at the wrong offset
 * shows as different bytes.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Buffer } from 'node:buffer';
import type { Frame, FrameEncoding } from '../../../src/core/frame';
import type { TensorData } from '../../../src/core/tensor';
import { EngineSession, type RunResult } from '../../../src/engine/engineSession';
import type { EngineOptionsInput } from '../../../src/engine/engineOptions';
import { rebatchOnnxModel } from '../../../src/model/rebatchOnnxModel';
import {
  int64Raw,
  ONNX_INT64,
  modelProto,
  nodeProto,
  ONNX_FLOAT,
  tensorProto,
  valueInfoProto,
} from '../../../src/model/onnxWriter';
import { tempDir } from '../../support/tempDir';
import { model } from './engineFixtures';
import { makeFrame } from './preprocessCases';

/** Frames of other sizes and encodings than their neighbours: each slot letterboxes its own way. */
const FRAMES: [FrameEncoding, number, number][] = [
  ['rgb8', 64, 40],
  ['yuyv', 32, 20],
  ['bgr8', 80, 20],
  ['nv12', 40, 24],
  ['rgb8', 80, 48],
  ['mono8', 120, 24],
];

function bytesOf(d: TensorData): Buffer {
  return Buffer.from(d.buffer, d.byteOffset, d.byteLength);
}

function maxDiff(a: TensorData, b: TensorData): number {
  assert.equal(a.length, b.length);
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(Number(a[i]!) - Number(b[i]!)));
  return m;
}

let dir: string;
function rebatched(source: string, batch: number): { file: string; reshapes: number } {
  const copy = rebatchOnnxModel(fs.readFileSync(source), batch);
  const file = path.join(dir, `${path.basename(source, '.onnx')}.b${batch}.onnx`);
  fs.writeFileSync(file, copy.bytes);
  return { file, reshapes: copy.reshapes };
}

/** [1,3,24,40] float -> Reshape to the constant [1, 3, -1] -> [1,3,960]: an export's view(1, C, -1). */
function reshapeModel(): string {
  const bytes = modelProto({
    name: 'reshape',
    producer: 'batchedRuns.test',
    nodes: [nodeProto('Reshape', 'flatten', ['images', 'shape'], ['flat'])],
    initializers: [tensorProto('shape', ONNX_INT64, [3], int64Raw([1, 3, -1]))],
    inputs: [valueInfoProto('images', ONNX_FLOAT, [1, 3, 24, 40])],
    outputs: [valueInfoProto('flat', ONNX_FLOAT, [1, 3, 960])],
  });
  const file = path.join(dir, 'reshape.onnx');
  fs.writeFileSync(file, bytes);
  return file;
}

/** Each frame alone through a batch-1 session of `options`. */
async function alone(options: EngineOptionsInput, frames: readonly Frame[]): Promise<RunResult[]> {
  const s = await EngineSession.load({ threads: 1, ...options });
  try {
    const out: RunResult[] = [];
    for (const f of frames) out.push(await s.run(f));
    return out;
  } finally {
    s.dispose();
  }
}

/** Runs `frames` in batches of `batch` (the last one partial) and compares slot by slot. */
async function assertBatchedEqualsAlone(
  single: EngineOptionsInput,
  batched: EngineOptionsInput,
  batch: number,
  frames: readonly Frame[],
  tolerance = 0,
): Promise<void> {
  const want = await alone(single, frames);
  const s = await EngineSession.load({ threads: 1, ...batched, batch });
  try {
    assert.equal(s.batch, batch);
    for (let at = 0; at < frames.length; at += batch) {
      const group = frames.slice(at, at + batch);
      const got = await s.runBatch(group);
      assert.equal(got.length, group.length);
      got.forEach((r, slot) => {
        const w = want[at + slot]!;
        const f = group[slot]!;
        const what = `slot ${slot} (${f.encoding} ${f.width}x${f.height})`;
        assert.deepEqual(r.transform, w.transform, what);
        r.outputs.forEach((o, i) => {
          assert.deepEqual(o.dims, w.outputs[i]!.dims, `${what}: ${o.name} dims`);
          if (tolerance === 0) {
            assert.ok(bytesOf(o.data).equals(bytesOf(w.outputs[i]!.data)), `${what}: ${o.name}`);
          } else {
            const d = maxDiff(o.data, w.outputs[i]!.data);
            assert.ok(d <= tolerance, `${what}: ${o.name} max |diff| ${d}`);
          }
        });
      });
    }
  } finally {
    s.dispose();
  }
}

const frames = (n: number, seed: number): Frame[] =>
  Array.from({ length: n }, (_, i) => {
    const [enc, w, h] = FRAMES[i % FRAMES.length]!;
    return makeFrame(enc, w, h, seed + i);
  });

describe('EngineSession batched runs', function () {
  this.timeout(60000);
  before(() => {
    dir = tempDir('htp-batched-');
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('a batch-3 copy of the float identity model gives every slot the bytes of its frame run alone', async () => {
    // 7 frames: two full batches of 3, then one of 1 (the other slots keep older frames).
    const { file } = rebatched(model('id_f32_nchw.onnx'), 3);
    await assertBatchedEqualsAlone(
      { model: model('id_f32_nchw.onnx') },
      { model: file },
      3,
      frames(7, 11),
    );
  });

  it('so does the uint8 NHWC identity model, frames swapping slots between runs', async () => {
    const { file } = rebatched(model('id_u8_nhwc.onnx'), 2);
    // The same sizes in the other slot next run: a slot keeping its last padding shows here.
    const f = frames(4, 5);
    await assertBatchedEqualsAlone({ model: model('id_u8_nhwc.onnx') }, { model: file }, 2, [
      f[0]!,
      f[1]!,
      f[1]!,
      f[0]!,
      f[2]!,
      f[3]!,
    ]);
  });

  it('a Reshape to a constant [1, C, -1] gets the batch, and the copy computes what the original does', async () => {
    const original = reshapeModel();
    const { file, reshapes } = rebatched(original, 3);
    assert.equal(reshapes, 1);
    await assertBatchedEqualsAlone({ model: original }, { model: file }, 3, frames(6, 3));
  });

  it('a convolution batched gives each slot its single-frame output', async () => {
    const { file } = rebatched(model('conv.onnx'), 4);
    await assertBatchedEqualsAlone(
      { model: model('conv.onnx') },
      { model: file },
      4,
      frames(8, 21),
      1e-5,
    );
  });

  it('a symbolic batch is pinned to the batch asked for, without a copy', async () => {
    await assertBatchedEqualsAlone(
      { model: model('qdq_dynbatch.onnx') },
      { model: model('qdq_dynbatch.onnx') },
      3,
      frames(5, 8),
    );
  });

  it('run() on a batched session uses its first slot; too many frames and a batch-1 model are refused', async () => {
    const { file } = rebatched(model('conv.onnx'), 2);
    const f = frames(3, 2);
    const [want] = await alone({ model: model('conv.onnx') }, [f[0]!]);
    const s = await EngineSession.load({ model: file, batch: 2, threads: 1 });
    try {
      const r = await s.run(f[0]!);
      assert.deepEqual(r.outputs[0]!.dims, want!.outputs[0]!.dims);
      assert.ok(maxDiff(r.outputs[0]!.data, want!.outputs[0]!.data) <= 1e-5);
      await assert.rejects(s.runBatch(f), {
        code: 'ERR_FRAME_INVALID',
        message: /3 frames for a session of batch 2/,
      });
    } finally {
      s.dispose();
    }
    await assert.rejects(EngineSession.load({ model: model('conv.onnx'), batch: 2 }), {
      code: 'ERR_INPUT_MISMATCH',
      message: /takes batch 1, not 2: .*model import MODEL --batch 2/,
    });
  });

  // QNN's HTP simulator is an x86-64 library (see htpProvider.test.ts).
  const onSimulator = os.platform() === 'linux' && os.arch() === 'x64' ? it : it.skip;
  onSimulator(
    'on the HTP simulator a batch-2 QDQ copy gives each slot what the HTP gives it alone',
    async function () {
      this.timeout(180000);
      const { file } = rebatched(model('qdq_conv.onnx'), 2);
      const htp = await EngineSession.load({ model: file, provider: 'htp', batch: 2 });
      try {
        assert.ok((htp.providerReport.nodesByProvider.QNNExecutionProvider ?? 0) > 0);
      } finally {
        htp.dispose();
      }
      const f = [16, 24, 20, 16].map((w, i) => makeFrame('rgb8', w, 16, 40 + i));
      await assertBatchedEqualsAlone(
        { model: model('qdq_conv.onnx'), provider: 'htp' },
        { model: file, provider: 'htp' },
        2,
        f,
      );
    },
  );
});
