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

  it('--container: the three pipelines of config/pipelines.yaml, results of each, counters, windows and a lifecycle cycle', async function () {
    const json = path.join(dir, 'soak-container.json');
    const png = path.join(dir, 'soak-container.png');
    const p = startProcess(
      'node',
      [
        repoPath('dist', 'src', 'bench', 'soakBench.js'),
        '--container',
        '--seconds',
        '20',
        '--warmup',
        '5',
        '--window',
        '10',
        '--cycles',
        '1',
        '--rate',
        '10',
        '--json',
        json,
        '--png',
        png,
      ],
      { HTP_BENCH_DOMAIN_ID: privateDomainId() },
    );
    const code = await p.exited();
    assert.equal(code, 0, `bench failed:\n${p.stdout()}\n${p.stderr()}`);
    const r = JSON.parse(fs.readFileSync(json, 'utf8')) as {
      frames_sent: number;
      memory: { rss_mb: number; native_mb: number; js_heap_mb: number }[];
      frames: Record<string, { received: number; processed: number }>;
      latency: Record<string, { windows: { messages: number; p50_ms: number }[] }>;
      cycles: { count: number; at_s: number; ms: number };
    };
    assert.equal(r.frames_sent, 200);
    assert.equal(r.memory.length, 20);
    for (const m of r.memory.slice(5)) {
      assert.ok(m.rss_mb > 100 && m.js_heap_mb > 0 && m.native_mb < m.rss_mb, JSON.stringify(m));
    }
    for (const name of ['detector', 'pose', 'segmentation']) {
      const f = r.frames[name]!;
      assert.ok(f.processed > 0 && f.processed <= f.received, `${name}: ${JSON.stringify(f)}`);
      const w = r.latency[name]!.windows;
      assert.equal(w.length, 2);
      assert.ok(
        w.some((x) => x.messages > 0 && x.p50_ms > 0),
        `${name}: ${JSON.stringify(w)}`,
      );
    }
    assert.equal(r.cycles.at_s, 10);
    assert.equal(r.cycles.count, 1);
    assert.ok(r.cycles.ms > 0);
    const head = fs.readFileSync(png).subarray(0, 8);
    assert.deepEqual([...head], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  });
});
