import { strict as assert } from 'node:assert';
import { annotationSvg } from '../../../src/annotate/annotationSvg';
import { blendLabelColors } from '../../../src/annotate/blendLabelColors';
import { labelTint } from '../../../src/annotate/labelTint';
import { paletteColor } from '../../../src/core/palette';
import { resultAnnotation } from '../../../src/annotate/resultAnnotation';
import { processorLabel, processorsLabel, StreamFigures } from '../../../src/annotate/statusBadge';
import type { ModelManifest } from '../../../src/config/modelManifest';
import { VOC_PALETTE } from '../../../src/heads/vocPalette';

const MANIFEST = { classNames: ['person', 'car'] } as unknown as ModelManifest;

describe('operator views: semantic colours, instance colours, the status badge', function () {
  it('blends class colours over the camera at the given opacity, leaving background pixels alone', function () {
    const image = {
      width: 3,
      height: 1,
      data: new Uint8Array([10, 20, 30, 200, 200, 200, 0, 0, 0]),
    };
    const map = { width: 3, height: 1, data: new Uint8Array([0, 15, 1]) };
    const half = blendLabelColors(image, map, 0.5);
    assert.deepEqual([...half.subarray(0, 3)], [10, 20, 30], 'background untouched');
    // person (15) is (192, 128, 128) in the VOC palette: halfway from 200 towards it.
    assert.deepEqual([...VOC_PALETTE.subarray(45, 48)], [192, 128, 128]);
    assert.deepEqual([...half.subarray(3, 6)], [196, 164, 164]);
    assert.deepEqual([...half.subarray(6, 9)], [64, 0, 0]);
    assert.deepEqual([...blendLabelColors(image, map, 1).subarray(3, 6)], [192, 128, 128]);
    assert.deepEqual([...blendLabelColors(image, map, 0)], [...image.data]);
    assert.deepEqual(
      [...image.data.subarray(3, 6)],
      [200, 200, 200],
      'the camera frame is not written',
    );
  });

  it('refuses a label map of another size than the image', function () {
    assert.throws(
      () =>
        blendLabelColors(
          { width: 2, height: 1, data: new Uint8Array(6) },
          { width: 1, height: 2, data: new Uint8Array(2) },
          0.5,
        ),
      { name: 'RangeError', message: 'label map is 1x2 but the image is 2x1' },
    );
  });

  it('colours each instance (mask and box) by its id, the track id when the detection carries one', function () {
    const mask = (x: number) => ({ x, y: 0, width: 1, height: 1, data: new Uint8Array([1]) });
    const box = { x1: 0, y1: 0, x2: 1, y2: 1 };
    const a = resultAnnotation(
      {
        task: 'segment',
        instances: [
          { box, classId: 0, score: 0.9, mask: mask(0) },
          { box, classId: 0, score: 0.8, mask: mask(1), trackId: 7 } as never,
        ],
        timings: { preprocessMs: 0, inferenceMs: 0, headMs: 0 },
      } as never,
      MANIFEST,
      2,
      1,
    );
    assert.deepEqual(
      a.boxes.map((b) => [b.colorIndex, b.label]),
      [
        [1, 'person 0.90'],
        [7, 'person 0.80 #7'],
      ],
    );
    const tint = labelTint(a.labels!);
    assert.deepEqual([...tint.subarray(0, 3)], [...paletteColor(1)]);
    assert.deepEqual([...tint.subarray(4, 7)], [...paletteColor(7)], 'mask in its track colour');
  });

  it('names the processor from the placement of graph nodes', function () {
    assert.equal(processorLabel({ CPUExecutionProvider: 230 }), 'CPU');
    assert.equal(processorLabel({ QNNExecutionProvider: 230 }), 'HTP');
    assert.equal(processorLabel({ QNNExecutionProvider: 230 }, 'gpu'), 'GPU');
    assert.equal(
      processorLabel({ QNNExecutionProvider: 200, CPUExecutionProvider: 30 }, 'gpu'),
      'GPU partial 200/230 nodes',
    );
    assert.equal(
      processorLabel({ QNNExecutionProvider: 200, CPUExecutionProvider: 30 }),
      'HTP partial 200/230 nodes',
    );
    assert.equal(
      processorsLabel([
        { requested: 'htp', nodesByProvider: { QNNExecutionProvider: 5 } },
        { requested: 'cpu', nodesByProvider: { CPUExecutionProvider: 5 } },
      ]),
      'HTP + CPU',
    );
    assert.equal(
      processorsLabel([
        { requested: 'cpu', nodesByProvider: { CPUExecutionProvider: 5 } },
        { requested: 'cpu', nodesByProvider: { CPUExecutionProvider: 9 } },
      ]),
      'CPU',
    );
  });

  it('shows fps over its window and smoothed latency, and draws the badge escaped in a corner', function () {
    const f = new StreamFigures(1000);
    assert.equal(f.badge('CPU'), 'CPU | 0.0 fps | - ms');
    for (let i = 0; i <= 20; i++) f.add(i * 100, 50);
    assert.equal(f.badge('HTP'), 'HTP | 10.0 fps | 50 ms');
    const svg = annotationSvg(320, 240, { boxes: [], keypoints: [], badge: 'HTP <1> | 9.9 fps' });
    assert.match(svg, /<text x="4"[^>]*>HTP &lt;1&gt; \| 9\.9 fps<\/text>/);
  });
});
