import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { DetectionsMsg, RosClient } from '../../support/rosClient';
import {
  nodeScript,
  RunningProcess,
  startNode,
  startPhotoSource,
  startProcess,
} from '../../support/rosProcess';
import { photoDirWith } from '../../support/photos';
import { repoPath } from '../../support/paths';

/** SIGTERM while frames flow; resolves with the exit code and how long the stop took. */
async function terminate(p: RunningProcess): Promise<{ code: number | null; ms: number }> {
  const t0 = performance.now();
  p.child.kill('SIGTERM');
  const code = await p.exited();
  return { code, ms: performance.now() - t0 };
}

describe('clean stops: SIGTERM with a frame in flight', function () {
  this.timeout(240_000);
  const procs: RunningProcess[] = [];
  let client: RosClient;
  let photoDir: string;

  before(async () => {
    photoDir = photoDirWith('person.jpg');
    client = await RosClient.start();
    // Faster than the detector: there is always a frame in flight and one waiting.
    procs.push(startPhotoSource('cs_src', photoDir, 20));
  });
  after(async () => {
    await Promise.all(procs.splice(0).map((p) => p.stop()));
    await client.close();
    fs.rmSync(photoDir, { recursive: true, force: true });
  });

  it('perception_node exits 0 within 2 s and logs no WARN or ERROR line', async function () {
    const node = startNode('perceptionNode', 'cs_it', ['threads:=2']);
    procs.push(node);
    await client.watch('/cs_it/detections', 'detections');
    assert.ok((await client.take<DetectionsMsg>('/cs_it/detections', 2, 60)).length >= 2);
    const { code, ms } = await terminate(node);
    assert.equal(code, 0, node.stderr());
    assert.ok(ms < 2000, `stopped in ${ms.toFixed(0)} ms`);
    assert.doesNotMatch(node.stdout() + node.stderr(), /\[(WARN|ERROR)\]|Error/);
  });

  it('perception_container (three pipelines) exits 0 within 2 s and logs no WARN or ERROR line', async function () {
    const c = startProcess('node', [
      nodeScript('src/nodes/perceptionContainer.js'),
      '--ros-args',
      '--params-file',
      repoPath('config', 'pipelines.yaml'),
    ]);
    procs.push(c);
    await client.watch('/pose/poses', 'poses');
    await client.watch('/segmentation/segmentation', 'image');
    assert.ok((await client.take('/pose/poses', 1, 120)).length >= 1);
    assert.ok((await client.take('/segmentation/segmentation', 1, 60)).length >= 1);
    const { code, ms } = await terminate(c);
    assert.equal(code, 0, c.stderr());
    assert.ok(ms < 2000, `stopped in ${ms.toFixed(0)} ms`);
    assert.doesNotMatch(c.stdout() + c.stderr(), /\[(WARN|ERROR)\]|Error/);
  });
});
