import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { repoPath } from '../../../test/support/paths';
import { privateDomainId, startProcess } from '../../../test/support/rosProcess';

describe('npm run bench:soak (smoke: seconds, not minutes)', function () {
  // Real processes: camera stand-in, the node (configured and activated over its lifecycle
  // services by the benchmark), the benchmark reading /proc.
  this.timeout(300_000);
  let dir: string;
  before(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'soak-bench-test-'))));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** Runs the benchmark with `args` and its JSON and PNG in the test's folder; its stdout. */
  async function soak(name: string, args: readonly string[]): Promise<string> {
    const p = startProcess(
      'node',
      [
        repoPath('dist', 'bench', 'src', 'soakBench.js'),
        ...args,
        '--json',
        path.join(dir, `${name}.json`),
        '--png',
        path.join(dir, `${name}.png`),
      ],
      { HTP_BENCH_DOMAIN_ID: privateDomainId() },
    );
    const code = await p.exited();
    assert.equal(code, 0, `bench failed:\n${p.stdout()}\n${p.stderr()}`);
    return p.stdout();
  }

  const isPng = (file: string): void => {
    const head = fs.readFileSync(path.join(dir, file)).subarray(0, 8);
    assert.deepEqual([...head], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], file);
  };

  it('activates the node while frames flow, times its first detection and samples RSS each second', async function () {
    const out = await soak('soak', ['--seconds', '8', '--warmup', '2']);
    assert.match(out, /first detection after activate/);
    const json = path.join(dir, 'soak.json');
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
    isPng('soak.png');
  });

  it('--container: the three pipelines of config/pipelines.yaml, results of each, counters, windows and a lifecycle cycle', async function () {
    await soak('soak-container', [
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
    ]);
    const json = path.join(dir, 'soak-container.json');
    const r = JSON.parse(fs.readFileSync(json, 'utf8')) as {
      frames_sent: number;
      memory: {
        rss_mb: number;
        native_mb: number;
        js_heap_mb: number;
        rss_anon_mb: number;
        rss_file_mb: number;
        malloc_in_use_mb: number;
        arena_reserved_mb: number;
      }[];
      frames: Record<string, { received: number; processed: number }>;
      latency: Record<string, { windows: { messages: number; p50_ms: number }[] }>;
      cycles: { count: number; at_s: number; ms: number };
    };
    assert.equal(r.frames_sent, 200);
    assert.equal(r.memory.length, 20);
    for (const m of r.memory.slice(5)) {
      assert.ok(m.rss_mb > 100 && m.js_heap_mb > 0 && m.native_mb < m.rss_mb, JSON.stringify(m));
      // The breakdown: /proc's kinds add up to at most RSS; malloc and the arenas reported.
      assert.ok(m.rss_anon_mb + m.rss_file_mb <= m.rss_mb + 1, JSON.stringify(m));
      assert.ok(m.malloc_in_use_mb > 1, JSON.stringify(m));
    }
    // Every pipeline has run by the end: three models' arenas, each some MB.
    assert.ok(r.memory.at(-1)!.arena_reserved_mb > 3, JSON.stringify(r.memory.at(-1)));
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
    isPng('soak-container.png');
    isPng('soak-container-native.png');
  });
});
