import { strict as assert } from 'node:assert';
import { bt601LimitedToRgb, framePixelsToRgb } from '../../../src/quantize/framePixelsToRgb';

describe('frame pixels to rgb8 for calibration PNGs', () => {
  it('BT.601 limited range: black, white and mid grey map exactly; chroma gives colour', () => {
    assert.deepEqual(bt601LimitedToRgb(16, 128, 128), [0, 0, 0]);
    assert.deepEqual(bt601LimitedToRgb(235, 128, 128), [255, 255, 255]);
    assert.deepEqual(bt601LimitedToRgb(126, 128, 128), [128, 128, 128]);
    const [r, g, b] = bt601LimitedToRgb(81, 90, 240); // BT.601 red
    assert.ok(r > 250 && g < 5 && b < 5, `${r} ${g} ${b}`);
  });

  it('bgr8 with row padding becomes packed rgb8', () => {
    const data = Buffer.from([3, 2, 1, 6, 5, 4, 99, 9, 8, 7, 12, 11, 10, 99]);
    const out = framePixelsToRgb({ data, width: 2, height: 2, step: 7, encoding: 'bgr8' });
    assert.deepEqual([...out.data], [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
  });

  it('hands a packed rgb8 frame on as it is, without a copy', () => {
    const data = Buffer.from([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    const out = framePixelsToRgb({ data, width: 2, height: 2, step: 6, encoding: 'rgb8' });
    assert.equal(out.data, data);
    assert.deepEqual([out.width, out.height], [2, 2]);
  });

  it('yuyv, uyvy (ROS yuv422) and nv12 of one grey level agree', () => {
    const grey = bt601LimitedToRgb(126, 128, 128);
    const expect = [...grey, ...grey, ...grey, ...grey];
    const yuyv = Buffer.from([126, 128, 126, 128, 126, 128, 126, 128]);
    const uyvy = Buffer.from([128, 126, 128, 126, 128, 126, 128, 126]);
    const nv12 = Buffer.from([126, 126, 126, 126, 128, 128]);
    for (const [encoding, data, step] of [
      ['yuyv', yuyv, 4],
      ['yuv422', uyvy, 4],
      ['nv12', nv12, 2],
    ] as const) {
      const out = framePixelsToRgb({ data, width: 2, height: 2, step, encoding });
      assert.deepEqual([...out.data], expect, encoding);
    }
  });

  it('yuyv keeps each pixel its own luma', () => {
    const out = framePixelsToRgb({
      data: Buffer.from([16, 128, 235, 128]),
      width: 2,
      height: 1,
      step: 4,
      encoding: 'yuyv',
    });
    assert.deepEqual([...out.data], [0, 0, 0, 255, 255, 255]);
  });
});
