import { checkTensorDims } from '../../heads/checkTensorDims';
import { type DeeplabDecodeOptions, decodeDeeplab } from '../../heads/decodeDeeplab';
import { HeadError } from '../../heads/headError';
import { readTensorAsFloat } from '../../heads/readTensorAsFloat';
import type { SemanticMap } from '../../core/headResults';
import type { ImageTransform, Tensor } from '../../core/tensor';

/**
 * A one-class probability map ([1, H, W, 1] NHWC or [1, 1, H, W]; MediaPipe selfie segmentation:
 * the person probability, sigmoid inside the model) to a mono8 label map at source resolution:
 * class 1 where the probability is at least `threshold`, else 0 (background). The thresholded grid
 * is resized like DeepLab's labels (nearest, through the transform), so the two share one mapping.
 * NaN is background.
 */
export function decodeSemanticProbability(
  output: Tensor,
  transform: ImageTransform,
  threshold: number,
  layout: 'NCHW' | 'NHWC' = 'NHWC',
  kernels: Pick<DeeplabDecodeOptions, 'remapLabels' | 'zeroedBytes'> = {},
): SemanticMap {
  if (!(threshold >= 0 && threshold <= 1)) {
    throw new HeadError('BAD_OPTION', `probability threshold must be in [0, 1], got ${threshold}`);
  }
  const dims = checkTensorDims(output, [4], 'probability map');
  const [n, a, b, c] = dims as [number, number, number, number];
  const [H, W, C] = layout === 'NHWC' ? [a, b, c] : [b, c, a];
  if (n !== 1 || C !== 1) {
    throw new HeadError(
      'BAD_SHAPE',
      `probability map '${output.name}' is [${dims.join(', ')}] (${layout}), expected one image of one channel`,
    );
  }
  const p = readTensorAsFloat(output);
  const labels = new Uint8Array(H * W);
  for (let i = 0; i < labels.length; i++) labels[i] = p[i]! >= threshold ? 1 : 0;
  return decodeDeeplab({ name: output.name, dims: [1, H, W], data: labels }, transform, {
    ...kernels,
    format: 'labels',
  });
}
