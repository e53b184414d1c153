import { strict as assert } from 'node:assert';
import {
  checkConversion,
  CONVERSION_RELATIVE_BOUND,
  conversionBound,
  type OutputDifference,
  REWRITE_RELATIVE_BOUND,
} from '../../../src/model/conversionCheck';

const out = (name: string, maxAbsDiff: number, maxAbsReference: number): OutputDifference => ({
  name,
  dims: [1, 1],
  maxAbsDiff,
  meanAbsDiff: maxAbsDiff / 10,
  maxAbsReference,
  min: -maxAbsReference,
  max: maxAbsReference,
  worstImage: 'x.png',
});

describe('conversion check bound', function () {
  it('is 2 % of the largest |reference value|, and of 1 below that', function () {
    assert.equal(CONVERSION_RELATIVE_BOUND, 0.02);
    assert.equal(conversionBound(0.5), 0.02);
    assert.equal(conversionBound(1), 0.02);
    assert.equal(conversionBound(600), 12);
    assert.equal(conversionBound(28, REWRITE_RELATIVE_BOUND), 28e-4);
  });

  it('passes the differences measured on the MediaPipe files, fails a broken rewrite and NaN', function () {
    // pose_landmark_full's segmentation logits (the worst measured) and the selfie mask.
    const good = checkConversion([out('Identity_2', 9.07, 1880), out('activation_10', 1.6e-4, 1)]);
    assert.equal(good.ok, true);
    assert.deepEqual(
      good.outputs.map((o) => [o.bound, o.ok]),
      [
        [37.6, true],
        [0.02, true],
      ],
    );
    // The selfie model with the ConvTranspose bias dropped differed by 0.13.
    const broken = checkConversion([out('activation_10', 0.13, 1), out('other', 0, 3)]);
    assert.equal(broken.ok, false);
    assert.deepEqual(
      broken.outputs.map((o) => o.ok),
      [false, true],
    );
    assert.equal(checkConversion([out('n', Number.NaN, 1)]).ok, false);
    assert.equal(checkConversion([out('n', 0, Number.NaN)]).ok, false);
  });
});
