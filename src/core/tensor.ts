/**
 * The contract between the engine (which produces tensors) and the task heads (which decode them).
 * Heads never import the engine or ROS; the engine fills these shapes from ONNX Runtime outputs.
 */

export type TensorData = Float32Array | Uint8Array | Int8Array | Int32Array | BigInt64Array;

/** Affine quantization of a tensor: real = (q - zeroPoint) * scale. */
export interface Quantization {
  readonly scale: number;
  readonly zeroPoint: number;
}

export interface Tensor {
  readonly name: string;
  /** Shape as reported by the model for this run, e.g. [1, 84, 8400]. Sizes always come from here. */
  readonly dims: readonly number[];
  readonly data: TensorData;
  /** Present when `data` holds quantized integers that must be dequantized before use. */
  readonly quantization?: Quantization;
}

/**
 * How source-image pixels were mapped onto the network input, so heads can map results back.
 * A source pixel (u, v) lands on network pixel
 *   x = (u - crop.x) * scaleX + padX,  y = (v - crop.y) * scaleY + padY
 * and the inverse maps network coordinates back to source pixels.
 */
export interface ImageTransform {
  /** Size of the whole source image, in pixels. */
  readonly srcWidth: number;
  readonly srcHeight: number;
  /** Region of the source that was resized (the whole image when no ROI was given), in pixels. */
  readonly crop: {
    readonly x: number;
    readonly y: number;
    readonly width: number;
    readonly height: number;
  };
  /** Network input size, in pixels. */
  readonly dstWidth: number;
  readonly dstHeight: number;
  /** Network pixels per source pixel (equal for letterbox, independent for stretch). */
  readonly scaleX: number;
  readonly scaleY: number;
  /** Left and top padding added by letterboxing, in network pixels. */
  readonly padX: number;
  readonly padY: number;
}
