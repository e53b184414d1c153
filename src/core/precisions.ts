/**
 * Which of a manifest's model files runs: fp32, int8 (W8A8 QDQ: uint8 activations) or w8a16 (QDQ
 * with 16-bit activations and 8-bit weights: ours from `model quantize --precision w8a16`, or the
 * context binary of Ultralytics' format=qnn export, which only the HTP runs).
 */
export const PRECISIONS = ['fp32', 'int8', 'w8a16'] as const;
export type Precision = (typeof PRECISIONS)[number];
/** The precisions `model quantize` writes and validates against fp32. */
export type QuantizedPrecision = Exclude<Precision, 'fp32'>;
