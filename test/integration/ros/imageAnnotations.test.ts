import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { COCO_SKELETON } from '../../../src/heads/cocoKeypoints';
import { POINTS_TYPE } from '../../../src/ros/imageAnnotations';
import { boxIou } from '../../support/boxIou';
import { repoPath } from '../../support/paths';
import { photoDirWith } from '../../support/photos';
import { AnnotationsMsg, DiagnosticStatus, PosesMsg, RosClient } from '../../support/rosClient';
import { RunningProcess, startNode, startPhotoSource } from '../../support/rosProcess';

const PERSON_JPG = { width: 640, height: 424 };
/** The person in person.jpg as the offline reference finds it (see the detector test). */
const REFERENCE_PERSON = { x1: 182.86, y1: 97.33, x2: 289.32, y2: 377.92 };
const NODE = 'fg_pose';
const TOPIC = `/${NODE}/annotations`;

const counter = (d: DiagnosticStatus, key: string): number => Number(d.values[key] ?? NaN);

/**
 * ~/annotations over real DDS, from the real node on a real photo: Foxglove's overlay of boxes,
 * labels and skeletons, stamped like the image, and nothing built while nobody subscribes.
 */
describe('Foxglove image annotations over real DDS (image_source -> perception_node -> rclpy)', function () {
  this.timeout(180_000);
  const procs: RunningProcess[] = [];
  let client: RosClient | undefined;
  let photoDir: string;
  before(() => {
    photoDir = photoDirWith('person.jpg');
  });
  after(async () => {
    await client?.close();
    await Promise.all(procs.splice(0).map((p) => p.stop()));
    fs.rmSync(photoDir, { recursive: true, force: true });
  });

  /** Diagnostics until `ready` holds for them (bounded: the node publishes them at 1 Hz). */
  async function diagnosticsWhen(
    ready: (d: DiagnosticStatus) => boolean,
    what: string,
  ): Promise<DiagnosticStatus> {
    let d: DiagnosticStatus | undefined;
    for (let i = 0; i < 60; i++) {
      d = await client!.diagnostics(NODE, 5);
      if (d.values && ready(d)) return d;
    }
    assert.fail(`${what}; last diagnostics ${JSON.stringify(d?.values)}`);
  }

  it('publishes boxes, labels and skeletons with the image stamp only while subscribed', async function () {
    const perception = startNode('perceptionNode', NODE, [
      'threads:=2',
      `model:=${repoPath('models', 'hrnet', 'hrnet-w32-256x192.manifest.json')}`,
      `person_detector:=${repoPath('models', 'yolov8-fall', 'yolov8s-fall.manifest.json')}`,
      'person_classes:=[Normal,Fall]',
    ]);
    procs.push(perception);
    await perception.waitFor(/nodes by provider/, 60_000);
    client = await RosClient.start();
    procs.push(startPhotoSource('src_fg', photoDir, 2, 'cam'));

    // Nobody subscribes yet: results flow, annotations are counted as unwatched, none is built.
    const before = await diagnosticsWhen(
      (d) => counter(d, 'processed') >= 2 && counter(d, 'annotations_unwatched') >= 2,
      'frames processed without a subscriber to ~/annotations',
    );
    assert.equal(counter(before, 'annotations_published'), 0);

    await client.watch(`/${NODE}/poses`, 'poses');
    await client.watch(TOPIC, 'annotations');
    const annotations = await client.take<AnnotationsMsg>(TOPIC, 3, 60);
    const poses = await client.take<PosesMsg>(`/${NODE}/poses`, 1, 30);
    assert.ok(annotations.length >= 3, `only ${annotations.length} annotation messages`);

    const posesByStamp = new Map(poses.map((p) => [p.stamp.join('.'), p]));
    let matched = 0;
    for (const a of annotations) {
      assert.equal(a.metadata.frame_id, 'cam', 'frame_id of the image');
      assert.ok(a.stamp[0] > 0, 'stamped with the image time');
      const boxes = a.points.filter((p) => p.type === POINTS_TYPE.LINE_LOOP);
      // yolov8s-fall finds two people-like boxes in person.jpg (see the pose task test).
      assert.equal(boxes.length, 2);
      assert.equal(a.texts.length, 2);
      // HRNet scores are heatmap peaks (not bounded to 1; the test weights are untrained).
      for (const t of a.texts) assert.match(t.text, /^person \d+\.\d\d #[12]$/);
      for (const p of a.points) {
        for (const [x, y] of p.points) {
          assert.ok(
            x >= 0 && x <= PERSON_JPG.width && y >= 0 && y <= PERSON_JPG.height,
            `${x},${y}`,
          );
        }
      }
      const corners = boxes.map((b) => {
        const xs = b.points.map((q) => q[0]);
        const ys = b.points.map((q) => q[1]);
        return {
          x1: Math.min(...xs),
          y1: Math.min(...ys),
          x2: Math.max(...xs),
          y2: Math.max(...ys),
        };
      });
      assert.ok(
        corners.some((c) => boxIou(c, REFERENCE_PERSON) >= 0.9),
        `no box on the person: ${JSON.stringify(corners)}`,
      );
      // The very frame's poses, when this subscriber got them too: same boxes, and one point per
      // keypoint the drawn picture shows (score >= 0.5).
      const same = posesByStamp.get(a.stamp.join('.'));
      if (!same) continue;
      matched++;
      const visible = same.poses.reduce(
        (n, p) => n + p.points.filter(([, , score]) => score >= 0.5).length,
        0,
      );
      const dots = a.points.filter((p) => p.type === POINTS_TYPE.POINTS);
      assert.equal(
        dots.reduce((n, p) => n + p.points.length, 0),
        visible,
      );
      const limbs = same.poses.reduce(
        (n, p) =>
          n +
          COCO_SKELETON.filter(([i, j]) => p.points[i]![2] >= 0.5 && p.points[j]![2] >= 0.5).length,
        0,
      );
      const lines = a.points.filter((p) => p.type === POINTS_TYPE.LINE_LIST);
      assert.equal(
        lines.reduce((n, p) => n + p.points.length / 2, 0),
        limbs,
        'one segment per limb with both ends shown',
      );
      for (const p of same.poses) {
        const [cx, cy, w, h] = p.box;
        const box = { x1: cx - w / 2, y1: cy - h / 2, x2: cx + w / 2, y2: cy + h / 2 };
        assert.ok(
          corners.some((c) => boxIou(c, box) > 0.999),
          JSON.stringify(box),
        );
      }
    }
    assert.ok(matched > 0, 'no annotations carried the stamp of a poses message');

    const watched = await diagnosticsWhen(
      (d) => counter(d, 'annotations_published') >= annotations.length,
      'annotations counted as published',
    );
    // The subscriber leaves: the node stops building them (published stays, unwatched grows).
    await client.unwatch(TOPIC);
    const left = await diagnosticsWhen(
      (d) => counter(d, 'annotations_unwatched') >= counter(watched, 'annotations_unwatched') + 2,
      'annotations unwatched again after the subscriber left',
    );
    const later = await diagnosticsWhen(
      (d) => counter(d, 'processed') >= counter(left, 'processed') + 2,
      'more frames processed',
    );
    assert.equal(
      counter(later, 'annotations_published'),
      counter(left, 'annotations_published'),
      'nothing published without a subscriber',
    );
  });
});
