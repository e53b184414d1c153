import { CdrReader } from './cdrReader';
import { CdrWriter } from './cdrWriter';
import { FrameError } from '../frameError';
import { headerSize, readHeader, writeHeader } from './headerCodec';
import { RosHeader } from '../rosHeader';
import { MAX_IMAGE_BYTES } from './imageCodec';

/** A decoded sensor_msgs/CompressedImage; `data` is a view into the received message. */
export interface CompressedFrame {
  readonly header: RosHeader;
  /** e.g. "jpeg", "png", or image_transport's "rgb8; jpeg compressed bgr8". */
  readonly format: string;
  readonly data: Uint8Array;
}

export function decodeCompressedImage(message: Uint8Array): CompressedFrame {
  const r = new CdrReader(message);
  const header = readHeader(r);
  const format = r.string('format');
  const data = r.byteSequence('data');
  r.end('data');
  if (data.length === 0) {
    throw new FrameError('EMPTY_DATA', 'compressed image has no data');
  }
  if (data.length > MAX_IMAGE_BYTES) {
    throw new FrameError(
      'TOO_LARGE',
      `compressed image of ${data.length} bytes, limit ${MAX_IMAGE_BYTES}`,
    );
  }
  return { header, format, data };
}

export function encodeCompressedImage(image: CompressedFrame): Buffer {
  const w = new CdrWriter(
    headerSize(image.header) + CdrWriter.stringSize(image.format) + 7 + image.data.length,
  );
  writeHeader(w, image.header);
  w.string(image.format);
  w.byteSequence(image.data);
  return w.finish();
}
