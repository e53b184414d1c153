import { strict as assert } from 'node:assert';
import { DRAWABLE_ENCODINGS, toRgbImage } from '../../../src/annotate/toRgbImage';
import { IMAGE_ENCODINGS } from '../../../src/core/imageEncoding';

describe('annotate/toRgbImage', () => {
  it('draws on every encoding the intake accepts: a camera switching to yuyv keeps its picture', () => {
    assert.deepEqual(
      [...IMAGE_ENCODINGS].filter((e) => !DRAWABLE_ENCODINGS.has(e)),
      [],
    );
  });

  it('yuyv with row padding: each pixel its own luma, the pair its chroma (BT.601 limited range)', () => {
    const data = Buffer.from([16, 128, 235, 128, 99, 99, 81, 90, 81, 240, 99, 99]);
    const out = toRgbImage({ data, width: 2, height: 2, step: 6, encoding: 'yuyv' });
    assert.deepEqual([...out.data.subarray(0, 6)], [0, 0, 0, 255, 255, 255]);
    const [r, g, b] = [...out.data.subarray(6, 9)];
    assert.ok(r! > 250 && g! < 5 && b! < 5, `BT.601 red: ${r} ${g} ${b}`);
  });
});
