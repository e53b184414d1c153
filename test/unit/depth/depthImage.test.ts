import { strict as assert } from 'node:assert';
import { DepthImage, DepthImageError, parseDepthEncoding } from '../../../src/depth/depthImage';

describe('depth/depthImage', function () {
  it('reads 16UC1 millimetres in either byte order, 0 as no depth, past row padding', function () {
    const step = 8; // 3 pixels + 2 bytes of padding
    for (const big of [false, true]) {
      const buf = new DataView(new ArrayBuffer(step * 2));
      buf.setUint16(0, 2000, !big);
      buf.setUint16(2, 0, !big);
      buf.setUint16(step + 4, 65535, !big);
      const img = new DepthImage({
        width: 3,
        height: 2,
        step,
        encoding: '16UC1',
        isBigEndian: big,
        data: new Uint8Array(buf.buffer),
      });
      assert.equal(img.metresAt(0, 0), 2);
      assert.ok(Number.isNaN(img.metresAt(1, 0)));
      assert.equal(img.metresAt(2, 1), 65.535);
    }
  });

  it('reads 32FC1 metres; NaN, inf, 0 and negatives are no depth', function () {
    const f = new Float32Array([1.5, NaN, Infinity, 0, -1, 0.25]);
    const img = new DepthImage({
      width: 6,
      height: 1,
      step: 24,
      encoding: '32FC1',
      isBigEndian: false,
      data: new Uint8Array(f.buffer),
    });
    const got = [0, 1, 2, 3, 4, 5].map((x) => img.metresAt(x, 0));
    assert.equal(got[0], 1.5);
    assert.equal(got[5], 0.25);
    for (const i of [1, 2, 3, 4]) assert.ok(Number.isNaN(got[i]), `pixel ${i}: ${got[i]}`);
  });

  it('refuses a short buffer or step, naming the numbers', function () {
    assert.throws(
      () =>
        new DepthImage({
          width: 4,
          height: 2,
          step: 6,
          encoding: '16UC1',
          isBigEndian: false,
          data: new Uint8Array(16),
        }),
      (e: unknown) => e instanceof DepthImageError && /step 6 < width 4 x 2/.test(e.message),
    );
    assert.throws(
      () =>
        new DepthImage({
          width: 4,
          height: 2,
          step: 8,
          encoding: '16UC1',
          isBigEndian: false,
          data: new Uint8Array(15),
        }),
      /15 bytes, 16UC1 4x2 step 8 needs 16/,
    );
  });

  it('knows the REP-118 encodings and mono16 as 16UC1', function () {
    assert.equal(parseDepthEncoding('16UC1'), '16UC1');
    assert.equal(parseDepthEncoding('mono16'), '16UC1');
    assert.equal(parseDepthEncoding('32FC1'), '32FC1');
    assert.equal(parseDepthEncoding('rgb8'), undefined);
  });
});
