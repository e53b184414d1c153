/**
 * The preprocessing cases checked against the numpy reference (preprocess.test.ts) and, in the
 * arm64 lane, byte for byte against the x86-64 addon (test/arm64/preprocessOutputs.ts): every
 * encoding, letterbox and stretch, colour order, layouts, mean/std, ROIs, quantized inputs,
 * camera-sized frames.
 */
import type { Frame, FrameEncoding } from '../../../src/core/frame';
import type { EngineOptionsInput } from '../../../src/engine/engineOptions';
import type { RefSpec } from './engineFixtures';
import { model, pattern } from './engineFixtures';

const BPP: Record<FrameEncoding, number> = {
  rgb8: 3,
  bgr8: 3,
  rgba8: 4,
  bgra8: 4,
  mono8: 1,
  yuv422: 2,
  yuyv: 2,
  nv12: 1,
};

/** A frame with row padding, placed at an odd offset inside a larger buffer (a view, not a copy). */
export function makeFrame(
  encoding: FrameEncoding,
  width: number,
  height: number,
  seed: number,
): Frame {
  const step = width * BPP[encoding] + 6;
  const rows = encoding === 'nv12' ? height + height / 2 : height;
  const big = pattern(rows * step + 13, seed);
  return { data: big.subarray(5, 5 + rows * step), width, height, step, encoding };
}

export interface PreprocessCase {
  title: string;
  frame: Frame;
  roi?: { x: number; y: number; width: number; height: number };
  options: EngineOptionsInput;
  spec: RefSpec;
}

const BASE: RefSpec = {
  width: 40,
  height: 24,
  channels: 3,
  layout: 'nchw',
  colorOrder: 'rgb',
  resize: 'letterbox',
  padValue: 114,
  mean: [0, 0, 0],
  std: [255, 255, 255],
  type: 'float32',
};

export function preprocessCases(): PreprocessCase[] {
  const out: PreprocessCase[] = [];
  const encodings: FrameEncoding[] = [
    'rgb8',
    'bgr8',
    'rgba8',
    'bgra8',
    'mono8',
    'yuv422',
    'yuyv',
    'nv12',
  ];
  encodings.forEach((enc, i) => {
    out.push({
      title: `${enc} 64x40 -> letterbox 40x24 float32 NCHW`,
      frame: makeFrame(enc, 64, 40, 100 + i),
      options: { model: model('id_f32_nchw.onnx') },
      spec: BASE,
    });
  });
  const imagenet: { mean: [number, number, number]; std: [number, number, number] } = {
    mean: [123.675, 116.28, 103.53],
    std: [58.395, 57.12, 57.375],
  };
  out.push({
    title: 'rgb8 -> stretch, BGR, NHWC, mean/std',
    frame: makeFrame('rgb8', 50, 31, 7),
    options: {
      model: model('id_f32_nhwc.onnx'),
      preprocess: {
        resize: 'stretch',
        colorOrder: 'bgr',
        mean: [103.53, 116.28, 123.675],
        std: [57.375, 57.12, 58.395],
      },
    },
    spec: {
      ...BASE,
      layout: 'nhwc',
      colorOrder: 'bgr',
      resize: 'stretch',
      mean: [...imagenet.mean].reverse(),
      std: [...imagenet.std].reverse(),
    },
  });
  out.push({
    title: 'rgb8 ROI 20x12 upscaled 2x (crop, no padding)',
    frame: makeFrame('rgb8', 64, 40, 8),
    roi: { x: 10, y: 5, width: 20, height: 12 },
    options: { model: model('id_f32_nchw.onnx') },
    spec: BASE,
  });
  out.push({
    title: 'bgra8 ROI with letterbox padding (portrait crop)',
    frame: makeFrame('bgra8', 64, 40, 9),
    roi: { x: 30, y: 3, width: 17, height: 33 },
    options: { model: model('id_f32_nchw.onnx'), preprocess: { padValue: 0 } },
    spec: { ...BASE, padValue: 0 },
  });
  out.push({
    title: 'uint8 NHWC input, default quantization (raw pixels)',
    frame: makeFrame('rgb8', 64, 40, 10),
    options: { model: model('id_u8_nhwc.onnx') },
    spec: { ...BASE, layout: 'nhwc', type: 'uint8', qScale: 1 / 255, qZero: 0 },
  });
  out.push({
    title: 'int8 NCHW input with the model scale / zero point',
    frame: makeFrame('yuyv', 64, 40, 11),
    options: {
      model: model('id_i8_nchw.onnx'),
      preprocess: {
        mean: [127.5, 127.5, 127.5],
        std: [127.5, 127.5, 127.5],
        inputQuantization: { scale: 0.0078125, zeroPoint: 0 },
      },
    },
    spec: {
      ...BASE,
      type: 'int8',
      mean: [127.5, 127.5, 127.5],
      std: [127.5, 127.5, 127.5],
      qScale: 0.0078125,
      qZero: 0,
    },
  });
  // Camera-sized frames: many rows, each source row blended once and shared.
  out.push({
    title: 'rgb8 1280x720 -> letterbox 640x640 float32 NCHW',
    frame: makeFrame('rgb8', 1280, 720, 13),
    options: { model: model('id_dynamic.onnx'), preprocess: { width: 640, height: 640 } },
    spec: { ...BASE, width: 640, height: 640 },
  });
  out.push({
    title: 'bgr8 ROI 900x500 -> stretch 633x411 float32 NCHW, mean/std',
    frame: makeFrame('bgr8', 1280, 720, 14),
    roi: { x: 201, y: 117, width: 900, height: 500 },
    options: {
      model: model('id_dynamic.onnx'),
      preprocess: { width: 633, height: 411, resize: 'stretch', ...imagenet },
    },
    spec: { ...BASE, width: 633, height: 411, resize: 'stretch', ...imagenet },
  });
  out.push({
    title: 'one-channel model from a colour frame (luma)',
    frame: makeFrame('rgb8', 64, 40, 12),
    options: { model: model('id_mono.onnx') },
    spec: { ...BASE, channels: 1 },
  });
  return out;
}
