/**
 * Ultralytics' own QNN export in the node over real DDS: perception_node runs yolov8s-fall-qnn
 * (bootstrap step 77: the real yolov8s-fall.pt through `yolo export format=qnn name=68`, imported
 * without edits) with provider htp and precision w8a16, i.e. the exporter's W8A16 context binary
 * on the QNN HTP (here its x86-64 simulator), beside a node running the FP32 graph the exporter
 * quantized, on the CPU. Its detections must match FP32's within the agreement `model quantize
 * --precision w8a16` reports for the same detector (the bootstrap's validation file).
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { boxIou } from '../../support/boxIou';
import { repoPath } from '../../support/paths';
import type { DetectionsMsg } from '../../support/rosClient';
import { startNode, startPhotoSource } from '../../support/rosProcess';
import { useRosTestBed } from '../../support/rosTestBed';

type Item = DetectionsMsg['items'][number];

const corners = (d: Item) => {
  const [cx, cy, w, h] = d.box;
  return { x1: cx - w / 2, y1: cy - h / 2, x2: cx + w / 2, y2: cy + h / 2 };
};

/** Our W8A16's agreement with FP32 on the held-out photos (scripts/setup/70-models.sh). */
function w8a16Agreement(): { maxScoreDrift: number } {
  const file = repoPath('models', 'yolov8-fall', 'yolov8s-fall.w8a16.validation.json');
  const j = JSON.parse(fs.readFileSync(file, 'utf8')) as {
    agreement: { detections: { maxScoreDrift: number } };
  };
  return j.agreement.detections;
}

describe("perception_node with Ultralytics' format=qnn export: FP32's detections within W8A16's agreement, over DDS", function () {
  this.timeout(300_000);
  const bed = useRosTestBed('person.jpg');

  it('runs the W8A16 binary wholly on the HTP and finds what FP32 finds', async () => {
    const qnn = bed.own(
      startNode('perceptionNode', 'qnn_det', [
        'model:=yolov8s-fall-qnn',
        'provider:=htp',
        'precision:=w8a16',
        'require_accelerator:=true',
        // The x86-64 simulator takes ~20 s a frame: past the default deadline of a board.
        'run_deadline_ms:=120000',
      ]),
    );
    const fp32 = bed.own(
      startNode('perceptionNode', 'fp32_det', ['threads:=1', 'model:=yolov8s-fall-qnn']),
    );
    const loaded = await qnn.waitFor(
      /model yolov8s-fall-qnn \(w8a16\) on htp from the compiled context binary (\S+): nodes by provider (\{.*?\})/,
      120_000,
    );
    assert.match(loaded[1]!, /models\/yolov8-fall-qnn\/yolov8s-fall_qnn\.onnx$/);
    assert.deepEqual(JSON.parse(loaded[2]!), { QNNExecutionProvider: 1 });
    await fp32.waitFor(/model yolov8s-fall-qnn \(fp32\) on cpu: nodes by provider/, 90_000);
    await bed.client.watch('/qnn_det/detections', 'detections');
    await bed.client.watch('/fp32_det/detections', 'detections');
    bed.own(startPhotoSource('qnn_src', bed.photoDir, 1, 'front_camera'));
    // One photo, every frame the same: FP32's first answer is every frame's.
    const [reference] = await bed.client.take<DetectionsMsg>('/fp32_det/detections', 1, 90);
    // ~20 s a frame on the simulator: one frame is the comparison.
    const fromQnn = await bed.client.take<DetectionsMsg>('/qnn_det/detections', 1, 200);
    const bound = w8a16Agreement();
    const standing = reference!.items.filter((d) => d.class_id === '0').length;
    assert.ok(standing >= 1, `FP32 finds the man (class Normal): ${JSON.stringify(reference)}`);
    for (const m of fromQnn) {
      assert.equal(m.frame_id, 'front_camera');
      assert.equal(m.items.length, reference!.items.length, JSON.stringify(m.items));
      m.items.forEach((d, i) => {
        const e = reference!.items[i]!;
        assert.equal(d.class_id, e.class_id);
        const iou = boxIou(corners(d), corners(e));
        // The same object: measured 0.99 for the man and 0.94 for the dog (which this detector
        // calls Fall); our own W8A16 matches with mean IoU 0.97 on the held-out photos.
        assert.ok(
          iou >= 0.9,
          `box IoU ${iou.toFixed(3)}: ${JSON.stringify(d)} vs ${JSON.stringify(e)}`,
        );
        assert.ok(
          Math.abs(d.score - e.score) <= bound.maxScoreDrift,
          `scores ${d.score} vs FP32 ${e.score} (bound ${bound.maxScoreDrift})`,
        );
      });
    }

    const d = await bed.client.diagnostics('qnn_det');
    assert.equal(d.values.model_source, JSON.stringify({ 'yolov8s-fall-qnn': 'context_cache' }));
    assert.equal(d.values.runtime, JSON.stringify({ 'yolov8s-fall-qnn': 'onnxruntime' }));
    assert.match(d.values.nodes_by_provider ?? '', /"QNNExecutionProvider":1\b/);
  });
});
