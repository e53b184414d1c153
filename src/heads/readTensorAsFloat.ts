import { HeadError } from './headError';
import type { Quantization, Tensor } from '../core/tensor';

/**
 * The tensor's values as float32, whatever its element type, dequantized when it carries a
 * quantization (real = (q - zeroPoint) * scale). A float32 tensor without quantization is returned
 * as is (no copy): callers must treat the result as read-only.
 */
export function readTensorAsFloat(tensor: Tensor): Float32Array {
  const q = tensor.quantization;
  if (q !== undefined) checkQuantization(q, tensor.name);
  const src = tensor.data;
  if (src instanceof Float32Array && q === undefined) return src;
  const n = src.length;
  const out = new Float32Array(n);
  const scale = q === undefined ? 1 : q.scale;
  const zero = q === undefined ? 0 : q.zeroPoint;
  if (src instanceof BigInt64Array) {
    for (let i = 0; i < n; i++) out[i] = (Number(src[i]!) - zero) * scale;
  } else if (q === undefined) {
    out.set(src);
  } else {
    for (let i = 0; i < n; i++) out[i] = (src[i]! - zero) * scale;
  }
  return out;
}

/** One quantized value to its real value. */
export function dequantize(value: number, q: Quantization | undefined): number {
  return q === undefined ? value : (value - q.zeroPoint) * q.scale;
}

function checkQuantization(q: Quantization, name: string): void {
  if (!Number.isFinite(q.scale) || q.scale <= 0 || !Number.isFinite(q.zeroPoint)) {
    throw new HeadError(
      'BAD_DTYPE',
      `tensor '${name}' has invalid quantization scale ${q.scale}, zero point ${q.zeroPoint}`,
    );
  }
}
