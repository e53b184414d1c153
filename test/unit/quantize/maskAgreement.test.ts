import { strict as assert } from 'node:assert';
import { instanceMaskIou, LabelMapAgreement } from '../../../src/quantize/maskAgreement';
import type { InstanceMask } from '../../../src/core/headResults';

/** A mask over region (x, y, w, h) with every pixel set. */
const full = (x: number, y: number, width: number, height: number): InstanceMask => ({
  x,
  y,
  width,
  height,
  data: new Uint8Array(width * height).fill(1),
});

const map = (width: number, height: number, labels: number[]) => ({
  width,
  height,
  data: Uint8Array.from(labels),
});

describe('mask agreement', () => {
  it('instance mask IoU over regions at different places (known answers)', () => {
    assert.equal(instanceMaskIou(full(0, 0, 4, 4), full(0, 0, 4, 4)), 1);
    // 4x4 at (0,0) vs 4x4 at (2,0): overlap 2x4 = 8, union 24.
    assert.equal(instanceMaskIou(full(0, 0, 4, 4), full(2, 0, 4, 4)), 8 / 24);
    assert.equal(instanceMaskIou(full(0, 0, 2, 2), full(5, 5, 2, 2)), 0);
    assert.equal(instanceMaskIou(full(0, 0, 0, 0), full(3, 3, 0, 0)), 1, 'both empty');
  });

  it('counts set pixels only, not the region', () => {
    const a: InstanceMask = {
      x: 0,
      y: 0,
      width: 4,
      height: 1,
      data: Uint8Array.from([1, 1, 0, 0]),
    };
    const b: InstanceMask = { x: 1, y: 0, width: 3, height: 1, data: Uint8Array.from([1, 1, 1]) };
    // a = {0, 1}, b = {1, 2, 3}: intersection {1}, union 4.
    assert.equal(instanceMaskIou(a, b), 1 / 4);
  });

  it('mIoU of label maps: per class intersection / union summed over images, then averaged', () => {
    const l = new LabelMapAgreement();
    // Class 0: inter 2, union 3; class 1: inter 1, union 2.
    l.add(map(2, 2, [0, 0, 0, 1]), map(2, 2, [0, 0, 1, 1]));
    assert.ok(Math.abs(l.meanIou - (2 / 3 + 1 / 2) / 2) < 1e-12);
    assert.equal(l.pixelAgreement, 3 / 4);
    assert.deepEqual(l.classes, [0, 1]);
    // A second, identical image of class 2 only: class 2 IoU 1, the others unchanged.
    l.add(map(2, 1, [2, 2]), map(2, 1, [2, 2]));
    assert.ok(Math.abs(l.meanIou - (2 / 3 + 1 / 2 + 1) / 3) < 1e-12);
    assert.equal(l.pixelAgreement, 5 / 6);
  });

  it('identical maps give mIoU 1; maps of different sizes are refused', () => {
    const l = new LabelMapAgreement();
    assert.equal(l.meanIou, 1, 'nothing added');
    l.add(map(3, 1, [4, 5, 6]), map(3, 1, [4, 5, 6]));
    assert.equal(l.meanIou, 1);
    assert.throws(() => l.add(map(3, 1, [0, 0, 0]), map(1, 3, [0, 0, 0])), /differ in size/);
  });
});
