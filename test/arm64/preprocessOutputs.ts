/**
 * What the addon's preprocessing produces for a fixed set of frames, as one SHA-256 per case (the
 * output bytes and the transform), from whichever addon this process loads. Run as a program on
 * the x86-64 host by scripts/arm64.sh (`node preprocessOutputs.js OUT.json`) and imported by the
 * arm64 test, so the two architectures are compared byte for byte on the same commit.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import type { Frame, FrameEncoding, Roi } from '../../src/core/frame';
import type { EngineOptionsInput } from '../../src/engine/engineOptions';
import { EngineSession } from '../../src/engine/engineSession';
import { ADDON_PATH } from '../../src/engine/nativeAddon';
import { model } from '../integration/engine/engineFixtures';
import { makeFrame, preprocessCases } from '../integration/engine/preprocessCases';

const IMAGENET: { mean: [number, number, number]; std: [number, number, number] } = {
  mean: [123.675, 116.28, 103.53],
  std: [58.395, 57.12, 57.375],
};

interface OutputCase {
  readonly title: string;
  readonly frame: Frame;
  readonly roi?: Roi;
  readonly options: EngineOptionsInput;
}

export interface PreprocessOutputs {
  readonly arch: string;
  readonly addon: string;
  /** Case title -> SHA-256 (hex) of the output tensor's bytes and the transform. */
  readonly digests: Record<string, string>;
}

/** Paths the reference cases add to the numpy ones: exact grid on and off, rounding, the 'pad' ROI. */
function laneCases(): OutputCase[] {
  const out: OutputCase[] = preprocessCases().map((c) => ({
    title: c.title,
    frame: c.frame,
    ...(c.roi ? { roi: c.roi } : {}),
    options: c.options,
  }));
  const grids: { title: string; width: number; height: number; resize: 'letterbox' | 'stretch' }[] =
    [
      { title: '1:1 letterbox', width: 40, height: 18, resize: 'letterbox' },
      { title: '1:2 letterbox', width: 80, height: 48, resize: 'letterbox' },
      { title: '1:2 across, 1:1 down', width: 80, height: 24, resize: 'stretch' },
    ];
  const encodings: FrameEncoding[] = ['rgb8', 'bgra8', 'yuyv', 'nv12'];
  for (const g of grids) {
    for (const [k, enc] of encodings.entries()) {
      for (const exactGrid of [true, false]) {
        const frame = makeFrame(enc, g.width, g.height, 60 + k);
        const grid = `${g.title} ${enc}, exactGrid ${exactGrid}`;
        out.push({
          title: `${grid}, float32 NCHW mean/std`,
          frame,
          options: {
            model: model('id_f32_nchw.onnx'),
            preprocess: {
              resize: g.resize,
              exactGrid,
              mean: [123.7, 116.3, 103.5],
              std: [58.4, 57.1, 57.4],
            },
          },
        });
        out.push({
          title: `${grid}, uint8 NHWC rounded`,
          frame,
          options: {
            model: model('id_u8_nhwc.onnx'),
            preprocess: { resize: g.resize, exactGrid, roundPixels: true },
          },
        });
      }
    }
  }
  // Rounded levels quantized into planar uint8 / int8 off the source grid, as the segmentation
  // and top-down pose inputs are fed: the fused blend-round-quantize pass (blend_quantize.cc) with
  // its multiply (the first two) and its division (the third: a scale whose multiply differs from
  // ONNX Runtime's division on one level); widths that leave a remainder after 8 and 4 lanes.
  const quantized: { title: string; frame: Frame; roi?: Roi; options: EngineOptionsInput }[] = [
    {
      title: 'rgb8 100x75 -> stretch 83x83, uint8 NCHW rounded, mean/std, scale 0.0186 zero 114',
      frame: makeFrame('rgb8', 100, 75, 110),
      options: {
        model: model('id_u8_dynamic.onnx'),
        preprocess: {
          width: 83,
          height: 83,
          resize: 'stretch',
          roundPixels: true,
          ...IMAGENET,
          inputQuantization: { scale: 0.0186, zeroPoint: 114 },
        },
      },
    },
    {
      title: "bgr8 'pad' ROI -> 45x61, int8 NCHW rounded, BGR order",
      frame: makeFrame('bgr8', 90, 70, 111),
      roi: { x: 61.3, y: -4.6, width: 33.2, height: 44.9, outside: 'pad' },
      options: {
        model: model('id_i8_dynamic.onnx'),
        preprocess: {
          width: 45,
          height: 61,
          resize: 'stretch',
          roundPixels: true,
          colorOrder: 'bgr',
          mean: [127.5, 127.5, 127.5],
          std: [127.5, 127.5, 127.5],
          inputQuantization: { scale: 0.0078125, zeroPoint: 0 },
        },
      },
    },
    {
      title: 'nv12 120x90 -> letterbox 77x53, uint8 NCHW rounded, scale 0.01 zero 187',
      frame: makeFrame('nv12', 120, 90, 112),
      options: {
        model: model('id_u8_dynamic.onnx'),
        preprocess: {
          width: 77,
          height: 53,
          roundPixels: true,
          mean: [127.5, 127.5, 127.5],
          std: [58.4, 58.4, 58.4],
          inputQuantization: { scale: 0.01, zeroPoint: 187 },
        },
      },
    },
    // Downscales of more than 2:1 across: a block of input pixels samples wider than the vector
    // paths' windows, so they gather (AVX2 and AVX-512 alike).
    {
      title:
        'rgb8 300x40 -> stretch 64x20 (4.7:1 across), uint8 NCHW rounded, scale 0.0186 zero 114',
      frame: makeFrame('rgb8', 300, 40, 113),
      options: {
        model: model('id_u8_dynamic.onnx'),
        preprocess: {
          width: 64,
          height: 20,
          resize: 'stretch',
          roundPixels: true,
          ...IMAGENET,
          inputQuantization: { scale: 0.0186, zeroPoint: 114 },
        },
      },
    },
    {
      title: 'bgr8 250x50 -> stretch 48x16 (5.2:1 across), float32 NCHW mean/std',
      frame: makeFrame('bgr8', 250, 50, 114),
      options: {
        model: model('id_dynamic.onnx'),
        preprocess: { width: 48, height: 16, resize: 'stretch', ...IMAGENET },
      },
    },
  ];
  out.push(...quantized);
  const pads: Roi[] = [
    { x: -3.5, y: 6.25, width: 15, height: 20, outside: 'pad' },
    { x: 41.75, y: -2, width: 12.5, height: 16.5, outside: 'pad' },
    { x: 10.3, y: 20.6, width: 30.2, height: 40.1, outside: 'pad' },
  ];
  for (const [k, roi] of pads.entries()) {
    out.push({
      title: `'pad' ROI ${k}, float32 stretch 24x32`,
      frame: makeFrame('rgb8', 50, 40, 90 + k),
      roi,
      options: {
        model: model('id_dynamic.onnx'),
        preprocess: { width: 24, height: 32, resize: 'stretch', padValue: 0, ...IMAGENET },
      },
    });
    out.push({
      title: `'pad' ROI ${k}, int8 from nv12`,
      frame: makeFrame('nv12', 50, 40, 95 + k),
      roi,
      options: {
        model: model('id_i8_nchw.onnx'),
        preprocess: {
          resize: 'stretch',
          mean: [127.5, 127.5, 127.5],
          std: [127.5, 127.5, 127.5],
          inputQuantization: { scale: 0.0078125, zeroPoint: 0 },
        },
      },
    });
  }
  return out;
}

export async function preprocessOutputs(): Promise<PreprocessOutputs> {
  const digests: Record<string, string> = {};
  for (const c of laneCases()) {
    const s = await EngineSession.load({ threads: 1, ...c.options });
    try {
      const r = await s.run(c.frame, c.roi);
      const data = r.outputs[0]!.data as ArrayBufferView;
      digests[c.title] = createHash('sha256')
        .update(new Uint8Array(data.buffer, data.byteOffset, data.byteLength))
        .update(JSON.stringify(r.transform))
        .digest('hex');
    } finally {
      s.dispose();
    }
  }
  return { arch: process.arch, addon: ADDON_PATH, digests };
}

if (require.main === module) {
  const file = process.argv[2];
  if (!file) throw new Error('usage: node preprocessOutputs.js OUT.json');
  void preprocessOutputs().then((o) => fs.writeFileSync(file, JSON.stringify(o)));
}
