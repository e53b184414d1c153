import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { repoPath } from '../../support/paths';
import { privateDomainId, startProcess } from '../../support/rosProcess';

describe('npm run bench:soak (smoke: seconds, not minutes)', function () {
  // Real processes: camera stand-in, the node (configured and activated over its lifecycle
  // services by the benchmark), the benchmark reading /proc.
  this.timeout(300_000);
  let dir: string;
  before(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'soak-bench-test-'))));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('activates the node while frames flow, times its first detection and samples RSS each second', async function () {
    const json = path.join(dir, 'soak.json');
    const png = path.join(dir, 'soak.png');
    const p = startProcess(
      'node',
      [
        repoPath('dist', 'src', 'bench', 'soakBench.js'),
        '--seconds',
        '8',
        '--warmup',
        '2',
        '--json',
        json,
        '--png',
        png,
      ],
      { HTP_BENCH_DOMAIN_ID: privateDomainId() },
    );
    const code = await p.exited();
    assert.equal(code, 0, `bench failed:\n${p.stdout()}\n${p.stderr()}`);
    assert.match(p.stdout(), /first detection after activate/);
    const r = JSON.parse(fs.readFileSync(json, 'utf8')) as Record<string, unknown>;
    assert.equal(r.precision, 'int8');
    assert.equal(r.provider, 'cpu');
    const first = r.first_detection_ms_after_activate as number;
    assert.ok(first > 0 && first < 60_000, `first detection ${first} ms`);
    const samples = r.samples as { t_s: number; rss_mb: number; detections_per_s: number }[];
    assert.equal(samples.length, 8);
    samples.forEach((s, i) => {
      assert.ok(Math.abs(s.t_s - (i + 1)) < 0.5, `sample ${i} at ${s.t_s} s`);
      // A node with a YOLOv8s session and ROS 2 loaded is far above 50 MB; a wrong pid is not.
      assert.ok(s.rss_mb > 50, `sample ${i}: ${s.rss_mb} MB`);
    });
    assert.ok((r.detections_received as number) > 0, 'no detections while soaking');
    assert.equal(r.rss_mb_peak, Math.max(...samples.map((s) => s.rss_mb)));
    assert.ok((r.rss_mb_configured_idle as number) > 50);
    const head = fs.readFileSync(png).subarray(0, 8);
    assert.deepEqual([...head], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  });
});
