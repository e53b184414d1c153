import { strict as assert } from 'node:assert';
import sharp from 'sharp';
import { contactSheet } from '../../../src/annotate/contactSheet';

describe('contact sheet', function () {
  it('lays encoded and raw pictures out in a captioned grid, each fitted in its tile', async function () {
    const red = await sharp({
      create: { width: 64, height: 32, channels: 3, background: { r: 255, g: 0, b: 0 } },
    })
      .jpeg()
      .toBuffer();
    const blue = {
      width: 2,
      height: 2,
      data: new Uint8Array(12).fill(0).map((_, i) => (i % 3 === 2 ? 255 : 0)),
    };
    const png = await contactSheet(
      [
        { caption: 'detector <1>', image: red },
        { caption: 'segmentation/color', image: blue },
        { caption: 'third', image: red },
      ],
      { tileWidth: 40, tileHeight: 40, columns: 2 },
    );
    const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
    // Two columns of 40 + gaps of 6; two rows of 40 + 22 caption + 6 gap.
    assert.deepEqual([info.width, info.height], [2 * 46 + 6, 2 * 68 + 6]);
    const px = (x: number, y: number) => [
      ...data.subarray(
        (y * info.width + x) * info.channels,
        (y * info.width + x) * info.channels + 3,
      ),
    ];
    // Tile centres: the red picture, letterboxed (64x32 into 40x40), and the blue one stretched.
    const [r] = px(6 + 20, 6 + 20);
    assert.ok(r! > 200, `red tile centre, got ${px(26, 26).join(',')}`);
    const [, , b] = px(52 + 20, 6 + 20);
    assert.ok(b! > 200, `blue tile centre, got ${px(72, 26).join(',')}`);
    await assert.rejects(contactSheet([]), RangeError);
  });
});
