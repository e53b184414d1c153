import { CdrReader } from './cdrReader';
import { CdrWriter } from './cdrWriter';
import { FrameError } from '../frameError';
import { RosHeader } from '../rosHeader';

export function readHeader(r: CdrReader): RosHeader {
  const sec = r.int32('header.stamp.sec');
  const nanosec = r.uint32('header.stamp.nanosec');
  if (nanosec > 999_999_999) {
    throw new FrameError('BAD_HEADER', `header.stamp.nanosec is ${nanosec}, must be below 1e9`);
  }
  const frameId = r.string('header.frame_id');
  return { stamp: { sec, nanosec }, frameId };
}

export function writeHeader(w: CdrWriter, header: RosHeader): void {
  w.int32(header.stamp.sec);
  w.uint32(header.stamp.nanosec);
  w.string(header.frameId);
}

/** Upper bound of a serialized header's size, in bytes. */
export function headerSize(header: RosHeader): number {
  return 8 + CdrWriter.stringSize(header.frameId);
}
