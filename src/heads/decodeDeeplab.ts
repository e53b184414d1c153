import { checkTensorDims } from './checkTensorDims';
import { HeadError } from './headError';
import type { SemanticMap } from '../core/headResults';
import { checkImageTransform } from './mapBoxToSource';
import { readTensorAsFloat } from './readTensorAsFloat';
import type { ImageTransform, Tensor } from '../core/tensor';
import type { RemapLabels, ZeroedBytes } from '../core/outputKernels';
import { remapLabelsJs, zeroedBytesJs } from './outputKernelsJs';

export interface DeeplabDecodeOptions {
  /**
   * 'logits': [1, C, H, W] (or [1, H, W, C] with layout NHWC), argmax taken here;
   * 'labels': class indices [1, H, W] or [1, 1, H, W] (argmax inside the model, AI Hub).
   * Default: 'labels' for rank 3 or a single channel, else 'logits'.
   */
  readonly format?: 'logits' | 'labels';
  readonly layout?: 'NCHW' | 'NHWC';
  /** The resize to source pixels (default: the heads' own, remapLabelsJs). */
  readonly remapLabels?: RemapLabels;
  /** Where the label map at source resolution is allocated (default: a new Uint8Array). */
  readonly zeroedBytes?: ZeroedBytes;
}

/**
 * DeepLab output to a mono8 label map at source resolution. The label grid covers the network
 * input (its own size may differ, e.g. output stride); each source pixel centre is mapped through
 * the transform (letterbox or stretch, ROI crop) onto the grid and takes the nearest label. Source
 * pixels outside the ROI crop, or landing in the letterbox padding, are 0 (background). NaN
 * logits never win the argmax; a pixel whose logits are all NaN is 0.
 */
export function decodeDeeplab(
  output: Tensor,
  transform: ImageTransform,
  options: DeeplabDecodeOptions = {},
): SemanticMap {
  checkImageTransform(transform);
  const dims = checkTensorDims(output, [3, 4], 'DeepLab output');
  if (dims[0] !== 1) {
    throw new HeadError(
      'BAD_SHAPE',
      `DeepLab output '${output.name}' has batch ${dims[0]}, expected 1`,
    );
  }
  const nhwc = options.layout === 'NHWC';
  let C: number, H: number, W: number;
  if (dims.length === 3) [, H, W] = dims as [number, number, number];
  else if (nhwc) [, H, W, C] = dims as [number, number, number, number];
  else [, C, H, W] = dims as [number, number, number, number];
  C ??= 1;
  const format = options.format ?? (C === 1 ? 'labels' : 'logits');
  if (format === 'labels' && C !== 1) {
    throw new HeadError(
      'BAD_SHAPE',
      `DeepLab label map '${output.name}' has ${C} channels, expected 1`,
    );
  }
  if (C > 256)
    throw new HeadError(
      'BAD_SHAPE',
      `DeepLab output '${output.name}' has ${C} classes; mono8 holds 256`,
    );
  if (H < 1 || W < 1) throw new HeadError('BAD_SHAPE', `DeepLab output '${output.name}' is empty`);

  const grid =
    format === 'labels' ? labelGrid(output) : argmaxGrid(readTensorAsFloat(output), C, H * W, nhwc);
  return resizeToSource(
    grid,
    W,
    H,
    transform,
    options.remapLabels ?? remapLabelsJs,
    options.zeroedBytes ?? zeroedBytesJs,
  );
}

function labelGrid(t: Tensor): Uint8Array {
  if (t.data instanceof Uint8Array && t.quantization === undefined) return t.data;
  const f = readTensorAsFloat(t);
  const out = new Uint8Array(f.length);
  for (let i = 0; i < f.length; i++) {
    const v = Math.round(f[i]!);
    if (!(v >= 0 && v <= 255)) {
      throw new HeadError(
        'BAD_VALUE',
        `DeepLab label map '${t.name}' holds ${f[i]} at ${i}, not a class 0..255`,
      );
    }
    out[i] = v;
  }
  return out;
}

function argmaxGrid(f: Float32Array, C: number, plane: number, nhwc: boolean): Uint8Array {
  const out = new Uint8Array(plane);
  if (nhwc) {
    for (let p = 0; p < plane; p++) {
      let best = -Infinity;
      let bi = 0;
      for (let c = 0; c < C; c++) {
        const v = f[p * C + c]!;
        if (v > best) {
          best = v;
          bi = c;
        }
      }
      out[p] = bi;
    }
    return out;
  }
  // Channel-major: sweep planes so memory is read in order.
  const best = new Float32Array(plane).fill(-Infinity);
  for (let c = 0; c < C; c++) {
    const base = c * plane;
    for (let p = 0; p < plane; p++) {
      const v = f[base + p]!;
      if (v > best[p]!) {
        best[p] = v;
        out[p] = c;
      }
    }
  }
  return out;
}

function resizeToSource(
  grid: Uint8Array,
  W: number,
  H: number,
  t: ImageTransform,
  remap: RemapLabels,
  zeroedBytes: ZeroedBytes,
): SemanticMap {
  const width = Math.round(t.srcWidth);
  const height = Math.round(t.srcHeight);
  const col = lookup(
    width,
    t.crop.x,
    t.crop.width,
    t.scaleX,
    t.padX,
    W / t.dstWidth,
    W,
    t.dstWidth,
  );
  const row = lookup(
    height,
    t.crop.y,
    t.crop.height,
    t.scaleY,
    t.padY,
    H / t.dstHeight,
    H,
    t.dstHeight,
  );
  const data = zeroedBytes(width * height);
  remap(grid, W, row, col, data);
  return { width, height, data };
}

/** Grid index per source pixel along one axis, -1 outside the crop or in the padding. */
function lookup(
  n: number,
  cropStart: number,
  cropSize: number,
  scale: number,
  pad: number,
  gridPerNet: number,
  gridSize: number,
  netSize: number,
): Int32Array {
  const out = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const centre = i + 0.5;
    const net = (centre - cropStart) * scale + pad;
    const inCrop = centre >= cropStart && centre <= cropStart + cropSize;
    const inNet = net >= pad && net <= pad + cropSize * scale && net >= 0 && net < netSize;
    out[i] = inCrop && inNet ? Math.min(gridSize - 1, Math.floor(net * gridPerNet)) : -1;
  }
  return out;
}
