import { strict as assert } from 'node:assert';
import sharp from 'sharp';
import { annotationSvg } from '../../../src/annotate/annotationSvg';
import { labelTint } from '../../../src/annotate/labelTint';
import { paletteColor } from '../../../src/core/palette';
import { renderAnnotated } from '../../../src/annotate/renderAnnotated';

describe('annotation rendering', function () {
  it('draws one rect per box, escapes labels, and skips keypoints below the score floor', function () {
    const svg = annotationSvg(100, 80, {
      boxes: [{ x1: 10, y1: 10, x2: 50, y2: 40, label: 'cup <&> 0.50', colorIndex: 41 }],
      keypoints: [
        {
          points: [
            [20, 20, 0.9],
            [30, 30, 0.2],
            [40, 20, 0.8],
          ],
          skeleton: [
            [0, 1],
            [0, 2],
          ],
          minScore: 0.5,
        },
      ],
    });
    assert.equal((svg.match(/<circle /g) ?? []).length, 2, 'the 0.2 keypoint is hidden');
    assert.equal((svg.match(/<line /g) ?? []).length, 1, 'only the 0-2 bone has both ends visible');
    assert.match(svg, /cup &lt;&amp;&gt; 0\.50/);
    assert.equal((svg.match(/<rect /g) ?? []).length, 2, 'box outline and label background');
  });

  it('tints only non-zero labels, with the palette colour and alpha', function () {
    const tint = labelTint({ width: 2, height: 1, labels: new Uint16Array([0, 7]), alpha: 0.5 });
    assert.deepEqual([...tint.subarray(0, 4)], [0, 0, 0, 0]);
    assert.deepEqual([...tint.subarray(4, 8)], [...paletteColor(7), 128]);
    assert.throws(
      () => labelTint({ width: 3, height: 3, labels: new Uint8Array(4), alpha: 1 }),
      RangeError,
    );
  });

  it('renders a real image whose box edge and mask pixels carry their colours', async function () {
    const width = 64;
    const height = 48;
    const data = new Uint8Array(width * height * 3).fill(0);
    const labels = new Uint8Array(width * height);
    for (let y = 30; y < 40; y++) for (let x = 40; x < 60; x++) labels[y * width + x] = 3;
    const png = await renderAnnotated(
      { width, height, data },
      {
        boxes: [{ x1: 4, y1: 20, x2: 30, y2: 44, label: '', colorIndex: 0 }],
        keypoints: [],
        labels: { width, height, labels, alpha: 1 },
      },
      'png',
    );
    const { data: out, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
    assert.equal(info.width, width);
    assert.equal(info.height, height);
    const px = (x: number, y: number): number[] => [
      ...out.subarray((y * width + x) * info.channels, (y * width + x) * info.channels + 3),
    ];
    const near = (a: number[], b: readonly number[]): boolean =>
      a.every((v, i) => Math.abs(v - b[i]!) <= 40);
    assert.ok(near(px(4, 32), paletteColor(0)), `left box edge is ${px(4, 32)}`);
    assert.ok(near(px(50, 35), paletteColor(3)), `mask pixel is ${px(50, 35)}`);
    assert.deepEqual(px(15, 5), [0, 0, 0], 'untouched background');
  });

  it('renders packed rgb8 rows, for raw image topics: box edges coloured, the rest untouched', async function () {
    const width = 60;
    const height = 40;
    const data = new Uint8Array(width * height * 3).fill(90);
    const annotation = {
      boxes: [{ x1: 10, y1: 25, x2: 50, y2: 38, label: '', colorIndex: 5 }],
      keypoints: [],
    };
    const raw = await renderAnnotated({ width, height, data }, annotation, 'rgb8');
    assert.equal(raw.length, width * height * 3, 'tightly packed rgb8, no alpha or row padding');
    const px = (x: number, y: number): number[] => [
      ...raw.subarray((y * width + x) * 3, (y * width + x) * 3 + 3),
    ];
    // The 2 px stroke is centred on the box outline, so these pixels lie wholly inside it.
    const edgeColour = paletteColor(5);
    const near = (a: number[]): boolean => a.every((v, i) => Math.abs(v - edgeColour[i]!) <= 40);
    assert.ok(near(px(10, 30)), `left edge is ${px(10, 30)}`);
    assert.ok(near(px(30, 25)), `top edge is ${px(30, 25)}`);
    assert.ok(near(px(49, 37)), `bottom-right corner is ${px(49, 37)}`);
    assert.deepEqual(px(30, 31), [90, 90, 90], 'inside the box');
    assert.deepEqual(px(30, 10), [90, 90, 90], 'above the box');
    assert.deepEqual(px(5, 30), [90, 90, 90], 'left of the box');
  });
});
