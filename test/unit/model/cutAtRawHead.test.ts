import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cutAtRawHead, RAW_HEAD_METADATA_KEY } from '../../../src/model/cutAtRawHead';
import { deriveManifest } from '../../../src/model/deriveManifest';
import { RAW_HEAD_NOTE } from '../../../src/families/yolov8/readUltralyticsExport';
import { parseOnnxModel, readOnnxModel } from '../../../src/model/readOnnxModel';
import { repoPath } from '../../support/paths';
import { tempDir } from '../../support/tempDir';

const YOLO11N = repoPath('.cache', 'registry-models', 'yolo11n.onnx');
const YOLO11N_SEG = repoPath('.cache', 'registry-models', 'yolo11n-seg.onnx');

describe('model/cutAtRawHead: an end-to-end export back to its packed raw head', function () {
  const dir = tempDir('htp-cut-');

  for (const [file, head, channels, protos, iou] of [
    [YOLO11N, '/model/model.23/Concat_5_output_0', 84, false, 0.7],
    [YOLO11N_SEG, '/model/model.23/Concat_6_output_0', 116, true, 0.45],
  ] as const) {
    it(`${path.basename(file)}: ends at ${head} [1, ${channels}, 8400], which imports as the packed layout`, function () {
      assert.ok(fs.existsSync(file), `${file} missing: run scripts/bootstrap.sh (step 71)`);
      const before = readOnnxModel(file);
      const cut = cutAtRawHead(fs.readFileSync(file));
      assert.equal(cut.rawHead, head);
      // What the removed NMS did (the two exports were made with different IoU thresholds).
      assert.deepEqual(cut.embeddedNms, { scoreThreshold: 0.25, iouThreshold: iou });
      const out = path.join(dir, path.basename(file));
      fs.writeFileSync(out, cut.bytes);
      const after = readOnnxModel(out);
      assert.deepEqual(
        after.outputs.map((o) => [o.name, o.elemType, o.dims]),
        [
          [head, 'float32', [1, channels, 8400]],
          ...(protos ? [['output1', 'float32', [1, 32, 160, 160]]] : []),
        ],
      );
      assert.deepEqual(after.inputs, before.inputs);
      // The NMS tail is gone, the network and its weights are all there.
      assert.equal(after.nodeCount, cut.keptNodes);
      assert.equal(before.nodeCount, cut.keptNodes + cut.removedNodes);
      assert.ok(cut.removedNodes >= 100, `${cut.removedNodes} nodes removed`);
      assert.ok(before.initializerCount - after.initializerCount < 40);
      assert.ok(fs.statSync(out).size > 0.99 * fs.statSync(file).size);
      assert.equal(after.metadata.names, before.metadata.names);
      assert.equal(
        after.metadata[RAW_HEAD_METADATA_KEY],
        `${head}; the NMS it fed was removed (its conf 0.25, IoU ${iou})`,
      );
      const m = deriveManifest(out, after).manifest;
      assert.equal(m.outputs.format, 'ultralytics-packed');
      assert.ok(m.outputs.format === 'ultralytics-packed');
      assert.deepEqual(m.outputs.predictions, {
        name: head,
        dims: [1, channels, 8400],
        dtype: 'float32',
        layout: 'channels-first',
      });
      assert.ok(m.notes?.startsWith(RAW_HEAD_NOTE));
    });
  }

  it('refuses a file that does not end in an NMS (the classic packed export)', function () {
    const fall = repoPath('models', 'yolov8-fall', 'yolov8s-fall.onnx');
    assert.throws(
      () => cutAtRawHead(fs.readFileSync(fall)),
      (e: Error) => e.name === 'OnnxFormatError' && /no NonMaxSuppression node/.test(e.message),
    );
    assert.throws(() => cutAtRawHead(Buffer.from('not onnx')), { name: 'OnnxFormatError' });
    assert.throws(() => parseOnnxModel(Buffer.from('not onnx'), 'x'));
  });
});
