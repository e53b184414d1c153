import { CdrWriter } from './cdrWriter';
import { headerSize, writeHeader } from './headerCodec';
import type { RosHeader } from '../rosHeader';

/**
 * foxglove_msgs/CompressedVideo: timestamp, frame_id, data, format. Its first two fields are laid
 * out as a std_msgs/Header is (a Time, then a string), so the header codec writes them.
 */
export function encodeCompressedVideo(header: RosHeader, data: Uint8Array, format: string): Buffer {
  const w = new CdrWriter(headerSize(header) + 7 + data.length + CdrWriter.stringSize(format));
  writeHeader(w, header);
  w.byteSequence(data);
  w.string(format);
  return w.finish();
}
