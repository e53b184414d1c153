import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { REPO_ROOT } from '../../support/paths';
import { findModelManifests } from '../../../src/config/findModelManifests';

describe('findModelManifests', function () {
  it('finds manifests recursively, sorted, and can skip the top-level examples folder', function () {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'models-'));
    try {
      for (const f of [
        'b/b.manifest.json',
        'a/x/a.manifest.json',
        'examples/e.manifest.json',
        'a/model.onnx',
      ]) {
        fs.mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
        fs.writeFileSync(path.join(dir, f), '{}');
      }
      const rel = (p: string): string => path.relative(dir, p);
      assert.deepEqual(findModelManifests(dir).map(rel), [
        'a/x/a.manifest.json',
        'b/b.manifest.json',
        'examples/e.manifest.json',
      ]);
      assert.deepEqual(findModelManifests(dir, { skipExamples: true }).map(rel), [
        'a/x/a.manifest.json',
        'b/b.manifest.json',
      ]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('follows symbolic links to folders and manifests, each real folder once, and skips dangling ones', function () {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'models-'));
    const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), 'data-'));
    try {
      fs.mkdirSync(path.join(elsewhere, 'big'));
      fs.writeFileSync(path.join(elsewhere, 'big', 'big.manifest.json'), '{}');
      fs.writeFileSync(path.join(elsewhere, 'lone.manifest.json'), '{}');
      fs.symlinkSync(path.join(elsewhere, 'big'), path.join(dir, 'big'));
      fs.symlinkSync(
        path.join(elsewhere, 'lone.manifest.json'),
        path.join(dir, 'lone.manifest.json'),
      );
      fs.symlinkSync(path.join(elsewhere, 'gone'), path.join(dir, 'dangling'));
      // A cycle: big/up leads back to the models folder.
      fs.symlinkSync(dir, path.join(elsewhere, 'big', 'up'));
      const rel = (p: string): string => path.relative(dir, p);
      assert.deepEqual(findModelManifests(dir).map(rel), [
        'big/big.manifest.json',
        'lone.manifest.json',
      ]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
      fs.rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  it('lists the nineteen models bootstrap prepares in this repository', function () {
    const root = REPO_ROOT;
    const names = findModelManifests(path.join(root, 'models'), { skipExamples: true }).map((p) =>
      path.basename(p),
    );
    assert.deepEqual(names, [
      'deeplabv3-mobilenetv2-257.manifest.json',
      'deeplabv3-mobilenetv3-large-520.manifest.json',
      'hrnet-w32-256x192.manifest.json',
      'blazepose-full.manifest.json',
      'blazepose-heavy.manifest.json',
      'blazepose-lite.manifest.json',
      'selfie-segmentation-landscape.manifest.json',
      'selfie-segmentation.manifest.json',
      'movenet-lightning.manifest.json',
      'movenet-multipose.manifest.json',
      'nanodet.manifest.json',
      'yolo11n-seg.manifest.json',
      'yolo11n-b4.manifest.json',
      'yolo11n.manifest.json',
      'yolov8s-fall-executorch.manifest.json',
      'yolov8s-fall-qnn.manifest.json',
      'yolov8s-fall.manifest.json',
      'yolov8n-pose.manifest.json',
      'yolov8n-seg.manifest.json',
    ]);
  });
});
