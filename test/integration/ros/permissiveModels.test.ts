import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { POINTS_TYPE } from '../../../src/ros/imageAnnotations';
import { AnnotationsMsg, DetectionsMsg, PosesMsg, RosClient } from '../../support/rosClient';
import {
  jsonSummary,
  RunningProcess,
  startNode,
  startPhotoSource,
  startProcess,
} from '../../support/rosProcess';
import { repoPath } from '../../support/paths';

const CLASSES = repoPath('test', 'fixtures', 'ros', 'photo_classes_listener.py');
const PHOTOS = repoPath('.cache', 'photos');
/** Bootstrap step 26: a group photo of six people (dlib's examples, VOC 2007). */
const GROUP = repoPath('.cache', 'photos-people', 'dlib-2007_007763.jpg');

interface Classes {
  labels: number;
  found: Record<string, Record<string, number>>;
}

/**
 * The permissive stack's models (issue 42), imported from TensorFlow.js by bootstrap step 79, in
 * real nodes over real DDS: NanoDet as a COCO detector, MoveNet MultiPose as a bottom-up pose
 * model with no person detector.
 */
describe('permissive models over DDS: NanoDet and MoveNet MultiPose (issue 42)', function () {
  this.timeout(180_000);
  const procs: RunningProcess[] = [];
  afterEach(async () => {
    await Promise.all(procs.splice(0).map((p) => p.stop()));
  });

  it("NanoDet names COCO's classes and finds the people, vehicles and animals of the bootstrap photos", async function () {
    const node = startNode(
      'perceptionNode',
      'nanodet_it',
      ['model:=nanodet', 'threads:=2', 'score_threshold:=0.35'],
      ['-r', 'image:=/nanodet_cam/image'],
    );
    procs.push(node);
    await node.waitFor(/model nanodet \(fp32\) on cpu: nodes by provider/, 90_000);
    // 13 photos, 11 sizes: eagle and horses share 773x512, the two motorcycles 741x500.
    const listener = startProcess('python3', [
      CLASSES,
      'nanodet_it',
      '/nanodet_cam/image',
      '11',
      '120',
    ]);
    procs.push(listener);
    await listener.waitFor(/^ready$/m, 30_000);
    const source = startNode(
      'imageSourceNode',
      'nanodet_cam',
      [`directory:=${PHOTOS}`, 'rate_hz:=2.0'],
      ['-r', 'image:=/nanodet_cam/image'],
    );
    procs.push(source);
    await listener.exited();
    const s = jsonSummary<Classes>(listener);
    assert.equal(s.labels, 80, 'LabelInfo names the 80 COCO classes');
    const at = (size: string, photo: string): Record<string, number> => {
      const f = s.found[size];
      assert.ok(f, `nothing found on ${photo} (${size}): ${JSON.stringify(s.found)}`);
      return f;
    };
    const has = (f: Record<string, number>, cls: string, photo: string) =>
      assert.ok((f[cls] ?? 0) >= 0.35, `${photo}: no ${cls} in ${JSON.stringify(f)}`);
    const person = at('640x424', 'person.jpg');
    for (const c of ['person', 'dog', 'horse']) has(person, c, 'person.jpg');
    const dog = at('768x576', 'dog.jpg');
    for (const c of ['dog', 'bicycle']) has(dog, c, 'dog.jpg');
    assert.ok(
      Math.max(dog.car ?? 0, dog.truck ?? 0) >= 0.35,
      `dog.jpg: its pickup neither car nor truck in ${JSON.stringify(dog)}`,
    );
    const kite = at('1352x900', 'kite.jpg');
    for (const c of ['person', 'kite']) has(kite, c, 'kite.jpg');
    has(at('773x512', 'horses.jpg / eagle.jpg'), 'horse', 'horses.jpg');
    has(at('500x500', 'giraffe.jpg'), 'giraffe', 'giraffe.jpg');
    has(at('741x500', 'motorcycle_*.png'), 'motorcycle', 'motorcycle_left.png');
  });

  it('MoveNet MultiPose publishes tracked poses, their person boxes and overlays for several people, with no detector', async function () {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'htp-group-'));
    procs.push({
      stop: async () => fs.rmSync(dir, { recursive: true, force: true }),
    } as RunningProcess);
    fs.copyFileSync(GROUP, path.join(dir, path.basename(GROUP)));
    const node = startNode('perceptionNode', 'multipose_it', [
      'model:=movenet-multipose',
      'threads:=2',
      'score_threshold:=0.2',
      'tracking:=true',
      // MultiPose's person scores run lower than a detector's (0.26 to 0.49 for its six people): the
      // tracker's thresholds follow, as docs/models.md advises for this model.
      'track_high_threshold:=0.2',
      'track_new_threshold:=0.25',
    ]);
    procs.push(node);
    await node.waitFor(/model movenet-multipose \(fp32\) on cpu: nodes by provider/, 90_000);
    const client = await RosClient.start();
    procs.push({ stop: () => client.close() } as RunningProcess);
    for (const [topic, kind] of [
      ['poses', 'poses'],
      ['detections', 'detections'],
      ['annotations', 'annotations'],
    ] as const)
      await client.watch(`/multipose_it/${topic}`, kind);
    procs.push(startPhotoSource('multipose_cam', dir, 2, 'cam'));

    // Tracking publishes a person from its second frame on: take a few frames and use the last.
    const poseMsgs = await client.take<PosesMsg>('/multipose_it/poses', 4, 60);
    const detMsgs = await client.take<DetectionsMsg>('/multipose_it/detections', 4, 30);
    const notes = await client.take<AnnotationsMsg>('/multipose_it/annotations', 4, 30);
    const last = poseMsgs[poseMsgs.length - 1]!;
    const poses = last.poses;
    assert.ok(poses.length >= 4, `${poses.length} poses on a photo of six people`);
    assert.equal(last.frame_id, 'cam');
    for (const p of poses) {
      assert.equal(p.keypoints, 17);
      // Every keypoint and box inside the 500x375 photo, boxes of some size ([cx, cy, w, h]).
      for (const [x, y] of p.points) assert.ok(x >= 0 && x <= 500 && y >= 0 && y <= 375);
      const [cx, cy, w, h] = p.box;
      assert.ok(
        w > 10 && h > 10 && cx - w / 2 >= -1 && cx + w / 2 <= 501,
        `box ${p.box.join(',')}`,
      );
      assert.ok(cy - h / 2 >= -1 && cy + h / 2 <= 376, `box ${p.box.join(',')}`);
    }

    // The same frame's people on ~/detections: one box per pose, class person, a track id each
    // that the other frames of the same still photo keep.
    const sameFrame = detMsgs.find((m) => m.stamp.join('.') === last.stamp.join('.'));
    assert.ok(sameFrame, 'the last poses frame has its ~/detections');
    assert.equal(sameFrame.items.length, poses.length);
    for (const d of sameFrame.items) assert.equal(d.class_id, '0');
    for (const p of poses) {
      assert.ok(
        sameFrame.items.some((d) => d.box.every((v, i) => Math.abs(v - p.box[i]!) < 1e-3)),
        `no detection with the box of the pose at ${p.box.join(',')}`,
      );
    }
    const ids = (m: DetectionsMsg) => m.items.map((d) => d.id).sort();
    assert.equal(new Set(ids(sameFrame)).size, sameFrame.items.length, 'distinct track ids');
    assert.ok(
      detMsgs.some((m) => m !== sameFrame && ids(m).join() === ids(sameFrame).join()),
      `track ids change on a still photo: ${detMsgs.map((m) => ids(m).join()).join(' | ')}`,
    );

    // Foxglove's overlay: a box, a label with the track id and a skeleton per person.
    const note = notes[notes.length - 1]!;
    const boxes = note.points.filter((p) => p.type === POINTS_TYPE.LINE_LOOP);
    assert.ok(boxes.length >= 4, `${boxes.length} boxes in the annotations`);
    for (const t of note.texts) assert.match(t.text, /^person \d\.\d\d #\d+$/);
    assert.ok(
      note.points.some((p) => p.type === POINTS_TYPE.LINE_LIST),
      'no skeleton drawn',
    );

    // Diagnostics count the live tracks.
    const diag = await client.diagnostics('multipose_it', 10);
    assert.ok(Number(diag.values.tracks_tracked) >= 4, JSON.stringify(diag.values));
  });
});
