import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { CamerasRow } from '../../src/camerasRows';
import { repoPath } from '../../../test/support/paths';
import { privateDomainId, startProcess } from '../../../test/support/rosProcess';

describe('npm run bench:cameras (smoke: one and two cameras, seconds, the HTP stand-in)', function () {
  // Real processes: the node or container, two rclpy cameras, this receiver; on 2 shared cores.
  this.timeout(300_000);
  let dir: string;
  before(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cameras-bench-test-'))));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('serves every camera in every mode, one session shared (batched too) or one per camera, and writes JSON and a chart', async function () {
    const json = path.join(dir, 'cameras.json');
    const png = path.join(dir, 'cameras.png');
    const p = startProcess(
      'node',
      [
        repoPath('dist', 'bench', 'src', 'camerasBench.js'),
        ...['--cameras', '1,2', '--seconds', '3', '--warmup-s', '1', '--rate', '15'],
        ...['--backends', 'htp-standin', '--json', json, '--png', png],
        // Longer than a frame period at 15 Hz: the two cameras' frames always meet.
        ...['--batch-window-ms', '70'],
      ],
      { HTP_BENCH_DOMAIN_ID: privateDomainId() },
    );
    const code = await p.exited();
    assert.equal(code, 0, `bench failed:\n${p.stdout()}\n${p.stderr()}`);
    assert.match(p.stdout(), /CPU ms \/ camera-frame/);
    assert.match(p.stdout(), /RSS loaded MB \/ added camera/);
    const figures = JSON.parse(fs.readFileSync(json, 'utf8')) as {
      cpu: string;
      rows: CamerasRow[];
    };
    assert.ok(figures.cpu.length > 0);
    assert.deepEqual(
      figures.rows.map((r) => `${r.mode} ${r.n}`),
      // One camera has nothing to batch with: no batched row at N = 1.
      ['shared 1', 'shared 2', 'batched 2', 'per-camera 1', 'per-camera 2'],
    );
    for (const r of figures.rows) {
      const at = `${r.mode} N=${r.n}`;
      // One model for all cameras with `cameras`; one per pipeline otherwise.
      assert.equal(r.model_sessions, r.mode === 'per-camera' ? r.n : 1, at);
      // Frames of two cameras per run, once the cameras run: never more.
      if (r.mode === 'batched') assert.ok(r.frames_per_run > 1 && r.frames_per_run <= 2, at);
      assert.deepEqual(
        r.per_camera.map((c) => c.camera),
        ['front', 'rear'].slice(0, r.n),
        at,
      );
      for (const c of r.per_camera) {
        assert.ok(c.processed > 0, `${at}: ${c.camera} got no results`);
        assert.ok(c.sent >= c.processed, `${at}: ${c.camera} ${c.processed} of ${c.sent}`);
        assert.ok(c.latency_ms_p95 >= c.latency_ms_p50, at);
      }
      assert.ok(r.cpu_ms_per_camera_frame > 0, at);
      assert.ok(r.rss_end_mb > 50 && r.rss_loaded_mb > 50, at);
      assert.ok(Number.isFinite(r.native_mb) && r.native_mb > 0, `${at}: native ${r.native_mb}`);
    }
    assert.ok(fs.statSync(png).size > 1000, 'the chart');
  });
});
