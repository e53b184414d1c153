import { strict as assert } from 'node:assert';
import {
  jsonSummary,
  nodeScript,
  RunningProcess,
  startNode,
  startProcess,
} from '../../support/rosProcess';
import { repoPath } from '../../support/paths';

const PEER = repoPath('tools', 'ros', 'image_peer.py');
const DIAG = repoPath('test', 'fixtures', 'ros', 'diagnostics_listener.py');

interface Received {
  received: number;
  frames: { seq: number; ok: boolean; encoding: string }[];
}

describe('pass_through node over real DDS (rclpy publisher -> TypeScript raw intake -> rclpy receiver)', function () {
  this.timeout(90_000);
  const procs: RunningProcess[] = [];
  afterEach(async () => {
    await Promise.all(procs.splice(0).map((p) => p.stop()));
  });

  it('republishes every encoding byte-exact with its header, and counts malformed frames', async function () {
    const count = 36;
    const node = startNode('passThroughNode', 'pt_it', ['log_period_s:=0.5']);
    procs.push(node);
    const receiver = startProcess('python3', [
      PEER,
      'receive',
      '--topic',
      '/pt_it/image',
      '--count',
      String(count),
      '--reliable',
      '--depth',
      '50',
      '--idle',
      '4',
    ]);
    procs.push(receiver);
    await receiver.waitFor(/^ready$/m, 30_000);
    const diagnostics = startProcess('python3', [DIAG, 'pt_it', 'rejected', '3', '60']);
    procs.push(diagnostics);
    await diagnostics.waitFor(/^ready$/m, 30_000);
    const publisher = startProcess('python3', [
      PEER,
      'publish',
      '--topic',
      'image',
      '--count',
      String(count),
      '--rate',
      '15',
      '--bad',
      '3',
    ]);
    procs.push(publisher);
    assert.equal(await publisher.exited(), 0, publisher.stdout() + publisher.stderr());
    await receiver.exited();
    const summary = jsonSummary<Received>(receiver);

    // Best-effort input may lose a frame on a busy machine; everything that arrives must be exact.
    assert.ok(summary.received >= count * 0.8, `received only ${summary.received} of ${count}`);
    const bad = summary.frames.filter((f) => !f.ok);
    assert.deepEqual(bad, [], 'frames whose pixels, geometry or header changed in transit');
    const encodings = new Set(summary.frames.map((f) => f.encoding));
    for (const e of ['rgb8', 'bgr8', 'rgba8', 'bgra8', 'mono8', 'yuyv'])
      assert.ok(encodings.has(e), `no ${e} frame came back`);

    // The three malformed frames were rejected with their typed reason, and the node lived on.
    await node.waitFor(/rejected 3,/, 10_000);
    assert.match(node.stdout() + node.stderr(), /dropped a bad frame: STEP_TOO_SMALL/);
    assert.equal(node.child.exitCode, null, 'node must still be running');

    // /diagnostics carries the same counts, at WARN while bad frames arrive.
    await diagnostics.exited();
    const status = jsonSummary<{ level?: number; values?: Record<string, string> }>(diagnostics);
    assert.equal(status.values?.rejected, '3', diagnostics.stdout());
    assert.equal(status.level, 1, 'WARN in the period the bad frames arrived');
    assert.match(status.values?.rejected_by_reason ?? '', /"STEP_TOO_SMALL":3/);
    assert.ok(Number(status.values?.received) >= 3);
  });

  it('reports a publisher whose QoS can never match input_qos, instead of waiting silently', async function () {
    const node = startNode('passThroughNode', 'pt_qos', ['input_qos:=reliable']);
    procs.push(node);
    const publisher = startProcess('python3', [
      PEER,
      'publish',
      '--topic',
      'image',
      '--count',
      '5',
      '--timeout',
      '15',
    ]);
    procs.push(publisher);
    const m = await node.waitFor(/incompatible publisher on \/image: (.*)/, 20_000);
    assert.match(
      m[1]!,
      /image_peer_publish: publisher is best effort but input_qos asks for reliable/,
    );
  });

  it('explains in one line how to fix a missing ROS environment', async function () {
    const env: Record<string, string> = { AMENT_PREFIX_PATH: '', ROS_DISTRO: '' };
    const p = startProcess('node', [nodeScript('src/nodes/passThroughNode.js')], env);
    procs.push(p);
    assert.equal(await p.exited(), 2, p.stderr());
    const lines = p.stderr().trim().split('\n');
    assert.equal(lines.length, 1, p.stderr());
    assert.match(lines[0]!, /RosEnvironmentError: .*source scripts\/env\.sh/);
  });
});
