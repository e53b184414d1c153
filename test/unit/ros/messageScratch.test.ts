import * as assert from 'node:assert/strict';
import { MessageScratch } from '../../../src/ros/codecs/cdrWriter';
import { decodeImage, encodeImage, type ImageToEncode } from '../../../src/ros/codecs/imageCodec';

function image(frameId: string, width: number, height: number, seed: number): ImageToEncode {
  return {
    header: { stamp: { sec: 7 + seed, nanosec: 11 }, frameId },
    height,
    width,
    encoding: seed % 2 === 0 ? 'mono8' : 'mono16',
    step: width * (seed % 2 === 0 ? 1 : 2),
    data: Uint8Array.from(
      { length: width * height * (seed % 2 === 0 ? 1 : 2) },
      (_, i) => (i * 31 + seed) & 0xff,
    ),
  };
}

describe('MessageScratch: large messages written into one reused buffer', () => {
  it('gives the bytes of a fresh buffer, message after message, padding included', () => {
    const scratch = new MessageScratch();
    // Garbage first, so stale bytes would show in the padding or the encapsulation header.
    scratch.take(4096).fill(0xa5);
    const sequence = [
      image('camera_optical_frame', 40, 30, 0),
      image('cam', 40, 30, 1), // a shorter frame_id moves the alignment padding
      image('camera_optical_frame', 7, 5, 2),
      image('a_much_longer_frame_id_than_before', 64, 48, 3), // outgrows the buffer
      image('c', 3, 3, 4),
    ];
    for (const [i, im] of sequence.entries()) {
      const reused = encodeImage(im, scratch);
      const fresh = encodeImage(im);
      assert.ok(reused.equals(fresh), `message ${i} differs`);
      if (im.encoding !== 'mono8') continue; // mono16 label images are ours to write, not to read
      const back = decodeImage(reused);
      assert.equal(back.header.frameId, im.header.frameId);
      assert.ok(Buffer.from(back.data).equals(Buffer.from(im.data)));
    }
  });
});
