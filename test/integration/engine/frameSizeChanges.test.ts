/**
 * A camera that changes resolution or encoding mid-stream (issue 35 item 2): one session is fed
 * frames of changing size and encoding, and each run must give the bytes a fresh session gives
 * for that frame alone. The resize is planned per call, but a session keeps the letterbox padding
 * of its previous call in its input buffer (PaddedRect) and skips writing it when the sampled
 * rectangle is the same: a stale plan or stale padding after a change shows here.
 */
import * as assert from 'node:assert/strict';
import type { Frame, FrameEncoding } from '../../../src/core/frame';
import { EngineSession } from '../../../src/engine/engineSession';
import type { EngineOptionsInput } from '../../../src/engine/engineOptions';
import { model } from './engineFixtures';
import { makeFrame } from './preprocessCases';

/** Sizes around the identity models' 40x24 input: padding on x, on y, none, the 1:1 and 1:2 grids. */
const SEQUENCE: [FrameEncoding, number, number][] = [
  ['rgb8', 64, 40],
  ['yuyv', 32, 20],
  ['bgr8', 80, 20],
  ['rgb8', 80, 48],
  ['nv12', 40, 24],
  ['rgb8', 64, 40],
  ['yuyv', 40, 40],
  ['rgb8', 64, 40],
  ['mono8', 120, 24],
  ['bgra8', 64, 40],
];

const OPTIONS: [string, EngineOptionsInput][] = [
  ['float32 NCHW', { model: model('id_f32_nchw.onnx') }],
  ['uint8 NHWC (the source-grid byte path)', { model: model('id_u8_nhwc.onnx') }],
  [
    'int8 NCHW, quantized',
    {
      model: model('id_i8_nchw.onnx'),
      preprocess: {
        mean: [127.5, 127.5, 127.5],
        std: [127.5, 127.5, 127.5],
        inputQuantization: { scale: 0.0078125, zeroPoint: 0 },
      },
    },
  ],
];

const bytesOf = (data: ArrayBufferView): Buffer =>
  Buffer.from(data.buffer, data.byteOffset, data.byteLength);

describe('engine: frames that change size and encoding between runs of one session', function () {
  this.timeout(60_000);
  for (const [title, options] of OPTIONS) {
    it(`${title}: every run equals a fresh session's, byte for byte`, async () => {
      const frames: Frame[] = SEQUENCE.map(([e, w, h], i) => makeFrame(e, w, h, 300 + i));
      const fresh = await Promise.all(
        frames.map(async (f) => {
          const s = await EngineSession.load({ threads: 1, ...options });
          try {
            return await s.run(f);
          } finally {
            s.dispose();
          }
        }),
      );
      const session = await EngineSession.load({ threads: 1, ...options });
      try {
        for (const [i, f] of frames.entries()) {
          const r = await session.run(f);
          const want = fresh[i]!;
          const what = `frame ${i}: ${f.encoding} ${f.width}x${f.height}`;
          assert.deepEqual(r.transform, want.transform, what);
          assert.ok(
            bytesOf(r.outputs[0]!.data).equals(bytesOf(want.outputs[0]!.data)),
            `${what}: the input tensor differs from a fresh session's`,
          );
        }
      } finally {
        session.dispose();
      }
    });
  }
});
