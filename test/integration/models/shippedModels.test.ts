import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ort from 'onnxruntime-node';
import {
  checkManifestAgainstModel,
  type IntrospectedModel,
  type IntrospectedTensor,
} from '../../../src/config/checkManifestAgainstModel';
import { REPO_ROOT } from '../../support/paths';
import type { ElementType } from '../../../src/config/modelManifest';
import { loadModelManifest, requireModelFiles } from '../../../src/config/modelManifest';

/**
 * The models bootstrap step 70 prepares, checked for real: their manifests must describe the files
 * ONNX Runtime actually loads, and the reference predictions made at bootstrap must be the golden
 * ones checked in (so a change of the reference tools or runtime is noticed, not silently used).
 */
const root = REPO_ROOT;
const fallManifest = path.join(root, 'models', 'yolov8-fall', 'yolov8s-fall.manifest.json');
const shipped = [
  fallManifest,
  path.join(root, 'models', 'yolov8n-pose', 'yolov8n-pose.manifest.json'),
  path.join(root, 'models', 'yolov8n-seg', 'yolov8n-seg.manifest.json'),
  path.join(root, 'models', 'hrnet', 'hrnet-w32-256x192.manifest.json'),
  path.join(root, 'models', 'deeplabv3', 'deeplabv3-mobilenetv3-large-520.manifest.json'),
];
const referenceDir = path.join(root, '.cache', 'reference', 'yolov8s-fall');
const fixture = path.join(root, 'test', 'fixtures', 'models', 'yolov8s-fall-reference.json');

const elementTypes: readonly string[] = ['float32', 'float16', 'uint8', 'int8', 'int32', 'int64'];

function introspected(meta: readonly ort.InferenceSession.ValueMetadata[]): IntrospectedTensor[] {
  return meta.map((v) => {
    if (!v.isTensor) throw new Error(`${v.name} is not a tensor`);
    if (!elementTypes.includes(v.type))
      throw new Error(`${v.name}: unexpected element type ${v.type}`);
    return { name: v.name, dims: v.shape, type: v.type as ElementType };
  });
}

interface RefDetection {
  class_id: number;
  score: number;
  box_xyxy: [number, number, number, number];
}
interface RefPhoto {
  photo: string;
  detections: RefDetection[];
}

function iou(a: readonly number[], b: readonly number[]): number {
  const ix = Math.max(0, Math.min(a[2]!, b[2]!) - Math.max(a[0]!, b[0]!));
  const iy = Math.max(0, Math.min(a[3]!, b[3]!) - Math.max(a[1]!, b[1]!));
  const inter = ix * iy;
  const union = (a[2]! - a[0]!) * (a[3]! - a[1]!) + (b[2]! - b[0]!) * (b[3]! - b[1]!) - inter;
  return union > 0 ? inter / union : 0;
}

describe('shipped models (prepared by scripts/setup/70-models.sh)', function () {
  for (const file of shipped) {
    const m = loadModelManifest(file);
    it(`${m.name}: model files exist`, function () {
      requireModelFiles(m);
    });
    for (const precision of ['fp32', 'int8'] as const) {
      it(`${m.name} ${precision} matches its manifest as loaded by ONNX Runtime`, async function () {
        const modelFile = m.modelPaths[precision];
        assert.ok(modelFile !== undefined, `${file} declares no ${precision} file`);
        const session = await ort.InferenceSession.create(modelFile);
        try {
          const model: IntrospectedModel = {
            inputs: introspected(session.inputMetadata),
            outputs: introspected(session.outputMetadata),
          };
          checkManifestAgainstModel(m, model);
        } finally {
          await session.release();
        }
      });
    }
  }

  it('only the registry YOLOv8 claims pretrained weights', function () {
    const status = shipped.map((f) => loadModelManifest(f)).map((m) => `${m.family}:${m.weights}`);
    assert.deepEqual(status, [
      'yolov8:pretrained',
      'yolov8:untrained',
      'yolov8:untrained',
      'hrnet:untrained',
      'deeplabv3:untrained',
    ]);
  });

  it('bootstrap reference predictions equal the checked-in golden ones', function () {
    const golden = (JSON.parse(fs.readFileSync(fixture, 'utf8')) as { photos: RefPhoto[] }).photos;
    assert.ok(golden.length >= 10, 'at least 10 photos');
    assert.ok(golden.reduce((n, p) => n + p.detections.length, 0) >= 10, 'at least 10 detections');
    for (const g of golden) {
      const file = path.join(referenceDir, g.photo.replace(/\.[^.]+$/, '.json'));
      assert.ok(fs.existsSync(file), `${file} missing: run scripts/setup/70-models.sh`);
      const got = (JSON.parse(fs.readFileSync(file, 'utf8')) as RefPhoto).detections;
      assert.equal(got.length, g.detections.length, `${g.photo}: detection count`);
      g.detections.forEach((d, i) => {
        const o = got[i]!;
        assert.equal(o.class_id, d.class_id, `${g.photo}#${i} class`);
        assert.ok(
          Math.abs(o.score - d.score) <= 1e-3,
          `${g.photo}#${i} score ${o.score} vs ${d.score}`,
        );
        assert.ok(iou(o.box_xyxy, d.box_xyxy) >= 0.99, `${g.photo}#${i} box`);
      });
    }
  });
});
