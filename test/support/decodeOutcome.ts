/**
 * The one rule every decoder property checks on hostile bytes: a decoder either returns a message
 * that passes `accept` (self-consistent, pixels inside the received buffer) or throws FrameError
 * with the code the mutation leaves it (when there is only one) and a message naming the field.
 * Anything else (a TypeError, a RangeError from reading out of bounds, garbage accepted) fails.
 */
import { strict as assert } from 'node:assert';
import { FrameError } from '../../src/ros/frameError';
import type { Hostile } from './rosMessageArbitraries';

/** Words of every decoder's messages that name where the message went wrong. */
const COMMON_FIELDS = [
  'header.stamp.sec',
  'header.stamp.nanosec',
  'header.frame_id',
  'CDR header',
  'CDR representation',
];

export function checkHostileOutcome<T>(
  h: Hostile,
  decode: (bytes: Uint8Array) => T,
  fields: readonly string[],
  accept: (value: T, bytes: Uint8Array) => void,
): void {
  let value: T;
  try {
    value = decode(h.bytes);
  } catch (e) {
    assert.ok(e instanceof FrameError, `${h.kind}: threw ${String(e)}, not a FrameError`);
    if (h.expect) assert.equal(e.code, h.expect, `${h.kind}: ${e.message}`);
    assert.ok(e.message.startsWith(`${e.code}: `), e.message);
    assert.ok(
      [...COMMON_FIELDS, ...fields].some((f) => e.message.includes(f)),
      `${h.kind}: "${e.message}" names no field`,
    );
    return;
  }
  assert.equal(h.expect, undefined, `${h.kind}: accepted, expected ${h.expect ?? ''}`);
  accept(value, h.bytes);
}

/** `view` lies inside `bytes` (a decoded byte sequence must be a view, never a read past it). */
export function assertViewInside(view: Uint8Array, bytes: Uint8Array, what: string): void {
  assert.equal(view.buffer, bytes.buffer, `${what} is not a view of the message`);
  assert.ok(view.byteOffset >= bytes.byteOffset, `${what} starts before the message`);
  assert.ok(
    view.byteOffset + view.length <= bytes.byteOffset + bytes.length,
    `${what} ends after the message`,
  );
}
