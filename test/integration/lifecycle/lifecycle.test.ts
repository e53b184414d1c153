import { strict as assert } from 'node:assert';
import { useRosTestBed } from '../../support/rosTestBed';
import { DetectionsMsg, TransitionEventMsg } from '../../support/rosClient';
import { startNode, startPhotoSource } from '../../support/rosProcess';
import { repoPath } from '../../support/paths';

const FALL = repoPath('models', 'yolov8-fall', 'yolov8s-fall.manifest.json');

describe('managed perception node: lifecycle over the standard services (rclpy as manager)', function () {
  this.timeout(240_000);
  const bed = useRosTestBed('person.jpg');

  before(async () => {
    bed.own(startPhotoSource('lc_src', bed.photoDir, 5, 'lc_cam'));
  });

  it('walks every transition; outputs only while active; the vote follows activate / deactivate', async function () {
    const node = startNode('perceptionNode', 'lc_it', ['autostart:=false', 'threads:=2']);
    bed.own(node);
    await bed.client.watch('/lc_it/transition_event', 'events');
    await bed.client.watch('/lc_it/detections', 'detections');
    assert.equal(await bed.client.state('lc_it'), 'unconfigured');
    assert.equal(
      await bed.client.changeState('lc_it', 'activate'),
      false,
      'activate from unconfigured',
    );

    assert.equal(await bed.client.changeState('lc_it', 'configure'), true);
    assert.equal(await bed.client.state('lc_it'), 'inactive');
    assert.deepEqual(
      await bed.client.take('/lc_it/detections', 1, 3),
      [],
      'no outputs while inactive',
    );

    assert.equal(await bed.client.changeState('lc_it', 'activate'), true);
    assert.equal(await bed.client.state('lc_it'), 'active');
    const active = await bed.client.take<DetectionsMsg>('/lc_it/detections', 3, 60);
    assert.ok(active.length >= 3, `${active.length} detection messages while active`);
    assert.ok(active.every((m) => m.frame_id === 'lc_cam'));
    const voted = await bed.client.diagnostics('lc_it');
    assert.equal(voted.values.lifecycle_state, 'active');
    assert.equal(voted.values.power_state, 'voted', JSON.stringify(voted.values));
    // Fast DDS is the RMW here: the camera frames that made those detections were taken with one
    // copy (our rclnodejs patch), not rmw's two.
    assert.equal(voted.values.intake_take, 'direct');

    assert.equal(await bed.client.changeState('lc_it', 'deactivate'), true);
    assert.equal(await bed.client.state('lc_it'), 'inactive');
    const released = await bed.client.diagnostics('lc_it');
    assert.equal(released.values.power_state, 'released', 'deactivate releases the vote');
    await bed.client.clear('/lc_it/detections');
    assert.deepEqual(
      await bed.client.take('/lc_it/detections', 1, 3),
      [],
      'no outputs after deactivate',
    );

    assert.equal(await bed.client.changeState('lc_it', 'cleanup'), true);
    assert.equal(await bed.client.state('lc_it'), 'unconfigured');
    assert.equal(await bed.client.changeState('lc_it', 'shutdown'), true);
    assert.equal(await bed.client.state('lc_it'), 'finalized');

    const events = await bed.client.take<TransitionEventMsg>('/lc_it/transition_event', 10, 5);
    const goals = events.map((e) => e.goal);
    for (const g of [
      'configuring',
      'inactive',
      'activating',
      'active',
      'deactivating',
      'cleaningup',
      'unconfigured',
      'shuttingdown',
      'finalized',
    ]) {
      assert.ok(goals.includes(g), `transition_event to ${g} in ${goals.join(', ')}`);
    }
    assert.equal(node.child.exitCode, null, 'the node stays up in finalized until stopped');
    // The one refused request (activate while unconfigured) is reported, and nothing else.
    const complaints = (node.stdout() + node.stderr())
      .split('\n')
      .filter((l) => /\[(WARN|ERROR)\]/.test(l));
    assert.equal(complaints.length, 1, complaints.join('\n'));
    assert.match(complaints[0]!, /\[WARN\].*activate is not a transition from unconfigured/);
  });

  it('a configure that fails leaves the node unconfigured and up; fixed, it configures', async function () {
    const node = startNode('perceptionNode', 'lc_bad', [
      'autostart:=false',
      'threads:=2',
      'model:=/nonexistent/missing.manifest.json',
    ]);
    bed.own(node);
    assert.equal(await bed.client.state('lc_bad'), 'unconfigured');
    assert.equal(await bed.client.changeState('lc_bad', 'configure'), false);
    assert.equal(await bed.client.state('lc_bad'), 'unconfigured');
    await node.waitFor(/configure failed: .*missing\.manifest\.json/, 10_000);
    const failLines = (node.stdout() + node.stderr())
      .split('\n')
      .filter((l) => /configure failed/.test(l));
    assert.equal(failLines.length, 1, 'one line with the reason');
    const diag = await bed.client.diagnostics('lc_bad');
    assert.equal(diag.level, 2);
    assert.match(diag.message, /configure failed: .*missing\.manifest\.json/);

    const set = await bed.client.setParams('lc_bad', { model: FALL });
    assert.deepEqual(set, [{ successful: true, reason: '' }]);
    assert.equal(await bed.client.changeState('lc_bad', 'configure'), true);
    assert.equal(await bed.client.state('lc_bad'), 'inactive');
    assert.equal(node.child.exitCode, null);
  });

  it('with autostart a configure failure exits with code 2 and the one-line reason', async function () {
    const node = startNode('perceptionNode', 'lc_auto_bad', [
      'model:=/nonexistent/x.manifest.json',
    ]);
    bed.own(node);
    assert.equal(await node.exited(), 2);
    const lines = node.stderr().trim().split('\n');
    assert.equal(lines.length, 1, node.stderr());
    assert.match(lines[0]!, /^\w+Error: lc_auto_bad: .*x\.manifest\.json/);
  });
});
