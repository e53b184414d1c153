/**
 * diagnostic_msgs/DiagnosticArray as plain little-endian CDR. Published once a second by every
 * node, through rclnodejs' object path it cost ~6 ms of the main thread per message (a struct per
 * key/value and per string: 0.2 ms per camera frame at 30 Hz, bench:e2e's HTP stand-in); these
 * bytes take a few microseconds. Field order as documented for diagnostic_msgs: header;
 * status[]: level (byte), name, message, hardware_id, values[] {key, value}.
 */
import { CdrWriter } from './cdrWriter';
import { headerSize, writeHeader } from './headerCodec';
import type { RosHeader } from '../rosHeader';

export interface DiagnosticStatusFields {
  readonly level: number;
  readonly name: string;
  readonly message: string;
  readonly hardwareId: string;
  readonly values: readonly (readonly [key: string, value: string])[];
}

export function encodeDiagnosticArray(
  header: RosHeader,
  status: readonly DiagnosticStatusFields[],
): Buffer {
  let size = headerSize(header) + 8;
  for (const s of status) {
    // The level byte, then the values count with up to 3 bytes of alignment before it.
    size += 1 + 7 + CdrWriter.stringSize(s.name) + CdrWriter.stringSize(s.message);
    size += CdrWriter.stringSize(s.hardwareId);
    for (const [k, v] of s.values) size += CdrWriter.stringSize(k) + CdrWriter.stringSize(v);
  }
  const w = new CdrWriter(size);
  writeHeader(w, header);
  w.uint32(status.length);
  for (const s of status) {
    w.uint8(s.level);
    w.string(s.name);
    w.string(s.message);
    w.string(s.hardwareId);
    w.uint32(s.values.length);
    for (const [k, v] of s.values) {
      w.string(k);
      w.string(v);
    }
  }
  return w.finish();
}
