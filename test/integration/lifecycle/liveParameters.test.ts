import { strict as assert } from 'node:assert';
import { useRosTestBed } from '../../support/rosTestBed';
import { DetectionsMsg } from '../../support/rosClient';
import { startNode, startPhotoSource } from '../../support/rosProcess';
import { repoPath } from '../../support/paths';

describe('managed perception node: live parameters over the parameter services', function () {
  this.timeout(180_000);
  const bed = useRosTestBed('person.jpg');

  before(async () => {
    // The fall detector: the scores below are its scores on person.jpg.
    const node = startNode('perceptionNode', 'lp_it', ['threads:=2', 'model:=yolov8s-fall']);
    bed.own(node);
    await node.waitFor(/nodes by provider/, 60_000);
    await bed.client.watch('/lp_it/detections', 'detections');
    bed.own(startPhotoSource('lp_src', bed.photoDir, 5));
  });

  it('raising score_threshold removes the low detections from the next frame on', async function () {
    // person.jpg: the reference finds two people, scores 0.62 and 0.50.
    const before = await bed.client.take<DetectionsMsg>('/lp_it/detections', 2, 60);
    assert.ok(before.length >= 2);
    const scores = before
      .at(-1)!
      .items.map((d) => d.score)
      .sort();
    assert.equal(scores.length, 2, `detections before: ${JSON.stringify(scores)}`);
    assert.ok(scores[0]! < 0.55 && scores[1]! > 0.55, JSON.stringify(scores));

    const set = await bed.client.setParams('lp_it', { score_threshold: 0.55 });
    assert.deepEqual(set, [{ successful: true, reason: '' }]);
    await bed.client.clear('/lp_it/detections');
    const after = await bed.client.take<DetectionsMsg>('/lp_it/detections', 3, 60);
    // The first may be the frame that was in flight when the value changed.
    for (const m of after.slice(1)) {
      assert.equal(m.items.length, 1, JSON.stringify(m.items));
      assert.ok(m.items[0]!.score >= 0.55);
    }
    assert.ok(after.length >= 3);
    await bed.client.setParams('lp_it', { score_threshold: 0.25 });
  });

  it('rejects invalid values and session parameters while active, with the reason', async function () {
    const [range] = await bed.client.setParams('lp_it', { score_threshold: 1.5 });
    assert.equal(range!.successful, false);
    assert.match(range!.reason, /score_threshold/);
    assert.match(range!.reason, /<=\s*1|1/);

    const [type] = await bed.client.setParams('lp_it', { score_threshold: 'high' });
    assert.deepEqual(type, {
      successful: false,
      reason: 'score_threshold: expected a double value',
    });

    const [cls] = await bed.client.setParams('lp_it', { classes: ['dog'] });
    assert.equal(cls!.successful, false);
    assert.match(cls!.reason, /'dog' is not a class of yolov8s-fall \(Normal, Fall\)/);

    const other = repoPath('models', 'yolov8n-seg', 'yolov8n-seg.manifest.json');
    const [reload] = await bed.client.setParams('lp_it', { model: other });
    assert.equal(reload!.successful, false);
    assert.match(
      reload!.reason,
      /^model names a file: change it while unconfigured \(cleanup first\)$/,
    );
    const [threads] = await bed.client.setParams('lp_it', { threads: 1 });
    assert.equal(threads!.successful, false);

    const [fixed] = await bed.client.setParams('lp_it', { autostart: false });
    assert.equal(fixed!.successful, false);
    assert.match(fixed!.reason, /autostart is read-only/);
    // Still working with its old values.
    await bed.client.clear('/lp_it/detections');
    const still = await bed.client.take<DetectionsMsg>('/lp_it/detections', 2, 60);
    assert.ok(still.length >= 2);
  });

  it('describes every parameter: description, range, read-only', async function () {
    const d = await bed.client.describe('lp_it', [
      'score_threshold',
      'max_detections',
      'autostart',
      'htp_profile',
    ]);
    const by = Object.fromEntries(d.map((x) => [x.name, x]));
    assert.deepEqual(by.score_threshold!.range, [0, 1]);
    assert.match(by.score_threshold!.description, /applies from the next frame/);
    assert.deepEqual(by.max_detections!.range, [1, 10000]);
    assert.equal(by.autostart!.read_only, true);
    assert.match(by.htp_profile!.description, /one of: .*sustained_high_performance/);
    assert.match(by.htp_profile!.description, /applies at the next configure/);
  });

  it('the camera stand-in declares its parameters the same way: described, ranged, read-only', async function () {
    const d = await bed.client.describe('lp_src', ['rate_hz', 'encoding', 'max_side']);
    const by = Object.fromEntries(d.map((x) => [x.name, x]));
    assert.match(by.rate_hz!.description, /frames per second; read-only/);
    assert.deepEqual(by.rate_hz!.range, [0, 1000]);
    assert.match(by.encoding!.description, /one of: rgb8, bgr8, mono8/);
    assert.deepEqual(by.max_side!.range, [0, 16384]);
    for (const x of d) assert.equal(x.read_only, true, x.name);
    const [set] = await bed.client.setParams('lp_src', { rate_hz: 2.0 });
    assert.equal(set!.successful, false, 'a value the node would never apply is refused');
  });
});
