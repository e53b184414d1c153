import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ModelPipeline } from '../../../src/pipeline/modelPipeline';
import type { Detection } from '../../../src/core/headResults';
import { repoPath } from '../../support/paths';
import { boxIou } from '../../support/boxIou';
import { photoFrame, photoNames } from '../../support/photos';

interface ReferenceFile {
  width: number;
  height: number;
  detections: { class_id: number; score: number; box_xyxy: [number, number, number, number] }[];
}

/** Greedy best-IoU matching of our detections to the reference's, same class only. */
function match(
  ours: readonly Detection[],
  ref: ReferenceFile['detections'],
): { iou: number; dScore: number }[] {
  const used = new Set<number>();
  return ref.map((r) => {
    const rb = { x1: r.box_xyxy[0], y1: r.box_xyxy[1], x2: r.box_xyxy[2], y2: r.box_xyxy[3] };
    let best = -1;
    let bestIou = 0;
    ours.forEach((d, i) => {
      if (used.has(i) || d.classId !== r.class_id) return;
      const v = boxIou(d.box, rb);
      if (v > bestIou) [best, bestIou] = [i, v];
    });
    if (best >= 0) used.add(best);
    return { iou: bestIou, dScore: best >= 0 ? Math.abs(ours[best]!.score - r.score) : Infinity };
  });
}

const MANIFEST = repoPath('models', 'yolov8-fall', 'yolov8s-fall.manifest.json');
const REFERENCE_DIR = repoPath('.cache', 'reference', 'yolov8s-fall');

describe('YOLOv8 detection against an independent reference (real weights: yolov8s-fall)', function () {
  this.timeout(300_000);
  let fp32: ModelPipeline;
  let int8: ModelPipeline;
  before(async () => {
    fp32 = await ModelPipeline.load(MANIFEST, { provider: 'cpu', precision: 'fp32', threads: 2 });
    int8 = await ModelPipeline.load(MANIFEST, { provider: 'cpu', precision: 'int8', threads: 2 });
  });
  after(() => {
    fp32?.dispose();
    int8?.dispose();
  });

  it('matches onnxruntime + OpenCV NMS on every bootstrap photo: IoU >= 0.9, same class, |score| <= 0.02', async function () {
    const photos = photoNames();
    assert.ok(photos.length >= 10, `need at least 10 real photos, found ${photos.length}`);
    let compared = 0;
    for (const name of photos) {
      const refFile = path.join(REFERENCE_DIR, `${path.parse(name).name}.json`);
      const ref = JSON.parse(fs.readFileSync(refFile, 'utf8')) as ReferenceFile;
      const frame = await photoFrame(name);
      assert.equal(frame.width, ref.width, `${name}: the reference decoded another size`);
      const r = await fp32.run(frame);
      assert.equal(r.task, 'detect');
      if (r.task !== 'detect') return;
      assert.equal(
        r.detections.length,
        ref.detections.length,
        `${name}: ${r.detections.length} detections vs reference ${ref.detections.length}`,
      );
      for (const m of match(r.detections, ref.detections)) {
        assert.ok(m.iou >= 0.9, `${name}: matched IoU ${m.iou.toFixed(3)} < 0.9`);
        assert.ok(m.dScore <= 0.02, `${name}: score differs by ${m.dScore.toFixed(4)}`);
        compared++;
      }
    }
    assert.ok(compared >= 5, `only ${compared} detections compared`);
  });

  it('INT8 QDQ agrees with FP32 on the people it finds (looser bounds: quantization)', async function () {
    const worst = { iou: 1, dScore: 0 };
    let matched = 0;
    let total = 0;
    for (const name of photoNames()) {
      const frame = await photoFrame(name);
      const a = await fp32.run(frame);
      const b = await int8.run(frame);
      if (a.task !== 'detect' || b.task !== 'detect') throw new Error('detect expected');
      const ref = a.detections.map((d) => ({
        class_id: d.classId,
        score: d.score,
        box_xyxy: [d.box.x1, d.box.y1, d.box.x2, d.box.y2] as [number, number, number, number],
      }));
      for (const m of match(b.detections, ref)) {
        total++;
        if (m.iou >= 0.5) {
          matched++;
          worst.iou = Math.min(worst.iou, m.iou);
          worst.dScore = Math.max(worst.dScore, m.dScore);
        }
      }
    }
    process.stdout.write(
      `      int8 vs fp32: ${matched}/${total} fp32 detections matched, worst IoU ${worst.iou.toFixed(3)}, worst |score| ${worst.dScore.toFixed(3)}\n`,
    );
    assert.ok(total > 0);
    assert.ok(matched / total >= 0.8, `only ${matched} of ${total} FP32 detections found by INT8`);
    assert.ok(worst.iou >= 0.75, `worst matched IoU ${worst.iou}`);
    assert.ok(worst.dScore <= 0.15, `worst score difference ${worst.dScore}`);
  });
});
