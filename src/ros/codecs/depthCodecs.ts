/**
 * The two messages a depth camera adds, read from their serialized bytes like colour frames: an
 * aligned depth sensor_msgs/Image (16UC1 / 32FC1, pixels stay a view into the received buffer)
 * and sensor_msgs/CameraInfo. Malformed input throws FrameError with a code, never reads out of
 * range.
 */
import { MAX_IMAGE_DIMENSION } from '../../core/imageEncoding';
import type { CameraInfoFields } from '../../depth/cameraModel';
import { CompressedDepthError, decodeCompressedDepth } from '../../depth/compressedDepth';
import { DepthImage, DepthImageError, parseDepthEncoding } from '../../depth/depthImage';
import { decodeCompressedImage } from './compressedImageCodec';
import { CdrReader } from './cdrReader';
import { FrameError } from '../frameError';
import { readHeader } from './headerCodec';
import type { RosHeader } from '../rosHeader';

export interface DepthFrame {
  readonly header: RosHeader;
  readonly image: DepthImage;
}

export function decodeDepthImage(message: Uint8Array): DepthFrame {
  const r = new CdrReader(message);
  const header = readHeader(r);
  const height = r.uint32('height');
  const width = r.uint32('width');
  const encodingName = r.string('encoding');
  const isBigEndian = r.uint8('is_bigendian') !== 0;
  const step = r.uint32('step');
  const data = r.byteSequence('data');
  r.end('data');
  const encoding = parseDepthEncoding(encodingName);
  if (encoding === undefined) {
    throw new FrameError(
      'UNKNOWN_ENCODING',
      `depth encoding "${encodingName}" is not supported (16UC1 millimetres or 32FC1 metres, REP-118)`,
    );
  }
  if (width === 0 || height === 0)
    throw new FrameError('ZERO_SIZE', `depth image is ${width}x${height}`);
  if (width > MAX_IMAGE_DIMENSION || height > MAX_IMAGE_DIMENSION) {
    throw new FrameError(
      'TOO_LARGE',
      `depth image is ${width}x${height}, limit ${MAX_IMAGE_DIMENSION}`,
    );
  }
  try {
    return { header, image: new DepthImage({ width, height, step, encoding, isBigEndian, data }) };
  } catch (e) {
    if (e instanceof DepthImageError) throw new FrameError('BAD_GEOMETRY', e.message);
    throw e;
  }
}

/**
 * A depth image sent by image_transport's compressedDepth (a sensor_msgs/CompressedImage on
 * `<depth>/compressedDepth`, PNG or RVL): decoded into a depth image of its own, read like a raw
 * one. A format we do not read is UNKNOWN_ENCODING; bytes that do not decode are UNDECODABLE.
 */
export function decodeCompressedDepthImage(message: Uint8Array): DepthFrame {
  const { header, format, data } = decodeCompressedImage(message);
  try {
    return { header, image: decodeCompressedDepth(format, data, MAX_IMAGE_DIMENSION) };
  } catch (e) {
    if (e instanceof CompressedDepthError) {
      throw new FrameError(e.kind === 'format' ? 'UNKNOWN_ENCODING' : 'UNDECODABLE', e.message);
    }
    throw e;
  }
}

export interface CameraInfoFrame {
  readonly header: RosHeader;
  readonly info: CameraInfoFields;
}

/** Largest distortion vector we read (rational_polynomial has 8, some models 14). */
const MAX_DISTORTION = 64;

export function decodeCameraInfo(message: Uint8Array): CameraInfoFrame {
  const r = new CdrReader(message);
  const header = readHeader(r);
  const height = r.uint32('height');
  const width = r.uint32('width');
  const distortionModel = r.string('distortion_model');
  const n = r.uint32('d.length');
  if (n > MAX_DISTORTION) {
    throw new FrameError(
      'TOO_LARGE',
      `CameraInfo.d has ${n} coefficients, limit ${MAX_DISTORTION}`,
    );
  }
  const d: number[] = [];
  for (let i = 0; i < n; i++) d.push(r.float64('d'));
  const k: number[] = [];
  for (let i = 0; i < 9; i++) k.push(r.float64('k'));
  // r, p, binning and roi: nothing we use, read to know the message is whole.
  for (let i = 0; i < 9 + 12; i++) r.float64('r, p');
  for (const f of [
    'binning_x',
    'binning_y',
    'roi.x_offset',
    'roi.y_offset',
    'roi.height',
    'roi.width',
  ]) {
    r.uint32(f);
  }
  r.uint8('roi.do_rectify');
  r.end('roi.do_rectify');
  return { header, info: { width, height, distortionModel, d, k } };
}
