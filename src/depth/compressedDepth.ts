/**
 * image_transport's compressedDepth payload (the `data` of a sensor_msgs/CompressedImage on
 * `<depth>/compressedDepth`) back to a depth image: a 12-byte configuration header (int32 format,
 * float32 depthQuantA and depthQuantB, little endian), then a 16-bit greyscale PNG, or with
 * "rvl" the width, the height (uint32 each) and an RVL stream. 16UC1 carries millimetres as they
 * are; 32FC1 carries quantized inverse depth, metres = depthQuantA / (v - depthQuantB), 0 = none.
 * The `format` string names both: "16UC1; compressedDepth png", "32FC1; compressedDepth rvl", or
 * older publishers' "16UC1; compressedDepth" (PNG).
 */
import { DepthImage, type DepthEncoding, parseDepthEncoding } from './depthImage';
import { decodePng16, PngError } from './png16';
import { decodeRvl, RvlError } from './rvl';

export type CompressedDepthMethod = 'png' | 'rvl';

/** Why a compressedDepth payload could not be read: the format, or the bytes. */
export class CompressedDepthError extends Error {
  override readonly name = 'CompressedDepthError';
  constructor(
    readonly kind: 'format' | 'data',
    message: string,
  ) {
    super(message);
  }
}

const CONFIG_HEADER_BYTES = 12;

/** The image encoding and method a compressedDepth format string names. */
export function parseCompressedDepthFormat(format: string): {
  encoding: DepthEncoding;
  method: CompressedDepthMethod;
} {
  const [name = '', rest] = format.split(';', 2).map((s) => s.trim());
  const encoding = parseDepthEncoding(name);
  if (!encoding) {
    throw new CompressedDepthError(
      'format',
      `compressedDepth of "${name}": only 16UC1 and 32FC1 depth is sent this way (format "${format}")`,
    );
  }
  const method =
    rest === undefined || rest === 'compressedDepth'
      ? 'png'
      : /^compressedDepth (png|rvl)$/.exec(rest)?.[1];
  if (method !== 'png' && method !== 'rvl') {
    throw new CompressedDepthError(
      'format',
      `format "${format}" is not compressedDepth png or rvl (is the subscription on the compressedDepth topic?)`,
    );
  }
  return { encoding, method };
}

export function decodeCompressedDepth(
  format: string,
  data: Uint8Array,
  maxDimension: number,
): DepthImage {
  const { encoding, method } = parseCompressedDepthFormat(format);
  if (data.length <= CONFIG_HEADER_BYTES) {
    throw new CompressedDepthError(
      'data',
      `${data.length} bytes, no room for the 12-byte header and an image`,
    );
  }
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const quantA = view.getFloat32(4, true);
  const quantB = view.getFloat32(8, true);
  const body = data.subarray(CONFIG_HEADER_BYTES);
  let width: number;
  let height: number;
  let samples: Uint16Array;
  try {
    if (method === 'png') {
      ({ width, height, samples } = decodePng16(body, maxDimension));
    } else {
      if (body.length < 8) throw new RvlError('no width and height');
      width = view.getUint32(CONFIG_HEADER_BYTES, true);
      height = view.getUint32(CONFIG_HEADER_BYTES + 4, true);
      if (width === 0 || height === 0 || width > maxDimension || height > maxDimension) {
        throw new RvlError(`image is ${width}x${height} (limit ${maxDimension})`);
      }
      samples = decodeRvl(body.subarray(8), width * height);
    }
  } catch (e) {
    if (e instanceof PngError || e instanceof RvlError) {
      throw new CompressedDepthError('data', `${method.toUpperCase()}: ${e.message}`);
    }
    throw e;
  }
  if (encoding === '16UC1') {
    return new DepthImage({
      width,
      height,
      step: width * 2,
      encoding,
      isBigEndian: false,
      data: new Uint8Array(samples.buffer, samples.byteOffset, samples.byteLength),
    });
  }
  if (!Number.isFinite(quantA) || !Number.isFinite(quantB) || quantA <= 0) {
    throw new CompressedDepthError(
      'data',
      `32FC1 inverse-depth quantization a=${quantA}, b=${quantB}: no depth follows from it`,
    );
  }
  const metres = new Float32Array(samples.length);
  for (let i = 0; i < samples.length; i++) {
    const v = samples[i]!;
    metres[i] = v === 0 ? NaN : quantA / (v - quantB);
  }
  return new DepthImage({
    width,
    height,
    step: width * 4,
    encoding,
    isBigEndian: false,
    data: new Uint8Array(metres.buffer),
  });
}
