import { strict as assert } from 'node:assert';
import { explicitSplit, splitEveryNth } from '../../../src/quantize/calibrationSplit';

describe('calibration / validation split', () => {
  it('holds out every 4th image in name order, whatever order the folder listed them in', () => {
    const files = ['g', 'c', 'a', 'e', 'b', 'h', 'd', 'f', 'i'];
    const s = splitEveryNth(files);
    assert.deepEqual(s.holdout, ['d', 'h']);
    assert.deepEqual(s.calibration, ['a', 'b', 'c', 'e', 'f', 'g', 'i']);
  });

  it('never puts an image in both sets and loses none', () => {
    const files = Array.from({ length: 13 }, (_, i) => `p${String(i).padStart(2, '0')}.png`);
    const s = splitEveryNth(files);
    assert.equal(s.holdout.length, 3);
    assert.equal(s.calibration.length, 10);
    assert.deepEqual([...s.calibration, ...s.holdout].sort(), files);
  });

  it('refuses when the split leaves nothing to validate on, saying what to do', () => {
    assert.throws(
      () => splitEveryNth(['a', 'b', 'c']),
      (e: Error) =>
        e.name === 'ConfigError' &&
        /3 image\(s\) leave none for validation/.test(e.message) &&
        /--holdout DIR/.test(e.message),
    );
    assert.equal(splitEveryNth(['a', 'b', 'c', 'd']).holdout.length, 1);
  });

  it('with --holdout, refuses a validation image that also calibrates', () => {
    const same = (a: string, b: string): boolean => a === b;
    assert.deepEqual(explicitSplit(['b', 'a'], ['y', 'x'], same), {
      calibration: ['a', 'b'],
      holdout: ['x', 'y'],
    });
    assert.throws(
      () => explicitSplit(['a', 'b'], ['b'], same),
      /shares 1 image\(s\).*\(e\.g\. b\)/,
    );
  });
});
