import { strict as assert } from 'node:assert';
import { COCO_CLASS_NAMES } from '../../../src/heads/cocoClassNames';
import { COCO_KEYPOINT_NAMES, COCO_SKELETON } from '../../../src/heads/cocoKeypoints';
import { VOC_CLASS_NAMES } from '../../../src/heads/vocClassNames';

describe('heads class and keypoint constants', () => {
  it('COCO: 80 unique classes, person first and toothbrush last', () => {
    assert.equal(COCO_CLASS_NAMES.length, 80);
    assert.equal(new Set(COCO_CLASS_NAMES).size, 80);
    assert.equal(COCO_CLASS_NAMES[0], 'person');
    assert.equal(COCO_CLASS_NAMES[16], 'dog');
    assert.equal(COCO_CLASS_NAMES[33], 'kite');
    assert.equal(COCO_CLASS_NAMES[79], 'toothbrush');
  });

  it('COCO keypoints: 17 names and 19 zero-based limbs within range', () => {
    assert.equal(COCO_KEYPOINT_NAMES.length, 17);
    assert.equal(COCO_KEYPOINT_NAMES[0], 'nose');
    assert.equal(COCO_KEYPOINT_NAMES[16], 'right_ankle');
    assert.equal(COCO_SKELETON.length, 19);
    assert.deepEqual(COCO_SKELETON[0], [15, 13]); // left ankle - left knee
    assert.deepEqual(COCO_SKELETON[18], [4, 6]); // right ear - right shoulder
    for (const [a, b] of COCO_SKELETON) assert.ok(a >= 0 && a < 17 && b >= 0 && b < 17 && a !== b);
    assert.equal(
      new Set(COCO_SKELETON.map(([a, b]) => `${Math.min(a, b)}-${Math.max(a, b)}`)).size,
      19,
    );
  });

  it('VOC: 21 classes, background first, person at 15', () => {
    assert.equal(VOC_CLASS_NAMES.length, 21);
    assert.equal(VOC_CLASS_NAMES[0], 'background');
    assert.equal(VOC_CLASS_NAMES[15], 'person');
  });
});
