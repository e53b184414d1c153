import { checkTensorDims } from '../../heads/checkTensorDims';
import { HeadError } from '../../heads/headError';
import type { Keypoint } from '../../core/headResults';
import { checkImageTransform, mapPointToSource } from '../../heads/mapBoxToSource';
import { readTensorAsFloat } from '../../heads/readTensorAsFloat';
import type { ImageTransform, Tensor } from '../../core/tensor';
import type { PlanePeaks } from '../../core/outputKernels';
import { planePeaksJs } from '../../heads/outputKernelsJs';

export interface HrnetDecodeOptions {
  /** 'NCHW' = [B, K, Hh, Wh] (default, ONNX); 'NHWC' = [B, Hh, Wh, K] (compiled AI Hub). */
  readonly layout?: 'NCHW' | 'NHWC';
  /** When given, the heatmaps must hold exactly this many joints. */
  readonly numKeypoints?: number;
  /** The peak of each NCHW plane (default: the heads' own, planePeaksJs). */
  readonly planePeaks?: PlanePeaks;
  /**
   * Every joint's peak, already found (the engine's channelPeaks, on its worker): value, then
   * index in the joint's plane, per (batch item, joint) of the whole batch. Either layout.
   */
  readonly peaks?: Float64Array;
}

/** Peak of `n` values data[base + i * stride] (the first on ties): [value, i], -Infinity if none. */
function argmaxStrided(
  data: Float32Array,
  base: number,
  n: number,
  stride: number,
): [number, number] {
  let best = -Infinity;
  let bi = 0;
  for (let p = 0; p < n; p++) {
    const v = data[base + p * stride]!;
    if (v > best) {
      best = v;
      bi = p;
    }
  }
  return [best, bi];
}

/**
 * HRNet heatmaps to keypoints, one list per crop (batch item b uses transforms[b]; a batch larger
 * than the crop list is padding and ignored). Per joint: argmax (first on ties), score = peak
 * value; a quarter-pixel shift toward the larger neighbour in x and y when the peak is at least two
 * cells from every edge (HRNet's get_final_preds rule); then heatmap cell (x, y) maps to network
 * pixel (x * W / Wh, y * H / Hh) and through the crop's transform to source pixels, clamped to the
 * image. As in HRNet, a joint whose peak is <= 0 keeps heatmap cell (0, 0) (the crop's corner):
 * consumers filter on score.
 */
export function decodeHrnetHeatmaps(
  heatmaps: Tensor,
  transforms: readonly ImageTransform[],
  options: HrnetDecodeOptions = {},
): Keypoint[][] {
  const dims = checkTensorDims(heatmaps, [3, 4], 'HRNet heatmaps');
  const full = dims.length === 3 ? [1, ...dims] : dims;
  const nhwc = (options.layout ?? 'NCHW') === 'NHWC';
  const [B, d1, d2, d3] = full as [number, number, number, number];
  const K = nhwc ? d3 : d1;
  const Hh = nhwc ? d1 : d2;
  const Wh = nhwc ? d2 : d3;
  if (options.numKeypoints !== undefined && options.numKeypoints !== K) {
    throw new HeadError(
      'BAD_SHAPE',
      `HRNet heatmaps '${heatmaps.name}' hold ${K} joints but the model declares ${options.numKeypoints}`,
    );
  }
  if (Hh < 1 || Wh < 1) {
    throw new HeadError(
      'BAD_SHAPE',
      `HRNet heatmaps '${heatmaps.name}' have empty spatial dims [${dims.join(', ')}]`,
    );
  }
  if (transforms.length > B) {
    throw new HeadError('BAD_SHAPE', `${transforms.length} crops but the heatmap batch is ${B}`);
  }
  transforms.forEach(checkImageTransform);
  const data = readTensorAsFloat(heatmaps);
  const plane = Hh * Wh;
  // value(b, k, y, x) = data[b * bStride + k * kStride + (y * Wh + x) * pStride]
  const bStride = K * plane;
  const kStride = nhwc ? 1 : plane;
  const pStride = nhwc ? K : 1;
  const at = (base: number, x: number, y: number): number => data[base + (y * Wh + x) * pStride]!;
  if (options.peaks !== undefined && options.peaks.length !== 2 * B * K) {
    throw new HeadError(
      'BAD_SHAPE',
      `${options.peaks.length / 2} peaks given for HRNet heatmaps of ${B} x ${K} joints`,
    );
  }
  // NCHW planes are contiguous: every plane of the crops in use in one call (five people's
  // heatmaps are a quarter of a million values per frame).
  const peaks =
    options.peaks ??
    (nhwc
      ? undefined
      : (options.planePeaks ?? planePeaksJs)(data.subarray(0, transforms.length * bStride), plane));

  return transforms.map((t, b) => {
    const sx = t.dstWidth / Wh;
    const sy = t.dstHeight / Hh;
    const out: Keypoint[] = [];
    for (let k = 0; k < K; k++) {
      const base = b * bStride + k * kStride;
      const q = b * K + k;
      const [best, bi] = peaks
        ? [peaks[2 * q]!, peaks[2 * q + 1]!]
        : argmaxStrided(data, base, plane, pStride);
      let x = 0;
      let y = 0;
      if (best > 0) {
        const px = bi % Wh;
        const py = (bi - px) / Wh;
        x = px;
        y = py;
        if (px > 1 && px < Wh - 1 && py > 1 && py < Hh - 1) {
          x += 0.25 * Math.sign(at(base, px + 1, py) - at(base, px - 1, py) || 0);
          y += 0.25 * Math.sign(at(base, px, py + 1) - at(base, px, py - 1) || 0);
        }
      }
      const p = mapPointToSource(t, x * sx, y * sy);
      out.push({ x: p.x, y: p.y, score: best === -Infinity ? 0 : best });
    }
    return out;
  });
}
