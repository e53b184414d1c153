import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { repoPath } from '../../../test/support/paths';
import { privateDomainId, startProcess } from '../../../test/support/rosProcess';

interface DepthBenchJson {
  cpu: string;
  stage: { case: string; place_build_encode_ms_p50: number }[];
  nodes: { node: string; depth_ms_p50: number; frames_with_depth: number }[];
}

describe('npm run bench:depth (smoke: a few seconds)', function () {
  // Real processes: the depth camera stand-in, a perception node and a container with stand-in
  // models and depth: true, the benchmark reading their diagnostics.
  this.timeout(300_000);
  let dir: string;
  before(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'depth-bench-test-'))));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('times the depth stage in-process and in running nodes, and writes both to JSON', async function () {
    const json = path.join(dir, 'depth.json');
    const p = startProcess(
      'node',
      [
        repoPath('dist', 'bench', 'src', 'depthBench.js'),
        '--seconds',
        '4',
        '--iterations',
        '20',
        '--json',
        json,
      ],
      { HTP_BENCH_DOMAIN_ID: privateDomainId() },
    );
    const code = await p.exited();
    assert.equal(code, 0, `bench failed:\n${p.stdout()}\n${p.stderr()}`);
    const r = JSON.parse(fs.readFileSync(json, 'utf8')) as DepthBenchJson;
    assert.ok(r.cpu.length > 0);
    assert.deepEqual(
      r.stage.map((s) => s.case),
      ['20 detections', '5 poses (17 keypoints)'],
    );
    for (const s of r.stage) assert.ok(s.place_build_encode_ms_p50 > 0, JSON.stringify(s));
    assert.deepEqual(
      r.nodes.map((n) => n.node),
      ['db_det20', 'db_pose'],
    );
    for (const n of r.nodes) {
      assert.ok(n.frames_with_depth > 0, `${n.node} paired no depth: ${JSON.stringify(n)}`);
      assert.ok(Number.isFinite(n.depth_ms_p50) && n.depth_ms_p50 > 0, JSON.stringify(n));
    }
    assert.match(p.stdout(), /depth stage in the nodes/);
  });
});
