/**
 * A trained detector as an ExecuTorch program over real DDS: perception_node runs
 * yolov8s-fall-executorch (bootstrap step 76: the real yolov8s-fall.pt through Ultralytics'
 * format=executorch, XNNPACK) beside a node running its ONNX twin on the same camera, and each
 * frame's detections must be the twin's: same classes, box IoU >= 0.99, scores within 0.02.
 */
import { strict as assert } from 'node:assert';
import { boxIou } from '../../support/boxIou';
import type { DetectionsMsg } from '../../support/rosClient';
import { startNode, startPhotoSource } from '../../support/rosProcess';
import { useRosTestBed } from '../../support/rosTestBed';

type Item = DetectionsMsg['items'][number];

/** A center-size box as corners. */
const corners = (d: Item) => {
  const [cx, cy, w, h] = d.box;
  return { x1: cx - w / 2, y1: cy - h / 2, x2: cx + w / 2, y2: cy + h / 2 };
};

describe('perception_node with an ExecuTorch program: the ONNX twin’s detections, over DDS', function () {
  this.timeout(180_000);
  const bed = useRosTestBed('person.jpg', 'astronaut.png');

  it('matches yolov8s-fall (ONNX Runtime) frame by frame, and says executorch and XNNPACK', async () => {
    const pte = bed.own(
      startNode('perceptionNode', 'et_det', ['threads:=1', 'model:=yolov8s-fall-executorch']),
    );
    const onnx = bed.own(
      startNode('perceptionNode', 'ort_det', ['threads:=1', 'model:=yolov8s-fall']),
    );
    const loaded = await pte.waitFor(
      /model yolov8s-fall-executorch \(fp32\) on cpu through ExecuTorch \(delegates: (.*?)\): nodes by provider (\{.*?\})/,
      90_000,
    );
    assert.equal(loaded[1], 'XnnpackBackend');
    const placement = JSON.parse(loaded[2]!) as Record<string, number>;
    assert.ok((placement.XnnpackBackend ?? 0) > 0, loaded[2]);
    await onnx.waitFor(/model yolov8s-fall \(fp32\) on cpu: nodes by provider/, 90_000);
    await bed.client.watch('/et_det/detections', 'detections');
    await bed.client.watch('/ort_det/detections', 'detections');
    // 1 Hz: each node runs FP32 yolov8s on one thread (0.3-0.4 s a frame here, two nodes on two
    // cores); at 2 Hz a node that fell behind took the newest frame and the two nodes' stamps
    // met on as few as 2 of 6 messages in a clean-clone run.
    bed.own(startPhotoSource('et_src', bed.photoDir, 1, 'front_camera'));
    const fromPte = await bed.client.take<DetectionsMsg>('/et_det/detections', 6, 90);
    const fromOnnx = await bed.client.take<DetectionsMsg>('/ort_det/detections', 6, 90);
    const twin = new Map(fromOnnx.map((m) => [m.stamp.join('.'), m]));
    let compared = 0;
    let people = 0;
    for (const m of fromPte) {
      const o = twin.get(m.stamp.join('.'));
      if (!o) continue;
      compared++;
      assert.equal(m.frame_id, 'front_camera');
      assert.equal(m.items.length, o.items.length, `stamp ${m.stamp.join('.')}`);
      m.items.forEach((d, i) => {
        const e = o.items[i]!;
        assert.equal(d.class_id, e.class_id);
        const iou = boxIou(corners(d), corners(e));
        assert.ok(
          iou >= 0.99,
          `box IoU ${iou.toFixed(4)}: ${JSON.stringify(d)} vs ${JSON.stringify(e)}`,
        );
        assert.ok(Math.abs(d.score - e.score) <= 0.02, `scores ${d.score} vs ${e.score}`);
        if (d.class_id === '0') people++;
      });
    }
    assert.ok(compared >= 4, `only ${compared} frames of both nodes had the same stamp`);
    assert.ok(people >= compared, `people found ${people} times in ${compared} frames`);

    const d = await bed.client.diagnostics('et_det');
    assert.equal(d.values.runtime, JSON.stringify({ 'yolov8s-fall-executorch': 'executorch' }));
    assert.equal(d.values.model_source, JSON.stringify({ 'yolov8s-fall-executorch': 'pte' }));
    assert.match(d.values.nodes_by_provider ?? '', /"XnnpackBackend":\d+/);
    assert.equal(d.values.processor, 'CPU');
    const t = await bed.client.diagnostics('ort_det');
    assert.equal(t.values.runtime, JSON.stringify({ 'yolov8s-fall': 'onnxruntime' }));
  });
});
