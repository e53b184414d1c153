import { strict as assert } from 'node:assert';
import { loadModelManifest, ModelManifest } from '../../../src/config/modelManifest';
import { BLAZEPOSE_KEYPOINT_NAMES } from '../../../src/families/blazepose/blazeposeKeypoints';
import { COCO_KEYPOINT_NAMES, COCO_SKELETON } from '../../../src/heads/cocoKeypoints';
import { keypointLayout } from '../../../src/pipeline/keypointLayout';
import { repoPath } from '../../support/paths';

const blazepose = loadModelManifest(
  repoPath('models', 'examples', 'mediapipe-blazepose-landmarks.manifest.json'),
);
const hrnet = loadModelManifest(repoPath('models', 'hrnet', 'hrnet-w32-256x192.manifest.json'));

describe('keypointLayout (keypoint_set)', () => {
  it("coco17 picks COCO's 17 from BlazePose's 33 by name, in COCO's order", () => {
    const l = keypointLayout(blazepose, 'coco17');
    assert.equal(l.skeleton.name, 'coco17');
    assert.deepEqual(l.skeleton.limbs, COCO_SKELETON);
    // nose, eyes (not the inner/outer corners), ears, then the limbs' joints.
    assert.deepEqual(l.pick, [0, 2, 5, 7, 8, 11, 12, 13, 14, 15, 16, 23, 24, 25, 26, 27, 28]);
    assert.deepEqual(
      l.pick!.map((i) => BLAZEPOSE_KEYPOINT_NAMES[i]),
      COCO_KEYPOINT_NAMES,
    );
    assert.equal(l.note, undefined);
  });

  it('model keeps all 33 as skeleton blazepose33 with the manifest limbs', () => {
    const l = keypointLayout(blazepose, 'model');
    assert.equal(l.skeleton.name, 'blazepose33');
    assert.equal(l.pick, undefined);
    assert.equal(l.names.length, 33);
    assert.deepEqual(l.skeleton.limbs, blazepose.keypoints!.skeleton);
  });

  it('a COCO model is coco17 either way, without a pick', () => {
    for (const set of ['coco17', 'model'] as const) {
      const l = keypointLayout(hrnet, set);
      assert.equal(l.skeleton.name, 'coco17');
      assert.equal(l.pick, undefined);
    }
  });

  it('a model of another task has no keypoints to pick and nothing to say', () => {
    const detector = loadModelManifest(
      repoPath('models', 'yolov8-fall', 'yolov8s-fall.manifest.json'),
    );
    const l = keypointLayout(detector, 'coco17');
    assert.equal(l.pick, undefined);
    assert.equal(l.note, undefined);
  });

  it('a model without the COCO points publishes its own order under its name, and says so', () => {
    const custom: ModelManifest = {
      ...hrnet,
      name: 'paw-pose',
      keypoints: { names: ['nose', 'left_paw', 'right_paw'], skeleton: [[1, 2]] },
    };
    const l = keypointLayout(custom, 'coco17');
    assert.equal(l.skeleton.name, 'paw-pose');
    assert.equal(l.pick, undefined);
    assert.match(
      l.note ?? '',
      /paw-pose has no keypoint named left_eye, right_eye, .*publishing its own 3 keypoints as skeleton 'paw-pose'/,
    );
  });
});
