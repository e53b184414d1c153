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
 *   bytes, a non-zero first byte, an unknown representation) makes Fast DDS drop the message, and
 *   when the header's options declare final padding (their two low bits) and the payload is a
 *   multiple of 4 long, Fast CDR leaves that padding off.
 *
 * A published message of 0 bytes never reaches a subscriber in another process at all: Fast DDS
 * sends it as a DATA submessage without payload, which the reader discards.
 */
import type { TakeKind } from '../../src/ros/directTake';

/** Where the subscription is: in the publisher's process or in another. */
export type Delivery = 'same process' | 'other process';

/** Encapsulation kinds Fast CDR 2 reads (second header byte, endianness bit cleared). */
const READ_KINDS: ReadonlySet<number> = new Set([0x0, 0x2, 0x6, 0x8, 0xa]);

/**
 * The bytes a raw subscription with `take` receives for `published` (sent whole: under about
 * 64 KB), or undefined when it receives nothing. A view into `published` where nothing is added.
 */
export function takenPayload(
  published: Uint8Array,
  take: TakeKind,
  delivery: Delivery,
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
  return declared > 0 && bytes.length % 4 === 0
    ? bytes.subarray(0, bytes.length - declared)
    : bytes;
}
