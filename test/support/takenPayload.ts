/**
 * What a raw subscription takes for a published serialized message under rmw_fastrtps_cpp: not
 * always the bytes that were published. Two steps change them (hostilePayloads.test.ts checks this
 * model against the real thing; the malformed flood predicts outcomes from the bytes a subscriber
 * in another process took, because of them):
 *
 * - Crossing a process boundary, Fast DDS pads a payload it sends whole with zeros to a multiple
 *   of 4 (RTPS submessages are 4-aligned and the receiver counts the padding as payload); one it
 *   sends in fragments (larger than the smallest message size of its transports: about 64 KB with
 *   UDP among them) is reassembled to its exact length, and in-process delivery does not pad. A
 *   small message cut 1 to 3 bytes short can thus arrive complete with zeros.
 * - The one-copy take (directTake.ts; our rclnodejs patch
 *   scripts/setup/patches/rclnodejs-2.2.0-take-with-one-copy.patch) sees the payload only after
 *   rmw read its encapsulation header with Fast CDR: a header Fast CDR does not read (under 4
 *   bytes, a non-zero first byte, an unknown representation) makes Fast DDS drop the message, and,
 *   with Fast DDS 3 (Kilted), when the header's options declare final padding (their two low bits)
 *   and the payload is a multiple of 4 long, that padding is left off. With Fast DDS 2.14 (Jazzy)
 *   the same take hands over the payload whole, declared padding included (measured: the 4-byte
 *   00010003 arrives as it was sent on Jazzy, as the single byte 00 on Kilted); which messages are
 *   dropped is the same on both.
 *
 * A published message of 0 bytes never reaches a subscriber in another process at all: Fast DDS
 * sends it as a DATA submessage without payload, which the reader discards.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { TakeKind } from '../../src/ros/directTake';

/** Where the subscription is: in the publisher's process or in another. */
export type Delivery = 'same process' | 'other process';

/** Encapsulation kinds Fast CDR 2 reads (second header byte, endianness bit cleared). */
const READ_KINDS: ReadonlySet<number> = new Set([0x0, 0x2, 0x6, 0x8, 0xa]);

/** The Fast DDS major version under the ROS in use: 2 (Jazzy, Humble: libfastrtps) or 3. */
export type FastDdsMajor = 2 | 3;

/**
 * The Fast DDS of the ROS in use, found as the launchers find it: Fast DDS 2.x ships libfastrtps,
 * 3.x renamed it libfastdds. Looked for in LD_LIBRARY_PATH and the AMENT_PREFIX_PATH prefixes.
 */
export function fastDdsMajor(env: NodeJS.ProcessEnv = process.env): FastDdsMajor {
  const dirs = [
    ...(env.LD_LIBRARY_PATH ?? '').split(':'),
    ...(env.AMENT_PREFIX_PATH ?? '').split(':').map((p) => (p ? path.join(p, 'lib') : '')),
  ].filter(Boolean);
  const has2 = dirs.some((d) =>
    ['libfastrtps.so', 'libfastrtps.so.2'].some((f) => fs.existsSync(path.join(d, f))),
  );
  return has2 ? 2 : 3;
}

/**
 * The bytes a raw subscription with `take` receives for `published` (sent whole: under about
 * 64 KB) under Fast DDS `fastDds`, or undefined when it receives nothing. A view into `published`
 * where nothing is added.
 */
export function takenPayload(
  published: Uint8Array,
  take: TakeKind,
  delivery: Delivery,
  fastDds: FastDdsMajor,
): Uint8Array | undefined {
  let bytes = published;
  if (delivery === 'other process') {
    if (published.length === 0) return undefined;
    const padded = (published.length + 3) & ~3;
    if (padded !== published.length) {
      bytes = new Uint8Array(padded);
      bytes.set(published);
    }
  }
  if (take === 'serialized') return bytes;
  if (bytes.length < 4 || bytes[0] !== 0 || !READ_KINDS.has(bytes[1]! & ~1)) return undefined;
  const declared = bytes[3]! & 3;
  return fastDds === 3 && declared > 0 && bytes.length % 4 === 0
    ? bytes.subarray(0, bytes.length - declared)
    : bytes;
}
