import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Box, Detection, Keypoint } from '../../../src/core/headResults';
import { ModelPipeline } from '../../../src/pipeline/modelPipeline';
import { PipelineResult } from '../../../src/core/pipelineResult';
import { RuntimeChoices } from '../../../src/pipeline/runtimeChoices';
import { repoPath } from '../../support/paths';
import { boxIou } from '../../support/boxIou';
import { photoFrame, photoNames } from '../../support/photos';

// Built by scripts/setup/75-aihub-layouts.sh from the bootstrap models: AI Hub's output nodes
// appended to the unchanged graphs, so decoded results must equal the originals'.
const AIHUB_DIR = repoPath('.cache', 'aihub-layout');
const CPU: RuntimeChoices = { provider: 'cpu', precision: 'fp32', threads: 2 };

function aihubManifest(name: string): string {
  const file = path.join(AIHUB_DIR, `${name}.manifest.json`);
  assert.ok(fs.existsSync(file), `${file} missing: run scripts/bootstrap.sh 75`);
  return file;
}

function detections(r: PipelineResult): Detection[] {
  if (r.task !== 'detect') throw new Error(`detect expected, got ${r.task}`);
  return r.detections;
}

function keypoints(r: PipelineResult): Keypoint[][] {
  if (r.task !== 'pose') throw new Error(`pose expected, got ${r.task}`);
  return r.poses.map((p) => [...p.keypoints]);
}

function labels(r: PipelineResult): Uint8Array {
  if (r.task !== 'semantic') throw new Error(`semantic expected, got ${r.task}`);
  return r.map.data;
}

describe('Qualcomm AI Hub output layouts give what the original layouts give (CPU, real photos)', function () {
  this.timeout(120_000);

  it('split detector (boxes xyxy, scores, uint8 class_idx) = Ultralytics packed output0, real weights, every photo', async function () {
    const ultralytics = await ModelPipeline.load(
      repoPath('models', 'yolov8-fall', 'yolov8s-fall.manifest.json'),
      CPU,
    );
    const aihub = await ModelPipeline.load(aihubManifest('yolov8s-fall-aihub'), CPU);
    try {
      assert.equal(aihub.manifest.outputs.format, 'aihub-split');
      const classIdx = aihub.session.outputs.find((o) => o.name === 'class_idx');
      assert.equal(classIdx?.type, 'uint8', 'class_idx is uint8 in the file, as AI Hub ships it');
      let compared = 0;
      const worst = { iou: 1, dScore: 0 };
      for (const name of photoNames()) {
        const frame = await photoFrame(name);
        const want = detections(await ultralytics.run(frame));
        const got = detections(await aihub.run(frame));
        assert.equal(
          got.length,
          want.length,
          `${name}: ${got.length} vs ${want.length} detections`,
        );
        const used = new Set<number>();
        for (const w of want) {
          let best = -1;
          let bestIou = 0;
          got.forEach((g, i) => {
            if (used.has(i) || g.classId !== w.classId) return;
            const v = boxIou(g.box, w.box);
            if (v > bestIou) [best, bestIou] = [i, v];
          });
          assert.ok(best >= 0, `${name}: no AI Hub detection of class ${w.classId} matches`);
          used.add(best);
          assert.ok(bestIou >= 0.99, `${name}: IoU ${bestIou.toFixed(4)} < 0.99`);
          const dScore = Math.abs(got[best]!.score - w.score);
          assert.ok(dScore <= 1e-4, `${name}: score differs by ${dScore}`);
          worst.iou = Math.min(worst.iou, bestIou);
          worst.dScore = Math.max(worst.dScore, dScore);
          compared++;
        }
      }
      // The bootstrap reference holds 11 detections on these photos: an empty run proves nothing.
      assert.ok(compared >= 5, `only ${compared} detections compared`);
      process.stdout.write(
        `      aihub vs ultralytics: ${compared} detections, worst IoU ${worst.iou.toFixed(6)}, worst |score| ${worst.dScore.toExponential(2)}\n`,
      );
    } finally {
      ultralytics.dispose();
      aihub.dispose();
    }
  });

  it('uint8 argmax mask inside the model = logits + argmax in the head (DeepLabV3)', async function () {
    const logits = await ModelPipeline.load(
      repoPath('models', 'deeplabv3', 'deeplabv3-mobilenetv3-large-520.manifest.json'),
      CPU,
    );
    const argmax = await ModelPipeline.load(aihubManifest('deeplabv3-aihub-argmax'), CPU);
    try {
      assert.equal(argmax.manifest.outputs.format, 'semantic-argmax');
      let worst = 1;
      for (const name of photoNames()) {
        const frame = await photoFrame(name);
        const a = labels(await logits.run(frame));
        const b = labels(await argmax.run(frame));
        assert.equal(b.length, frame.width * frame.height);
        let same = 0;
        const seen = new Set<number>();
        for (let i = 0; i < a.length; i++) {
          if (a[i] === b[i]) same++;
          seen.add(b[i]!);
        }
        // Equal logits break ties identically (first index) on both sides; allow for a few pixels
        // where ONNX Runtime's ArgMax and the head's disagree on near-equal floats anyway.
        assert.ok(same / a.length >= 0.999, `${name}: only ${same} of ${a.length} labels equal`);
        assert.ok(seen.size >= 2, `${name}: a one-class map cannot show the two agree`);
        worst = Math.min(worst, same / a.length);
      }
      process.stdout.write(
        `      argmax vs logits: worst photo ${(worst * 100).toFixed(4)} % equal labels\n`,
      );
    } finally {
      logits.dispose();
      argmax.dispose();
    }
  });

  it('NHWC heatmaps [1,64,48,17] = NCHW heatmaps for the same person boxes (HRNet)', async function () {
    const nchw = await ModelPipeline.load(
      repoPath('models', 'hrnet', 'hrnet-w32-256x192.manifest.json'),
      CPU,
    );
    const nhwc = await ModelPipeline.load(aihubManifest('hrnet-nhwc'), CPU);
    try {
      const spec = nhwc.manifest.outputs.format === 'heatmaps' && nhwc.manifest.outputs.heatmaps;
      assert.ok(spec && spec.layout === 'NHWC');
      assert.deepEqual(spec.dims, [1, 64, 48, 17]);
      const frame = await photoFrame('person.jpg');
      // The person in person.jpg (bootstrap reference box) and a box at the image corner, whose
      // crop extends past the image (black border).
      const boxes: Box[] = [
        { x1: 182.86, y1: 97.33, x2: 289.32, y2: 377.92 },
        { x1: 0, y1: 0, x2: 90, y2: 200 },
      ];
      const a = keypoints(await nchw.run(frame, boxes));
      const b = keypoints(await nhwc.run(frame, boxes));
      assert.equal(b.length, boxes.length);
      for (let p = 0; p < boxes.length; p++) {
        assert.equal(b[p]!.length, 17);
        for (let k = 0; k < 17; k++) {
          const [u, v] = [a[p]![k]!, b[p]![k]!];
          // Same peak cell and sub-cell shift: positions are equal, not merely close.
          assert.equal(v.x, u.x, `box ${p} joint ${k}: x ${v.x} vs ${u.x}`);
          assert.equal(v.y, u.y, `box ${p} joint ${k}: y ${v.y} vs ${u.y}`);
          // Batch 1 is fixed in the NHWC file, so ONNX Runtime may pick other conv kernels.
          const tol = 1e-5 * Math.max(1, Math.abs(u.score));
          assert.ok(Math.abs(v.score - u.score) <= tol, `box ${p} joint ${k}: score differs`);
        }
      }
      // Had the head read NHWC as NCHW, joints would not agree; the check above would fail.
      assert.ok(new Set(b[0]!.map((k) => `${k.x},${k.y}`)).size > 1, 'all joints in one place');
    } finally {
      nchw.dispose();
      nhwc.dispose();
    }
  });

  it('refuses the NHWC model under a manifest that calls its heatmaps NCHW, naming the field', async function () {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'htp-aihub-'));
    try {
      const m = JSON.parse(fs.readFileSync(aihubManifest('hrnet-nhwc'), 'utf8')) as {
        files: { fp32: string };
        outputs: { heatmaps: { dims: number[]; layout: string } };
      };
      m.files.fp32 = path.join(AIHUB_DIR, m.files.fp32);
      m.outputs.heatmaps.dims = [1, 17, 64, 48];
      m.outputs.heatmaps.layout = 'NCHW';
      const bad = path.join(dir, 'nchw-claim.manifest.json');
      fs.writeFileSync(bad, JSON.stringify(m));
      await assert.rejects(ModelPipeline.load(bad, CPU), (e: Error) => {
        assert.equal(e.name, 'ConfigError');
        assert.match(e.message, /outputs\.heatmaps\.dims/);
        return true;
      });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
