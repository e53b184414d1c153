import * as assert from 'node:assert/strict';
import { EngineError } from '../../../src/core/engineError';
import type { PackedRunResult } from '../../../src/engine/nativeAddon';
import { unpackRunResult } from '../../../src/engine/packedRunResult';

describe('unpackRunResult', () => {
  const timingsAndTransform = [
    0.5, 1.25, 3.5, 6, 640, 480, 0, 10.5, 640, 459, 640, 640, 1, 1.0025, 0, 80,
  ];

  it('reads timings, transform, and each output with its name, type and dims', () => {
    const a = new ArrayBuffer(24);
    const b = new ArrayBuffer(4);
    const packed: PackedRunResult = [
      Float64Array.from([...timingsAndTransform, 1, 3, 1, 2, 3, 7, 0, 0]),
      a,
      b,
    ];
    const r = unpackRunResult(packed, ['boxes', 'count']);
    assert.deepEqual(r.timings, { queueMs: 0.5, preprocessMs: 1.25, inferenceMs: 3.5, totalMs: 6 });
    assert.deepEqual(r.transform, {
      srcWidth: 640,
      srcHeight: 480,
      crop: { x: 0, y: 10.5, width: 640, height: 459 },
      dstWidth: 640,
      dstHeight: 640,
      scaleX: 1,
      scaleY: 1.0025,
      padX: 0,
      padY: 80,
    });
    assert.equal(r.outputs.length, 2);
    assert.deepEqual(
      r.outputs.map((o) => [o.name, o.type, o.dims]),
      [
        ['boxes', 1, [1, 2, 3]],
        ['count', 7, []],
      ],
    );
    assert.equal(r.outputs[0]!.data, a);
    assert.equal(r.outputs[1]!.data, b);
    assert.equal(r.channelPeaks, undefined);
  });

  it('reads the channel peaks after the outputs: value and index per channel', () => {
    const packed: PackedRunResult = [
      Float64Array.from([...timingsAndTransform, 1, 2, 2, 6, 2, 0.75, 4, -Infinity, 0]),
      new ArrayBuffer(48),
    ];
    const r = unpackRunResult(packed, ['heatmaps']);
    assert.deepEqual([...r.channelPeaks!], [0.75, 4, -Infinity, 0]);
    assert.deepEqual(r.outputs[0]!.dims, [2, 6]);
  });

  it('refuses a result whose outputs or numbers do not match the session', () => {
    const nums = Float64Array.from([...timingsAndTransform, 1, 1, 4, 0]);
    assert.throws(
      () => unpackRunResult([nums, new ArrayBuffer(16)], ['a', 'b']),
      (e: unknown) =>
        e instanceof EngineError &&
        e.code === 'ERR_RUNTIME' &&
        /returned 1 output\(s\) for a model with 2/.test(e.message),
    );
    assert.throws(
      () => unpackRunResult([Float64Array.from([...nums, 9]), new ArrayBuffer(16)], ['a']),
      (e: unknown) => e instanceof EngineError && /numbers end at 21, not 20/.test(e.message),
    );
    // More peaks announced than the numbers hold.
    const short = Float64Array.from([...timingsAndTransform, 1, 1, 4, 3, 0.5, 1]);
    assert.throws(
      () => unpackRunResult([short, new ArrayBuffer(16)], ['a']),
      (e: unknown) => e instanceof EngineError && /numbers end at 22, not 26/.test(e.message),
    );
  });
});
