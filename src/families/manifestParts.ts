/**
 * The pieces of a model manifest's schema that every family's `outputs` block is built from:
 * tensors as the manifest declares them, their quantization and layout, and how boxes are encoded.
 * Here, below the manifest parser (src/config/modelManifest.ts), because the families' schemas and
 * the parser share them and the parser builds its `outputs` union from the families.
 */
import { z } from 'zod';
import { RETURNED_ELEMENT_TYPES } from '../core/elementType';

export const manifestElementType = z.enum(RETURNED_ELEMENT_TYPES);

/** Affine quantization, real = (q - zeroPoint) * scale; same shape as heads' Quantization. */
export const manifestQuantization = z.strictObject({
  scale: z.number().positive(),
  zeroPoint: z.number().int(),
});

/** One tensor of the model. Dims use -1 for a dimension the model leaves dynamic. */
export const tensorSpec = z.strictObject({
  name: z.string().min(1),
  dims: z.array(z.number().int().min(-1)).min(1),
  dtype: manifestElementType,
  quantization: manifestQuantization.optional(),
});
export type TensorSpec = z.infer<typeof tensorSpec>;

export const tensorLayout = z.enum(['NCHW', 'NHWC']);

/** Where box coordinates of a detector output are expressed. */
export const boxEncoding = z.strictObject({
  format: z.enum(['cxcywh', 'xyxy']),
  units: z.enum(['input-pixels', 'normalized']),
});

/** Element count of a tensor, undefined while a dimension is dynamic. */
export function fixedSize(dims: readonly number[]): number | undefined {
  return dims.some((d) => d < 0) ? undefined : dims.reduce((a, b) => a * b, 1);
}

/** Pixels 0..255 to 0..1, no mean or std: what Ultralytics, AI Hub and MediaPipe models take. */
export const UNIT_NORMALIZATION = {
  scale: 1 / 255,
  mean: [0, 0, 0] as [number, number, number],
  std: [1, 1, 1] as [number, number, number],
};
