import { strict as assert } from 'node:assert';
import { ModelPipeline } from '../../../src/pipeline/modelPipeline';
import { repoPath } from '../../support/paths';
import { photoFrame } from '../../support/photos';

describe('an Ultralytics .onnx given directly as the model (manifest derived in memory)', function () {
  this.timeout(120_000);

  it('loads and detects exactly what the checked-in manifest gives', async function () {
    const choices = { provider: 'cpu', precision: 'fp32', threads: 2 } as const;
    const direct = await ModelPipeline.load(
      repoPath('models', 'yolov8-fall', 'yolov8s-fall.onnx'),
      choices,
    );
    const viaManifest = await ModelPipeline.load(
      repoPath('models', 'yolov8-fall', 'yolov8s-fall.manifest.json'),
      choices,
    );
    try {
      assert.equal(direct.name, 'yolov8s-fall');
      assert.deepEqual(direct.manifest.classNames, viaManifest.manifest.classNames);
      for (const photo of ['person.jpg', 'kite.jpg']) {
        const frame = await photoFrame(photo);
        const a = await direct.run(frame);
        const b = await viaManifest.run(frame);
        assert.ok(a.task === 'detect' && b.task === 'detect');
        assert.ok(b.detections.length > 0, `${photo}: the reference model detects something`);
        assert.deepEqual(a.detections, b.detections, photo);
      }
    } finally {
      direct.dispose();
      viaManifest.dispose();
    }
  });
});
