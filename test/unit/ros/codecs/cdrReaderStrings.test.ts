import * as assert from 'node:assert/strict';
import { CdrReader } from '../../../../src/ros/codecs/cdrReader';
import { CdrWriter } from '../../../../src/ros/codecs/cdrWriter';

/** A message of CDR strings, as a frame's header and encoding are serialized. */
function strings(values: readonly string[]): Uint8Array {
  const w = new CdrWriter(values.reduce((n, v) => n + CdrWriter.stringSize(v), 0));
  for (const v of values) w.string(v);
  return w.finish();
}

function read(message: Uint8Array, count: number): string[] {
  const r = new CdrReader(message);
  return Array.from({ length: count }, (_, i) => r.string(`s${i}`));
}

describe('CdrReader strings: repeats come from the recent ones, always the bytes received', () => {
  it('returns what the bytes say, across repeats, same-length strings and more than it keeps', () => {
    const names = [
      'camera_optical_frame',
      'camera_optical_framf', // same length, one byte apart
      'rgb8',
      'bgr8',
      'mono8',
      '',
      'caméra', // UTF-8
      'x'.repeat(64),
      'y'.repeat(65), // longer than kept: decoded every time
      'a',
      'b',
      'c',
    ];
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < names.length; i++) {
        const pair = [names[i]!, names[(i * 5 + round) % names.length]!];
        assert.deepEqual(read(strings(pair), 2), pair);
      }
    }
  });

  it('is not fooled by a buffer rewritten in place after a read (a pooled receive buffer)', () => {
    const message = strings(['rgb8']);
    assert.deepEqual(read(message, 1), ['rgb8']);
    message[message.indexOf(0x72)] = 0x62; // "rgb8" -> "bgb8" in the same buffer
    assert.deepEqual(read(message, 1), ['bgb8']);
  });

  it('decodes invalid UTF-8 as Buffer does, every time', () => {
    const bad = strings(['ab']);
    bad[bad.indexOf(0x61)] = 0xff;
    const want = Buffer.from([0xff, 0x62]).toString('utf8');
    assert.deepEqual(read(bad, 1), [want]);
    assert.deepEqual(read(bad, 1), [want]);
  });
});
