import * as assert from 'node:assert/strict';
import { videoFrameSize } from '../../../src/video/videoFrameSize';

describe('videoFrameSize', () => {
  it('keeps the camera size when no bound applies', () => {
    assert.deepEqual(videoFrameSize(640, 480, 0, 0), { width: 640, height: 480 });
    assert.deepEqual(videoFrameSize(640, 480, 0, 1280), { width: 640, height: 480 });
  });

  it('video_width wins over annotated_max_width, never wider than the camera', () => {
    assert.deepEqual(videoFrameSize(1280, 720, 640, 1000), { width: 640, height: 360 });
    assert.deepEqual(videoFrameSize(1280, 720, 0, 960), { width: 960, height: 540 });
    assert.deepEqual(videoFrameSize(640, 480, 1920, 0), { width: 640, height: 480 });
  });

  it('rounds both sides to even, aspect kept within a pixel', () => {
    assert.deepEqual(videoFrameSize(641, 481, 0, 0), { width: 640, height: 480 });
    const s = videoFrameSize(1000, 563, 0, 0);
    assert.equal(s.width % 2, 0);
    assert.equal(s.height % 2, 0);
    assert.ok(Math.abs(s.height - 563) <= 1);
  });

  it('never goes below 16 pixels', () => {
    assert.deepEqual(videoFrameSize(640, 480, 8, 0), { width: 16, height: 16 });
  });
});
