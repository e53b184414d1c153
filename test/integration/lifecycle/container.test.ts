import { strict as assert } from 'node:assert';
import { useRosTestBed } from '../../support/rosTestBed';
import { DetectionsMsg, ImageMsg, PosesMsg } from '../../support/rosClient';
import { nodeScript, startProcess } from '../../support/rosProcess';
import { repoPath } from '../../support/paths';

const key = (m: { stamp: [number, number] }): string => m.stamp.join('.');

describe('perception_container: detection, BlazePose on its people and selfie segmentation on one camera', function () {
  this.timeout(240_000);
  const bed = useRosTestBed('person.jpg');

  it('every pipeline publishes with the header of the same input frames; poses on the detector boxes', async function () {
    const container = startProcess('node', [
      nodeScript('src/nodes/perceptionContainer.js'),
      '--ros-args',
      '--params-file',
      repoPath('config', 'pipelines.yaml'),
      '-r',
      'image:=/ct_cam/image',
    ]);
    bed.own(container);
    await container.waitFor(
      /model selfie-segmentation \(fp32\) on cpu: nodes by provider/,
      120_000,
    );
    for (const n of ['detector', 'pose', 'segmentation']) {
      assert.equal(await bed.client.state(n), 'active', n);
    }
    await bed.client.watch('/detector/detections', 'detections');
    await bed.client.watch('/pose/poses', 'poses');
    await bed.client.watch('/segmentation/segmentation', 'image');
    // The camera on /ct_cam/image (the container was remapped there too).
    bed.own(
      startProcess('node', [
        nodeScript('src/nodes/imageSourceNode.js'),
        '--ros-args',
        '-r',
        '__node:=ct_src',
        '-r',
        'image:=/ct_cam/image',
        '-p',
        `directory:=${bed.photoDir}`,
        '-p',
        'rate_hz:=2.0',
        '-p',
        'frame_id:=ct_frame',
      ]),
    );
    const dets = await bed.client.take<DetectionsMsg>('/detector/detections', 6, 90);
    const poses = await bed.client.take<PosesMsg>('/pose/poses', 6, 60);
    const masks = await bed.client.take<ImageMsg>('/segmentation/segmentation', 6, 60);
    assert.ok(dets.length > 0 && poses.length > 0 && masks.length > 0);
    for (const m of [...dets, ...poses, ...masks]) assert.equal(m.frame_id, 'ct_frame');

    const detBy = new Map(dets.map((m) => [key(m), m]));
    const common = masks.map(key).filter((k) => detBy.has(k) && poses.some((p) => key(p) === k));
    assert.ok(common.length > 0, 'at least one camera frame went through all three pipelines');

    let compared = 0;
    for (const p of poses) {
      const d = detBy.get(key(p));
      if (!d) continue;
      // Only the COCO detector's `person` boxes go to BlazePose (person_classes [person]): the
      // man, never the dog or the horse.
      const people = d.items.filter((x) => x.class_id === '0');
      const boxes = new Set(people.map((x) => x.box.map((v) => v.toFixed(2)).join(',')));
      for (const x of p.poses) {
        assert.ok(
          boxes.has(x.box.map((v) => v.toFixed(2)).join(',')),
          "BlazePose ran on the detection pipeline's person boxes of the same frame",
        );
      }
      assert.ok(p.poses.every((x) => x.keypoints === 17));
      compared += p.poses.length;
    }
    assert.ok(compared > 0, 'BlazePose found the person');
    assert.ok(
      dets.some((d) => d.items.length > 0),
      'person.jpg has people',
    );

    // One subscription to the camera for the whole process.
    const subs = await bed.client.subscribers('/ct_cam/image');
    assert.equal(
      subs.filter((n) => ['detector', 'pose', 'segmentation'].includes(n)).length,
      1,
      subs.join(','),
    );
    assert.equal(await bed.client.state('pose'), 'active');
    // Started by hand, without the V8 flags its launcher adds: it says so, once for the process.
    const said = container.stdout() + container.stderr();
    assert.equal(
      said.match(/started without the V8 flags --no-memory-reducer --heap-growing-percent=300 /g)
        ?.length,
      1,
      said,
    );
  });
});
