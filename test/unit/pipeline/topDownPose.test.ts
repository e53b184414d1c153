import { strict as assert } from 'node:assert';
import { personBoxes, personClassIds } from '../../../src/pipeline/topDownPose';
import type { Detection } from '../../../src/core/headResults';

const det = (classId: number, x1: number): Detection => ({
  classId,
  score: 0.9,
  box: { x1, y1: 0, x2: x1 + 10, y2: 20 },
});

describe('top-down pose wiring', () => {
  it('sends only the boxes of person classes to the pose model', () => {
    const coco = ['person', 'bicycle', 'car'];
    const ids = new Set(personClassIds(coco, ['person'], 'yolov8n'));
    const boxes = personBoxes([det(0, 1), det(2, 50), det(1, 100), det(0, 200)], ids);
    assert.deepEqual(
      boxes.map((b) => b.x1),
      [1, 200],
    );
  });

  it('takes several person classes (a fall detector: Normal and Fall are both people)', () => {
    const ids = personClassIds(['Normal', 'Fall'], ['Normal', 'Fall'], 'yolov8s-fall');
    assert.deepEqual(ids, [0, 1]);
  });

  it('refuses a detector with none of the person classes, listing the ones it has', () => {
    assert.throws(
      () => personClassIds(['Normal', 'Fall'], ['person'], 'yolov8s-fall'),
      (e: Error) =>
        e.name === 'ConfigError' &&
        /person_classes \[person\] names no class of the person detector yolov8s-fall \(Normal, Fall\)/.test(
          e.message,
        ),
    );
  });
});
