import * as assert from 'node:assert/strict';
import { rgbToYuyv } from '../../../src/photos/rgbToYuyv';
import { framePixelsToRgb } from '../../../src/quantize/framePixelsToRgb';

describe('photos/rgbToYuyv', () => {
  it('BT.601 limited range: black, white and grey at 16 / 235 / 126 luma, neutral chroma', () => {
    const rgb = Buffer.from([0, 0, 0, 255, 255, 255, 128, 128, 128, 128, 128, 128]);
    const yuyv = rgbToYuyv({ data: rgb, width: 4, height: 1 }, 4);
    assert.deepEqual([...yuyv], [16, 128, 235, 128, 126, 128, 126, 128]);
  });

  it('round-trips through the engine-side conversion within chroma subsampling', () => {
    // Pixel pairs of one colour each (a pair shares its chroma), every channel swept.
    const width = 64;
    const height = 8;
    const rgb = Buffer.alloc(width * height * 3);
    for (let i = 0; i < width * height; i += 2) {
      for (const j of [i, i + 1]) {
        rgb[j * 3] = (i * 7) % 256;
        rgb[j * 3 + 1] = (i * 13 + 40) % 256;
        rgb[j * 3 + 2] = (i * 29 + 90) % 256;
      }
    }
    const yuyv = rgbToYuyv({ data: rgb, width, height }, width);
    const back = framePixelsToRgb({ data: yuyv, width, height, step: width * 2, encoding: 'yuyv' });
    let worst = 0;
    for (let k = 0; k < rgb.length; k++) worst = Math.max(worst, Math.abs(back.data[k]! - rgb[k]!));
    // Limited range quantizes 256 levels to 220 / 225: a level or two of rounding per channel.
    assert.ok(worst <= 3, `largest difference ${worst}`);
  });

  it('drops an odd last column and refuses an odd width', () => {
    const rgb = Buffer.alloc(3 * 2 * 3, 200);
    assert.equal(rgbToYuyv({ data: rgb, width: 3, height: 2 }, 2).length, 2 * 2 * 2);
    assert.throws(
      () => rgbToYuyv({ data: rgb, width: 3, height: 2 }, 3),
      /RangeError: YUYV width must be even and at most 3, got 3/,
    );
  });
});
