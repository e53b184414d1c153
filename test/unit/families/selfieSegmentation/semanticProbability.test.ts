import { strict as assert } from 'node:assert';
import { decodeSemanticProbability } from '../../../../src/families/selfieSegmentation/decodeSemanticProbability';
import type { ImageTransform } from '../../../../src/core/tensor';
import { f32, throwsHead } from '../../heads/headTestUtils';

/** A 4x2 network input stretched over an 8x4 source: each network pixel covers 2x2 source px. */
const STRETCH: ImageTransform = {
  srcWidth: 8,
  srcHeight: 4,
  crop: { x: 0, y: 0, width: 8, height: 4 },
  dstWidth: 4,
  dstHeight: 2,
  scaleX: 0.5,
  scaleY: 0.5,
  padX: 0,
  padY: 0,
};

describe('decodeSemanticProbability', () => {
  const probs = [0.1, 0.5, 0.9, NaN, 0.49, 0.51, 0, 1];

  it('thresholds (>=) and resizes to the source, NaN as background', () => {
    const m = decodeSemanticProbability(f32('p', [1, 2, 4, 1], probs), STRETCH, 0.5);
    assert.equal(m.width, 8);
    assert.equal(m.height, 4);
    const row0 = [0, 0, 1, 1, 1, 1, 0, 0];
    const row1 = [0, 0, 1, 1, 0, 0, 1, 1];
    assert.deepEqual([...m.data], [...row0, ...row0, ...row1, ...row1]);
  });

  it('reads NCHW maps and follows the threshold', () => {
    const m = decodeSemanticProbability(f32('p', [1, 1, 2, 4], probs), STRETCH, 0.95, 'NCHW');
    assert.deepEqual(
      [...m.data].reduce((a, v) => a + v, 0),
      4,
      'only the 1.0 pixel (2x2 source px) passes 0.95',
    );
  });

  it('refuses several channels and thresholds outside [0, 1]', () => {
    throwsHead(
      () => decodeSemanticProbability(f32('p', [1, 2, 4, 2]), STRETCH, 0.5),
      'BAD_SHAPE',
      /'p' is \[1, 2, 4, 2\] \(NHWC\), expected one image of one channel/,
    );
    throwsHead(
      () => decodeSemanticProbability(f32('p', [1, 2, 4, 1], probs), STRETCH, 1.5),
      'BAD_OPTION',
      /in \[0, 1\], got 1.5/,
    );
  });
});
