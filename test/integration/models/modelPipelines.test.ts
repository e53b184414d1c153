import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { findModelManifests } from '../../../src/config/findModelManifests';
import { loadModelManifest } from '../../../src/config/modelManifest';
import { ModelPipeline } from '../../../src/pipeline/modelPipeline';
import { repoPath } from '../../support/paths';
import { photoFrame } from '../../support/photos';

describe('every shipped model through manifest -> engine -> head on a real photo (CPU)', function () {
  this.timeout(300_000);
  const manifests = findModelManifests(repoPath('models'), { skipExamples: true });

  it('finds the nineteen bootstrap models (yolo11n-b4: the default detector for four cameras at once)', function () {
    const names = manifests.map((m) => path.basename(m)).sort();
    assert.deepEqual(names, [
      'blazepose-full.manifest.json',
      'blazepose-heavy.manifest.json',
      'blazepose-lite.manifest.json',
      'deeplabv3-mobilenetv2-257.manifest.json',
      'deeplabv3-mobilenetv3-large-520.manifest.json',
      'hrnet-w32-256x192.manifest.json',
      'movenet-lightning.manifest.json',
      'movenet-multipose.manifest.json',
      'nanodet.manifest.json',
      'selfie-segmentation-landscape.manifest.json',
      'selfie-segmentation.manifest.json',
      'yolo11n-b4.manifest.json',
      'yolo11n-seg.manifest.json',
      'yolo11n.manifest.json',
      'yolov8n-pose.manifest.json',
      'yolov8n-seg.manifest.json',
      'yolov8s-fall-executorch.manifest.json',
      'yolov8s-fall-qnn.manifest.json',
      'yolov8s-fall.manifest.json',
    ]);
  });

  for (const precision of ['fp32', 'int8', 'w8a16'] as const) {
    it(`runs each model (${precision}) and returns results in source-image pixels`, async function () {
      const frame = await photoFrame('person.jpg');
      const detector = await ModelPipeline.load(
        repoPath('models', 'yolov8-fall', 'yolov8s-fall.manifest.json'),
        {
          provider: 'cpu',
          precision,
          threads: 2,
        },
      );
      const people = await detector.run(frame);
      assert.equal(people.task, 'detect');
      const boxes = people.task === 'detect' ? people.detections.map((d) => d.box) : [];
      assert.ok(boxes.length >= 1, 'the real detector finds the person in person.jpg');
      detector.dispose();
      for (const file of manifests) {
        // The ExecuTorch program is FP32 only (no INT8 program is exported); W8A16 is the trained
        // detector's alone (and Ultralytics' binary of it, which only the HTP runs).
        if (precision !== 'fp32' && loadModelManifest(file).files[precision] === undefined)
          continue;
        const p = await ModelPipeline.load(file, { provider: 'cpu', precision, threads: 2 });
        try {
          const report = p.providerReport;
          assert.equal(report.requested, 'cpu');
          const cpuWork =
            report.runtime === 'executorch'
              ? (report.nodesByProvider.XnnpackBackend ?? 0)
              : (report.nodesByProvider.CPUExecutionProvider ?? 0);
          assert.ok(cpuWork > 0, `${p.name}: no work reported on the CPU`);
          const r = await p.run(frame, p.needsPersonBoxes ? boxes : []);
          assert.ok(r.timings.inferenceMs > 0 && r.timings.totalMs >= r.timings.inferenceMs);
          switch (r.task) {
            case 'semantic':
              assert.equal(r.map.width, frame.width);
              assert.equal(r.map.height, frame.height);
              assert.equal(r.map.data.length, frame.width * frame.height);
              assert.ok(r.map.data.every((c) => c < p.manifest.classNames.length));
              break;
            case 'pose':
              // HRNet: one pose per person box; BlazePose drops a box it finds no person in (its
              // person score: person.jpg's second box is a dog), never the man.
              // HRNet and MoveNet Lightning: one pose per person box; MultiPose finds its own people.
              if (
                p.manifest.outputs.format === 'heatmaps' ||
                p.manifest.outputs.format === 'movenet-singlepose'
              )
                assert.equal(r.poses.length, boxes.length, 'one pose per person box');
              if (p.manifest.outputs.format === 'movenet-multipose')
                assert.ok(r.poses.length >= 1, `${p.name}: finds the man itself`);
              if (p.manifest.outputs.format === 'blazepose-landmarks') {
                assert.ok(r.poses.length >= 1 && r.poses.length <= boxes.length, p.name);
                for (const pose of r.poses) assert.ok(boxes.includes(pose.box), p.name);
              }
              for (const pose of r.poses) {
                assert.equal(pose.keypoints.length, 17);
                for (const k of pose.keypoints) {
                  assert.ok(
                    k.x >= 0 && k.x <= frame.width && k.y >= 0 && k.y <= frame.height,
                    `${p.name}: keypoint off the image`,
                  );
                }
              }
              break;
            case 'segment':
              for (const d of r.instances) assert.ok(d.mask.x + d.mask.width <= frame.width);
              break;
            case 'detect':
              assert.ok(r.detections.length >= 1);
              break;
          }
        } finally {
          p.dispose();
        }
      }
    });
  }

  it('refuses a manifest that does not describe its model, naming the field', async function () {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'htp-manifest-'));
    const src = repoPath('models', 'yolov8-fall', 'yolov8s-fall.manifest.json');
    const m = JSON.parse(fs.readFileSync(src, 'utf8')) as {
      files: { fp32: string; int8?: string };
      outputs: { predictions: { name: string } };
    };
    m.files.fp32 = repoPath('models', 'yolov8-fall', 'yolov8s-fall.onnx');
    delete m.files.int8;
    m.outputs.predictions.name = 'detections';
    const bad = path.join(dir, 'bad.manifest.json');
    fs.writeFileSync(bad, JSON.stringify(m));
    await assert.rejects(
      ModelPipeline.load(bad, { provider: 'cpu', precision: 'fp32', threads: 1 }),
      (e: Error) => {
        assert.equal(e.name, 'ConfigError');
        assert.match(e.message, /bad\.manifest\.json/);
        assert.match(e.message, /outputs\.predictions/);
        return true;
      },
    );
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a corrupt model file with an engine error naming it', async function () {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'htp-corrupt-'));
    const src = repoPath('models', 'yolov8-fall', 'yolov8s-fall.manifest.json');
    const m = JSON.parse(fs.readFileSync(src, 'utf8')) as {
      files: { fp32: string; int8?: string };
    };
    fs.writeFileSync(path.join(dir, 'broken.onnx'), Buffer.from('this is not an onnx model'));
    m.files.fp32 = 'broken.onnx';
    delete m.files.int8;
    fs.writeFileSync(path.join(dir, 'broken.manifest.json'), JSON.stringify(m));
    await assert.rejects(
      ModelPipeline.load(path.join(dir, 'broken.manifest.json'), {
        provider: 'cpu',
        precision: 'fp32',
        threads: 1,
      }),
      (e: Error & { code?: string }) => {
        assert.equal(e.name, 'EngineError');
        assert.match(e.message, /broken\.onnx/);
        return true;
      },
    );
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
