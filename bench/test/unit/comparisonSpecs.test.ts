import assert from 'node:assert/strict';
import { parseSpecs } from '../../src/comparisonSpecs';

describe('bench:ultralytics --models specs', () => {
  it('reads model, model=reference.onnx and model=reference.onnx@iou', () => {
    assert.deepEqual(parseSpecs('yolo11n, /a/b.onnx ,yolo11n-seg=/r/s.onnx@0.45'), [
      { ours: 'yolo11n' },
      { ours: '/a/b.onnx' },
      { ours: 'yolo11n-seg', reference: '/r/s.onnx', iou: 0.45 },
    ]);
  });

  it('refuses an IoU out of (0, 1] and a malformed item, naming it', () => {
    assert.throws(() => parseSpecs('m=r.onnx@1.5'), /'m=r.onnx@1.5': IoU out of \(0, 1\]/);
    assert.throws(() => parseSpecs('m@x'), /'m@x' is not model\[=reference.onnx\]\[@iou\]/);
  });
});
