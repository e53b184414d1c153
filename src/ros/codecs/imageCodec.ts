import { CdrReader } from './cdrReader';
import { CdrWriter, type MessageScratch } from './cdrWriter';
import { FrameError } from '../frameError';
import {
  encodingLayout,
  ImageEncoding,
  MAX_IMAGE_BYTES,
  MAX_IMAGE_DIMENSION,
  minStep,
  parseImageEncoding,
  requiredDataBytes,
} from '../../core/imageEncoding';
import { readHeader, writeHeader, headerSize } from './headerCodec';
import { RosHeader } from '../rosHeader';

export { MAX_IMAGE_BYTES, MAX_IMAGE_DIMENSION };

/** A decoded sensor_msgs/Image whose pixels are a view into the received message buffer. */
export interface ImageFrame {
  readonly header: RosHeader;
  readonly height: number;
  readonly width: number;
  readonly encoding: ImageEncoding;
  /** The encoding string exactly as received (aliases resolved into `encoding`). */
  readonly encodingName: string;
  readonly isBigEndian: boolean;
  /** Row stride in bytes. */
  readonly step: number;
  /** Pixel bytes: a view, valid as long as the message buffer is referenced. */
  readonly data: Uint8Array;
}

/** Decodes and validates a serialized sensor_msgs/Image. Throws FrameError on any defect. */
export function decodeImage(message: Uint8Array): ImageFrame {
  const r = new CdrReader(message);
  const header = readHeader(r);
  const height = r.uint32('height');
  const width = r.uint32('width');
  const encodingName = r.string('encoding');
  const isBigEndian = r.uint8('is_bigendian');
  const step = r.uint32('step');
  const data = r.byteSequence('data');
  r.end('data');
  const encoding = parseImageEncoding(encodingName);
  if (encoding === undefined) {
    throw new FrameError('UNKNOWN_ENCODING', `encoding "${encodingName}" is not supported`);
  }
  validateGeometry(encoding, width, height, step, data.length);
  return {
    header,
    height,
    width,
    encoding,
    encodingName,
    isBigEndian: isBigEndian !== 0,
    step,
    data,
  };
}

function validateGeometry(
  encoding: ImageEncoding,
  width: number,
  height: number,
  step: number,
  dataBytes: number,
): void {
  if (width === 0 || height === 0) {
    throw new FrameError('ZERO_SIZE', `image is ${width}x${height}`);
  }
  if (width > MAX_IMAGE_DIMENSION || height > MAX_IMAGE_DIMENSION) {
    throw new FrameError(
      'TOO_LARGE',
      `image is ${width}x${height}, limit ${MAX_IMAGE_DIMENSION} per side`,
    );
  }
  const layout = encodingLayout(encoding);
  if (width % layout.widthMultiple !== 0 || height % layout.heightMultiple !== 0) {
    throw new FrameError(
      'BAD_GEOMETRY',
      `${encoding} needs width a multiple of ${layout.widthMultiple} and height of ${layout.heightMultiple}, got ${width}x${height}`,
    );
  }
  const min = minStep(encoding, width);
  if (step < min) {
    throw new FrameError(
      'STEP_TOO_SMALL',
      `step ${step} < width ${width} x ${layout.rowBytesPerPixel} bytes (${min})`,
    );
  }
  const need = requiredDataBytes(encoding, step, height);
  if (need > MAX_IMAGE_BYTES) {
    throw new FrameError('TOO_LARGE', `image needs ${need} bytes, limit ${MAX_IMAGE_BYTES}`);
  }
  if (dataBytes < need) {
    throw new FrameError(
      'DATA_TOO_SHORT',
      `data has ${dataBytes} bytes, ${encoding} ${width}x${height} step ${step} needs ${need}`,
    );
  }
}

export interface ImageToEncode {
  readonly header: RosHeader;
  readonly height: number;
  readonly width: number;
  /** Any encoding name: outputs such as mono16 label images are encoded too. */
  readonly encoding: string;
  readonly isBigEndian?: boolean;
  readonly step: number;
  readonly data: Uint8Array;
}

/**
 * Serializes a sensor_msgs/Image (little-endian CDR) for a raw publisher; into `scratch`'s buffer
 * when given (valid until its next message).
 */
export function encodeImage(image: ImageToEncode, scratch?: MessageScratch): Buffer {
  const w = new CdrWriter(
    headerSize(image.header) +
      8 +
      CdrWriter.stringSize(image.encoding) +
      1 +
      7 +
      4 +
      image.data.length,
    scratch,
  );
  writeHeader(w, image.header);
  w.uint32(image.height);
  w.uint32(image.width);
  w.string(image.encoding);
  w.uint8(image.isBigEndian ? 1 : 0);
  w.uint32(image.step);
  w.byteSequence(image.data);
  return w.finish();
}
