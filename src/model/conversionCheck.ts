/**
 * The bound a converted model must meet against its TFLite original, per output.
 *
 * The converted ONNX and the .tflite compute the same float32 graph with other kernels (ONNX
 * Runtime's MLAS against TFLite's XNNPACK): sums are added in another order, so outputs differ by
 * rounding, and deep networks with large intermediate values amplify it. Measured on the five
 * MediaPipe files over the 13 bootstrap photos (docs/models.md), as a share of the output's largest
 * |value|: at most 2.5e-5 for landmarks, person scores, heatmaps and world landmarks, 1.6e-4 for
 * the selfie masks, and up to 4.8e-3 for the pose models' segmentation logits (values to -1900;
 * an element near -60 moved by 9). That is the graph's own rounding, not the conversion: TFLite's
 * two CPU kernel sets (XNNPACK and its built-in kernels) differ from each other by the same order
 * on the same photos (2.6e-3 on those logits). A broken conversion is far off: the selfie model's
 * ConvTranspose with its bias dropped differs by 0.13 of the mask's range, with its kernel
 * transposed or shifted by one pixel by 1.0. The bound, 2 % of the output's largest |value| over
 * the check images (of 1 when that is smaller, so probabilities get 0.02), sits 4x above the worst
 * rounding measured and 6x below the mildest breakage measured.
 */

/** Allowed max |ONNX - TFLite| as a share of the output's largest |TFLite value| (at least 1). */
export const CONVERSION_RELATIVE_BOUND = 2e-2;

/**
 * Allowed max |ONNX rewrite - definition| for a rewritten custom op, as a share of the largest
 * |definition value| (at least 1): one float32 op against its float64 definition differs by
 * rounding alone (measured 2.4e-7 on the selfie models), a wrong rewrite by the order of the values.
 */
export const REWRITE_RELATIVE_BOUND = 1e-4;

/** One output as the converter measured it over the check images. */
export interface OutputDifference {
  readonly name: string;
  readonly dims: readonly number[];
  readonly maxAbsDiff: number;
  readonly meanAbsDiff: number;
  /** Largest |TFLite value|, and the value range, over all check images. */
  readonly maxAbsReference: number;
  readonly min: number;
  readonly max: number;
  /** The image whose difference was largest. */
  readonly worstImage: string;
}

export interface CheckedOutput extends OutputDifference {
  readonly bound: number;
  readonly ok: boolean;
}

/** The bound for an output whose largest |reference value| is `maxAbsReference`. */
export function conversionBound(
  maxAbsReference: number,
  relative: number = CONVERSION_RELATIVE_BOUND,
): number {
  return relative * Math.max(1, maxAbsReference);
}

/** Each output against its bound; NaN differences fail (a NaN is never within a bound). */
export function checkConversion(outputs: readonly OutputDifference[]): {
  readonly outputs: readonly CheckedOutput[];
  readonly ok: boolean;
} {
  const checkedOutputs = outputs.map((o) => {
    const bound = conversionBound(o.maxAbsReference);
    return { ...o, bound, ok: o.maxAbsDiff <= bound };
  });
  return { outputs: checkedOutputs, ok: checkedOutputs.every((o) => o.ok) };
}
