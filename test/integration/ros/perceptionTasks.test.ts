import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import {
  jsonSummary,
  RunningProcess,
  startNode,
  startPhotoSource,
  startProcess,
} from '../../support/rosProcess';
import { repoPath } from '../../support/paths';
import { photoDirWith } from '../../support/photos';

const LISTENER = repoPath('test', 'fixtures', 'ros', 'perception_listener.py');
const PERSON_JPG = { width: 640, height: 424 };

interface ImageSummary {
  encoding: string;
  width: number;
  height: number;
  step: number;
  frame_id: string;
  bytes: number;
  max: number;
  distinct: number;
}
interface Summary {
  poses?: {
    frame_id: string;
    poses: { skeleton: string; keypoints: number; box: number[]; points: number[][] }[];
  };
  instances?: ImageSummary;
  segmentation?: ImageSummary;
  detections?: { frame_id: string; count: number };
}

/**
 * The untrained models (pose, seg, HRNet, DeepLab) cannot find anything real; these tests prove
 * the plumbing: each task's messages arrive with the image header, in source-image geometry.
 */
describe('perception node per task over real DDS (untrained models: plumbing)', function () {
  this.timeout(120_000);
  const procs: RunningProcess[] = [];
  let photoDir: string;
  before(() => {
    photoDir = photoDirWith('person.jpg');
  });
  afterEach(async () => {
    await Promise.all(procs.splice(0).map((p) => p.stop()));
  });
  after(() => fs.rmSync(photoDir, { recursive: true, force: true }));

  async function run(nodeName: string, params: string[], outputs: string[]): Promise<Summary> {
    const perception = startNode('perceptionNode', nodeName, ['threads:=2', ...params]);
    procs.push(perception);
    await perception.waitFor(/nodes by provider/, 60_000);
    const listener = startProcess('python3', [LISTENER, nodeName, '60', ...outputs]);
    procs.push(listener);
    await listener.waitFor(/^ready$/m, 30_000);
    const source = startPhotoSource(`src_${nodeName}`, photoDir, 2, 'cam');
    procs.push(source);
    await listener.exited();
    return jsonSummary<Summary>(listener);
  }

  it('HRNet top-down: one 17-keypoint pose per person the person_detector finds', async function () {
    const s = await run(
      'pose_it',
      [
        `model:=${repoPath('models', 'hrnet', 'hrnet-w32-256x192.manifest.json')}`,
        `person_detector:=${repoPath('models', 'yolov8-fall', 'yolov8s-fall.manifest.json')}`,
        // The fall detector's classes are both people (standing and fallen).
        'person_classes:=[Normal,Fall]',
      ],
      ['poses'],
    );
    assert.equal(s.poses?.frame_id, 'cam');
    // yolov8s-fall finds two people-like boxes in person.jpg (see the reference test).
    assert.equal(s.poses?.poses.length, 2);
    for (const p of s.poses!.poses) {
      assert.equal(p.skeleton, 'coco17');
      assert.equal(p.keypoints, 17);
      for (const [x, y] of p.points)
        assert.ok(x! >= 0 && x! <= PERSON_JPG.width && y! >= 0 && y! <= PERSON_JPG.height);
    }
  });

  it('YOLOv8 seg: Detection2DArray and a mono16 instance image at source resolution', async function () {
    const s = await run(
      'seg_it',
      [`model:=${repoPath('models', 'yolov8n-seg', 'yolov8n-seg.manifest.json')}`],
      ['detections', 'instances'],
    );
    assert.equal(s.detections?.frame_id, 'cam');
    const m = s.instances!;
    assert.equal(m.encoding, 'mono16');
    assert.equal(m.frame_id, 'cam');
    assert.deepEqual([m.width, m.height, m.step, m.bytes], [640, 424, 1280, 640 * 424 * 2]);
    // Ids stay within the detections of the same frame (untrained: none, so all background).
    assert.ok(m.max <= (s.detections?.count ?? 0));
  });

  it('DeepLab: a mono8 class map at source resolution with VOC class indices', async function () {
    const s = await run(
      'sem_it',
      [
        `model:=${repoPath('models', 'deeplabv3', 'deeplabv3-mobilenetv3-large-520.manifest.json')}`,
      ],
      ['segmentation'],
    );
    const m = s.segmentation!;
    assert.equal(m.encoding, 'mono8');
    assert.equal(m.frame_id, 'cam');
    assert.deepEqual([m.width, m.height, m.step, m.bytes], [640, 424, 640, 640 * 424]);
    assert.ok(m.max < 21, `class index ${m.max} outside the 21 VOC classes`);
  });

  it('refuses HRNet without a person_detector, naming the parameter', async function () {
    const p = startNode('perceptionNode', 'pose_bad', [
      `model:=${repoPath('models', 'hrnet', 'hrnet-w32-256x192.manifest.json')}`,
    ]);
    procs.push(p);
    assert.equal(await p.exited(), 2, p.stderr());
    assert.match(p.stderr(), /ConfigError: .*person_detector/);
  });
});
