import { strict as assert } from 'node:assert';
import { colorizeLabelMap } from '../../../src/heads/colorizeLabelMap';
import { countLabelPixels } from '../../../src/heads/countLabelPixels';
import { decodeDeeplab } from '../../../src/heads/decodeDeeplab';
import { letterboxTransform } from '../../../src/heads/letterboxTransform';
import type { Tensor } from '../../../src/core/tensor';
import { VOC_PALETTE } from '../../../src/heads/vocPalette';
import { f32, throwsHead } from './headTestUtils';

/** Logits [1, 3, 4, 4] whose argmax at (r, c) is (r + c) % 3. */
function logits(): Tensor {
  const t = f32('logits', [1, 3, 4, 4]);
  const d = t.data as Float32Array;
  for (let r = 0; r < 4; r++) for (let c = 0; c < 4; c++) d[((r + c) % 3) * 16 + r * 4 + c] = 5;
  return t;
}
const grid = (r: number, c: number): number => (r + c) % 3;

describe('heads/decodeDeeplab', () => {
  it('argmaxes logits and resizes nearest to the source (stretch 8x8 -> 4x4)', () => {
    const m = decodeDeeplab(logits(), letterboxTransform(8, 8, 4, 4, 'stretch'));
    assert.equal(m.width, 8);
    assert.equal(m.height, 8);
    for (let v = 0; v < 8; v++)
      for (let u = 0; u < 8; u++) assert.equal(m.data[v * 8 + u], grid(v >> 1, u >> 1));
  });

  it('undoes a letterbox: source rows come from the image band, not the padding', () => {
    // 8x4 source into 4x4: scale 0.5, padY 1, image band is grid rows 1..2
    const m = decodeDeeplab(logits(), letterboxTransform(8, 4, 4, 4));
    for (let v = 0; v < 4; v++)
      for (let u = 0; u < 8; u++) assert.equal(m.data[v * 8 + u], grid(1 + (v >> 1), u >> 1));
  });

  it('reads argmax maps of any integer dtype, [1, H, W] and [1, 1, H, W]', () => {
    const labels = Array.from({ length: 16 }, (_, i) => grid(i >> 2, i & 3));
    const t = letterboxTransform(8, 8, 4, 4, 'stretch');
    const expected = decodeDeeplab(logits(), t).data;
    for (const data of [
      new Uint8Array(labels),
      new Int32Array(labels),
      new BigInt64Array(labels.map(BigInt)),
    ]) {
      assert.deepEqual(decodeDeeplab({ name: 'mask', dims: [1, 4, 4], data }, t).data, expected);
    }
    assert.deepEqual(
      decodeDeeplab({ name: 'mask', dims: [1, 1, 4, 4], data: new Uint8Array(labels) }, t).data,
      expected,
    );
  });

  it('reads NHWC logits when told the layout', () => {
    const src = logits().data as Float32Array;
    const t = f32('logits', [1, 4, 4, 3]);
    for (let c = 0; c < 3; c++)
      for (let p = 0; p < 16; p++) (t.data as Float32Array)[p * 3 + c] = src[c * 16 + p]!;
    const tr = letterboxTransform(8, 8, 4, 4, 'stretch');
    assert.deepEqual(
      decodeDeeplab(t, tr, { layout: 'NHWC' }).data,
      decodeDeeplab(logits(), tr).data,
    );
  });

  it('labels pixels outside the ROI crop as background', () => {
    const tr = letterboxTransform(10, 10, 4, 4, 'stretch', { x: 2, y: 2, width: 4, height: 4 });
    const m = decodeDeeplab(
      { name: 'mask', dims: [1, 4, 4], data: new Uint8Array(16).fill(7) },
      tr,
    );
    for (let v = 0; v < 10; v++)
      for (let u = 0; u < 10; u++)
        assert.equal(m.data[v * 10 + u], u >= 2 && u < 6 && v >= 2 && v < 6 ? 7 : 0, `${u},${v}`);
  });

  it('handles a label grid smaller than the network input (output stride)', () => {
    // 2x2 grid over a 4x4 network over an 8x8 source: each label covers 4x4 source pixels
    const m = decodeDeeplab(
      { name: 'mask', dims: [1, 2, 2], data: new Uint8Array([1, 2, 3, 4]) },
      letterboxTransform(8, 8, 4, 4, 'stretch'),
    );
    assert.equal(m.data[0], 1);
    assert.equal(m.data[7], 2);
    assert.equal(m.data[7 * 8], 3);
    assert.equal(m.data[63], 4);
  });

  it('never picks NaN logits; an all-NaN pixel is background', () => {
    const t = f32('logits', [1, 2, 1, 2], [NaN, NaN, NaN, 1]);
    assert.deepEqual([...decodeDeeplab(t, letterboxTransform(2, 1, 2, 1)).data], [0, 1]);
  });

  it('rejects batches, too many classes and labels outside 0..255', () => {
    const tr = letterboxTransform(4, 4, 4, 4);
    throwsHead(() => decodeDeeplab(f32('l', [2, 3, 4, 4]), tr), 'BAD_SHAPE', /batch 2/);
    throwsHead(() => decodeDeeplab(f32('l', [1, 300, 1, 1]), tr), 'BAD_SHAPE', /300 classes/);
    throwsHead(
      () => decodeDeeplab(f32('l', [1, 3, 4, 4]), tr, { format: 'labels' }),
      'BAD_SHAPE',
      /3 channels, expected 1/,
    );
    throwsHead(
      () => decodeDeeplab({ name: 'mask', dims: [1, 1, 2], data: new Int32Array([3, 256]) }, tr),
      'BAD_VALUE',
      /'mask' holds 256 at 1/,
    );
  });
});

describe('heads/colorizeLabelMap, countLabelPixels, VOC_PALETTE', () => {
  it('has the VOC colours', () => {
    assert.deepEqual([...VOC_PALETTE.subarray(0, 6)], [0, 0, 0, 128, 0, 0]);
    assert.deepEqual([...VOC_PALETTE.subarray(15 * 3, 16 * 3)], [192, 128, 128]);
    assert.deepEqual([...VOC_PALETTE.subarray(20 * 3, 21 * 3)], [0, 64, 128]);
  });

  it('colorizes a label map and counts pixels per class', () => {
    const map = { width: 3, height: 1, data: new Uint8Array([0, 15, 15]) };
    assert.deepEqual([...colorizeLabelMap(map)], [0, 0, 0, 192, 128, 128, 192, 128, 128]);
    const counts = countLabelPixels(map);
    assert.equal(counts.length, 256);
    assert.equal(counts[0], 1);
    assert.equal(counts[15], 2);
    assert.equal(
      counts.reduce((a, b) => a + b, 0),
      3,
    );
  });

  it('draws labels beyond a short palette black and rejects bad inputs', () => {
    const map = { width: 2, height: 1, data: new Uint8Array([1, 5]) };
    assert.deepEqual(
      [...colorizeLabelMap(map, new Uint8Array([0, 0, 0, 9, 9, 9]))],
      [9, 9, 9, 0, 0, 0],
    );
    throwsHead(
      () => colorizeLabelMap({ ...map, width: 3 }),
      'BAD_DATA_LENGTH',
      /3x1 holds 2 bytes/,
    );
    throwsHead(() => colorizeLabelMap(map, new Uint8Array(4)), 'BAD_OPTION', /triples/);
  });
});
