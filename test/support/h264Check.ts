import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoPath } from './paths';
import { tempDir } from './tempDir';
import { runToolsPython } from './toolsPython';

/** One message as tools/video/h264_check.py (PyAV's FFmpeg) decoded it. */
export interface CheckedMessage {
  readonly bytes: number;
  /** H.264 NAL unit types in order: 7 SPS, 8 PPS, 5 IDR slice, 1 non-IDR slice, 6 SEI. */
  readonly nal_types: readonly number[];
  readonly frames: number;
  /** 'I', 'P', 'B', ... per decoded frame. */
  readonly pict_types: readonly string[];
  readonly key_frames: readonly boolean[];
  readonly error: string;
  readonly width?: number;
  readonly height?: number;
  /** Luma SSIM against the reference frame given for this message. */
  readonly ssim?: number;
  readonly psnr?: number;
}

export interface H264Check {
  readonly decoder: string;
  readonly messages: readonly CheckedMessage[];
}

/**
 * Decodes `messages` (one CompressedVideo's data each, in order) with a decoder independent of
 * the encoder, and compares each decoded frame with `reference[i]` (rgb8 of width x height).
 */
export function checkH264(
  messages: readonly Uint8Array[],
  reference?: { frames: readonly Uint8Array[]; width: number; height: number },
  format: 'h264' | 'jpeg' = 'h264',
): H264Check {
  const dir = tempDir('htp-h264-');
  const packets = path.join(dir, 'packets.bin');
  const parts: Buffer[] = [];
  for (const m of messages) {
    const n = Buffer.alloc(4);
    n.writeUInt32LE(m.length);
    parts.push(n, Buffer.from(m.buffer, m.byteOffset, m.byteLength));
  }
  fs.writeFileSync(packets, Buffer.concat(parts));
  let ref: { file: string; width: number; height: number } | undefined;
  if (reference) {
    ref = {
      file: path.join(dir, 'reference.rgb'),
      width: reference.width,
      height: reference.height,
    };
    fs.writeFileSync(ref.file, Buffer.concat(reference.frames.map((f) => Buffer.from(f))));
  }
  const out = checkH264Files(packets, ref, format);
  fs.rmSync(dir, { recursive: true, force: true });
  return out;
}

/**
 * checkH264 over files: `packets` holds each message as a little-endian uint32 length and its
 * bytes; `reference.file` one rgb8 picture per message. `format` jpeg: each message is a JPEG
 * picture (decoded by OpenCV), for comparing a JPEG stream by the same measure.
 */
export function checkH264Files(
  packets: string,
  reference?: { file: string; width: number; height: number },
  format: 'h264' | 'jpeg' = 'h264',
): H264Check {
  const args = [repoPath('tools', 'video', 'h264_check.py'), '--format', format];
  args.push('--packets', packets);
  if (reference) {
    args.push('--reference', reference.file, '--width', String(reference.width));
    args.push('--height', String(reference.height));
  }
  return JSON.parse(runToolsPython(args)) as H264Check;
}

/** The messages of a file checkH264Files reads (each a little-endian uint32 length, then bytes). */
export function readPacketFile(file: string): Buffer[] {
  const blob = fs.readFileSync(file);
  const out: Buffer[] = [];
  for (let i = 0; i < blob.length;) {
    const n = blob.readUInt32LE(i);
    out.push(blob.subarray(i + 4, i + 4 + n));
    i += 4 + n;
  }
  return out;
}

/** SPS, PPS and an IDR slice, in that order before the slice. */
export function startsDecodable(m: CheckedMessage): boolean {
  const sps = m.nal_types.indexOf(7);
  const pps = m.nal_types.indexOf(8);
  const idr = m.nal_types.indexOf(5);
  return sps >= 0 && pps > sps && idr > pps;
}
