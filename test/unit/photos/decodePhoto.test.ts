import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { decodePhoto } from '../../../src/photos/photoFrames';
import { loadSharp } from '../../../src/util/loadSharp';
import { tempDir } from '../../support/tempDir';

// Two photos of different sizes and shapes: a wide red one and a tall blue one.
async function photos(dir: string): Promise<string[]> {
  const sharp = loadSharp();
  const wide = path.join(dir, 'a-wide.png');
  const tall = path.join(dir, 'b-tall.png');
  await sharp({
    create: { width: 400, height: 100, channels: 3, background: { r: 255, g: 0, b: 0 } },
  })
    .png()
    .toFile(wide);
  await sharp({
    create: { width: 60, height: 300, channels: 3, background: { r: 0, g: 0, b: 255 } },
  })
    .png()
    .toFile(tall);
  return [wide, tall];
}

const pixel = (d: Buffer, width: number, x: number, y: number): number[] => {
  const i = (y * width + x) * 3;
  return [d[i]!, d[i + 1]!, d[i + 2]!];
};

describe('decodePhoto sizing (image_source width/height, max_side)', function () {
  let dir: string;
  let files: string[];
  before(async function () {
    dir = tempDir('htp-decode-photo-');
    files = await photos(dir);
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('letterboxes every photo into one camera size, black bars, the photo centred and whole', async function () {
    const sizing = { maxSide: 0, width: 320, height: 240 };
    const [wide, tall] = await Promise.all(files.map((f) => decodePhoto(f, 'rgb8', sizing)));
    for (const p of [wide!, tall!]) {
      assert.deepEqual([p.width, p.height, p.step, p.data.length], [320, 240, 960, 320 * 240 * 3]);
      const jpeg = await loadSharp()(p.jpeg).metadata();
      assert.deepEqual([jpeg.width, jpeg.height], [320, 240]);
    }
    // 400x100 scaled to 320x80: bars above and below, red in the middle row.
    assert.deepEqual(pixel(wide!.data, 320, 160, 2), [0, 0, 0]);
    assert.deepEqual(pixel(wide!.data, 320, 160, 120), [255, 0, 0]);
    // 60x300 scaled to 48x240: bars left and right, blue in the middle column.
    assert.deepEqual(pixel(tall!.data, 320, 2, 120), [0, 0, 0]);
    assert.deepEqual(pixel(tall!.data, 320, 160, 120), [0, 0, 255]);
  });

  it('keeps a letterboxed yuyv frame and its JPEG at the same even width', async function () {
    const p = await decodePhoto(files[0]!, 'yuyv', { maxSide: 0, width: 321, height: 240 });
    assert.deepEqual([p.width, p.height, p.step], [320, 240, 640]);
    const jpeg = await loadSharp()(p.jpeg).metadata();
    assert.deepEqual([jpeg.width, jpeg.height], [320, 240]);
  });

  it('leaves each photo its own size without width/height, or only shrinks it with max_side', async function () {
    const own = await Promise.all(
      files.map((f) => decodePhoto(f, 'rgb8', { maxSide: 0, width: 0, height: 0 })),
    );
    assert.deepEqual(
      own.map((p) => [p.width, p.height]),
      [
        [400, 100],
        [60, 300],
      ],
    );
    const shrunk = await decodePhoto(files[0]!, 'rgb8', { maxSide: 200, width: 0, height: 0 });
    assert.deepEqual([shrunk.width, shrunk.height], [200, 50]);
  });
});
