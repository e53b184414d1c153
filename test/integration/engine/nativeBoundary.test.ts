/**
 * The addon's own contract, called through nativeAddon() with hand-built objects: required keys
 * (no silent defaults), one way of reporting faults from run(), the encodings it accepts, and
 * float16 outputs.
 */
import * as assert from 'node:assert/strict';
import { EngineSession } from '../../../src/engine/engineSession';
import type {
  NativeFrame,
  NativeLoadOptions,
  NativeSession,
} from '../../../src/engine/nativeAddon';
import { ADDON_PATH, nativeAddon } from '../../../src/engine/nativeAddon';
import {
  encodingLayout,
  IMAGE_ENCODINGS,
  requiredDataBytes,
} from '../../../src/core/imageEncoding';
import { convOptions, model, pattern } from './engineFixtures';

/** Resolves to the rejection of `p`, failing if it resolves. */
async function rejection(p: Promise<unknown>): Promise<Error & { code?: string }> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof Error, `expected an Error, got ${String(e)}`);
    return e;
  }
  return assert.fail('expected a rejection');
}

function frame(encoding: string, width = 8, height = 8): NativeFrame {
  return {
    data: pattern(width * height * 4, 5),
    width,
    height,
    step: width * 4,
    encoding,
  };
}

describe('native addon boundary', function () {
  this.timeout(60000);

  it("mallocUsage() reads glibc's own figures: a 32 MiB buffer shows as mmapped memory", () => {
    const addon = nativeAddon();
    const before = addon.mallocUsage();
    if (ADDON_PATH.includes('engine-asan')) {
      // ASan's allocator replaces glibc's: the addon says it does not know.
      assert.equal(before, null);
      return;
    }
    assert.ok(before, 'glibc: figures expected');
    assert.ok(before.inUseBytes > 0 && before.freeBytes >= 0, JSON.stringify(before));
    // Node allocates a buffer's memory with calloc: above the mmap threshold, a mapping of its own.
    const big = Buffer.alloc(32 * 1024 * 1024, 1);
    const after = addon.mallocUsage()!;
    assert.ok(
      after.mmappedBytes - before.mmappedBytes >= 32 * 1024 * 1024,
      `${before.mmappedBytes} -> ${after.mmappedBytes}`,
    );
    assert.equal(big[big.length - 1], 1);
  });

  describe('loadSession reads every key as the type it must be', () => {
    it('loads from a complete hand-built object', async () => {
      const s = await nativeAddon().loadSession(convOptions());
      assert.equal(s.info().inputs[0]!.name, 'images');
      s.dispose();
    });

    const cases: [string, (o: Record<string, unknown>) => void, string, RegExp][] = [
      [
        'a renamed key (padValue -> pad_value)',
        (o) => {
          const pre = o.preprocess as Record<string, unknown>;
          pre.pad_value = pre.padValue;
          delete pre.padValue;
        },
        'TypeError',
        /^options\.preprocess\.padValue: expected number$/,
      ],
      [
        'a mistyped key',
        (o) => {
          (o.preprocess as Record<string, unknown>).padValue = '114';
        },
        'TypeError',
        /^options\.preprocess\.padValue: expected number$/,
      ],
      [
        'a missing nullable key',
        (o) => {
          delete o.qnn;
        },
        'TypeError',
        /^options\.qnn: expected object or null, got undefined$/,
      ],
      [
        'a missing map',
        (o) => {
          delete o.freeDimensions;
        },
        'TypeError',
        /^options\.freeDimensions: expected object$/,
      ],
      [
        'a value outside its set',
        (o) => {
          (o.input as Record<string, unknown>).layout = 'auto';
        },
        'RangeError',
        /^options\.input\.layout: expected nchw\|nhwc, got 'auto'$/,
      ],
      [
        'a peaks layout outside its set',
        (o) => {
          o.outputPeaks = { output: 'out', layout: 'NHWC' };
        },
        'RangeError',
        /^options\.outputPeaks\.layout: expected nchw\|nhwc, got 'NHWC'$/,
      ],
      [
        'an integer input without quantization',
        (o) => {
          (o.input as Record<string, unknown>).elementType = 2;
        },
        'TypeError',
        /^options\.preprocess\.quantization: expected object for a uint8 or int8 input, got null$/,
      ],
    ];
    for (const [title, mutate, name, re] of cases) {
      it(`rejects ${title}, naming the key path`, async () => {
        const o = convOptions() as unknown as Record<string, unknown>;
        mutate(o);
        let p: Promise<unknown> | undefined;
        assert.doesNotThrow(() => {
          p = nativeAddon().loadSession(o as unknown as NativeLoadOptions);
        });
        const e = await rejection(p!);
        assert.equal(e.name, name);
        assert.equal(e.code, 'ERR_INVALID_OPTIONS');
        assert.match(e.message, re);
      });
    }
  });

  describe('run reports every fault as a rejection', () => {
    let s: NativeSession;
    before(async () => {
      s = await nativeAddon().loadSession(convOptions());
    });
    after(() => s.dispose());

    const faults: [string, () => Promise<unknown>, string, string, RegExp][] = [
      [
        'no frame object',
        () => s.run(undefined as unknown as NativeFrame, null, {}),
        'TypeError',
        'ERR_FRAME_INVALID',
        /^frame: expected object$/,
      ],
      [
        'frame.data not a Uint8Array',
        () => s.run({ ...frame('rgb8'), data: [1, 2] as unknown as Uint8Array }, null, {}),
        'TypeError',
        'ERR_FRAME_INVALID',
        /^frame\.data: expected Uint8Array$/,
      ],
      [
        'a mistyped width',
        () => s.run({ ...frame('rgb8'), width: '8' as unknown as number }, null, {}),
        'TypeError',
        'ERR_FRAME_INVALID',
        /^frame\.width: expected number$/,
      ],
      [
        'a mistyped roi',
        () => s.run(frame('rgb8'), { x: 0, y: 0, width: 4 } as never, {}),
        'TypeError',
        'ERR_ROI_INVALID',
        /^roi\.height: expected number$/,
      ],
      [
        'an unknown roi.outside',
        () =>
          s.run(frame('rgb8'), { x: 0, y: 0, width: 4, height: 4, outside: 'wrap' } as never, {}),
        'RangeError',
        'ERR_ROI_INVALID',
        /^roi\.outside: expected reject\|pad, got 'wrap'$/,
      ],
      [
        'a pad roi far outside the frame, checked on the worker without overflow',
        () =>
          s.run(
            frame('rgb8'),
            { x: 1e300, y: -1e300, width: 1e300, height: 4, outside: 'pad' },
            {},
          ),
        'Error',
        'ERR_ROI_INVALID',
        /is empty, too large or does not overlap/,
      ],
      [
        'runMany without a list of regions',
        () => s.runMany(frame('rgb8'), null as never, {}),
        'Error',
        'ERR_ROI_INVALID',
        /^runMany\(frame, rois\): rois: expected a non-empty array$/,
      ],
      [
        'runMany with a mistyped region',
        () => s.runMany(frame('rgb8'), [null, { x: 0, y: 0, width: 4 }] as never, {}),
        'TypeError',
        'ERR_ROI_INVALID',
        /^roi\.height: expected number$/,
      ],
      [
        'runMany with a region that fails on the worker, after one that runs',
        () =>
          s.runMany(
            frame('rgb8'),
            [null, { x: 0.5, y: 0, width: 2, height: 2, outside: 'reject' }],
            {},
          ),
        'Error',
        'ERR_ROI_INVALID',
        /not whole pixels/,
      ],
      [
        'a fractional roi without pad, checked on the worker',
        () => s.run(frame('rgb8'), { x: 0.5, y: 0, width: 2, height: 2, outside: 'reject' }, {}),
        'Error',
        'ERR_ROI_INVALID',
        /not whole pixels/,
      ],
      [
        'a bad geometry found on the worker',
        () => s.run({ ...frame('rgb8'), step: 4 }, null, {}),
        'Error',
        'ERR_FRAME_INVALID',
        /step 4/,
      ],
    ];
    for (const [title, call, name, code, re] of faults) {
      it(title, async () => {
        let p: Promise<unknown> | undefined;
        assert.doesNotThrow(() => {
          p = call();
        });
        const e = await rejection(p!);
        assert.equal(e.name, name);
        assert.equal(e.code, code);
        assert.match(e.message, re);
      });
    }

    it('accepts exactly the encodings of src/core/imageEncoding.ts', async () => {
      for (const encoding of IMAGE_ENCODINGS) {
        const step = 8 * encodingLayout(encoding).rowBytesPerPixel;
        const data = pattern(requiredDataBytes(encoding, step, 8), 9);
        const r = await s.run({ data, width: 8, height: 8, step, encoding }, null, {});
        assert.equal(r.length, 3, encoding); // the numbers, then the model's two outputs
      }
      // "uyvy" and "yuv422_yuy2" are aliases TypeScript resolves; the addon takes canonical names.
      for (const alias of ['uyvy', 'yuv422_yuy2', 'rgb16']) {
        const e = await rejection(s.run(frame(alias), null, {}));
        assert.equal(e.name, 'RangeError');
        assert.equal(e.code, 'ERR_FRAME_INVALID');
        assert.match(e.message, new RegExp(`^frame\\.encoding: expected .*, got '${alias}'$`));
      }
    });
  });

  it('reports a float16 output as float16, its values widened to a Float32Array', async () => {
    const s = await EngineSession.load({
      model: model('cast_f16.onnx'),
      preprocess: { resize: 'stretch' },
    });
    try {
      assert.deepEqual(
        s.outputs.map((o) => [o.name, o.type]),
        [['half', 'float16']],
      );
      const data = pattern(8 * 8 * 3, 11);
      const r = await s.run({ data, width: 8, height: 8, step: 24, encoding: 'rgb8' });
      const out = r.outputs[0]!;
      assert.ok(out.data instanceof Float32Array);
      assert.deepEqual([...out.dims], [1, 3, 8, 8]);
      // Same size as the model: every value is one pixel / 255, within float16 precision.
      let worst = 0;
      for (let c = 0; c < 3; c++) {
        for (let i = 0; i < 64; i++) {
          worst = Math.max(worst, Math.abs(out.data[c * 64 + i]! - data[i * 3 + c]! / 255));
        }
      }
      assert.ok(worst < 1e-3, `max |diff| ${worst}`);
    } finally {
      s.dispose();
    }
  });
});
