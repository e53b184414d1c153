import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { NODE_STAGES } from '../../src/e2eRows';
import { repoPath } from '../../../test/support/paths';
import { privateDomainId, startProcess } from '../../../test/support/rosProcess';

const REQUIRED = [
  'resolution',
  'precision',
  'e2e_ms_p50',
  'engine_ms_p50',
  'overhead_ms_p50',
  'overhead_ratio',
  'ultralytics_pt_ms_p50',
  'ultralytics_onnx_ms_p50',
  'floor_ms_p50',
  'overhead_above_floor_ms_p50',
  'node_stages_ms_p50',
  'node_cpu_ms_per_frame',
  'floor_cpu_ms_per_frame',
] as const;

/** In the benchmark's row order: precision, then resolution. */
const SMOKE_ROWS = [
  '640x480:fp32',
  '1280x720:int8',
  '640x480:htp-standin',
  '640x480:htp-standin-container',
];

describe('npm run bench:e2e (smoke: a few frames, Ultralytics skipped)', function () {
  // Real processes: camera stand-in, the floor probe, the node per row (FP32, INT8, the HTP
  // stand-in, a container of three stand-in pipelines), this receiver; on 2 shared cores.
  this.timeout(600_000);
  let dir: string;
  before(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-bench-test-'))));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('measures every resolution and precision over DDS and writes consistent JSON rows', async function () {
    const json = path.join(dir, 'e2e.json');
    // No warm-up frames: the node's stage window then holds exactly the paced frames, so each
    // frame's e2e latency contains its own inference and the medians must keep that order.
    const p = startProcess(
      'node',
      [
        repoPath('dist', 'bench', 'src', 'e2eBench.js'),
        '--frames',
        '4',
        '--warmup',
        '0',
        '--seconds',
        '2',
        '--skip-ultralytics',
        // Each precision once and both resolutions (the floor is measured per resolution): the
        // full grid of seven rows is the benchmark's own run, not the lane's.
        '--rows',
        SMOKE_ROWS.join(','),
        '--json',
        json,
      ],
      { HTP_BENCH_DOMAIN_ID: privateDomainId() },
    );
    const code = await p.exited();
    assert.equal(code, 0, `bench failed:\n${p.stdout()}\n${p.stderr()}`);
    assert.match(p.stdout(), /overhead p50 ms/);
    assert.match(p.stdout(), /node stages, p50 ms/);
    const rows = JSON.parse(fs.readFileSync(json, 'utf8')) as Record<string, unknown>[];
    assert.deepEqual(
      rows.map((r) => `${String(r.resolution)}:${String(r.precision)}`),
      SMOKE_ROWS,
    );
    for (const r of rows) {
      const at = `${String(r.resolution)} ${String(r.precision)}`;
      for (const k of REQUIRED) assert.ok(k in r, `${at}: no ${k}`);
      assert.equal(r.ultralytics_pt_ms_p50, null, `${at}: Ultralytics was skipped`);
      assert.equal('ultralytics_ms_p50' in r, at === '640x480 fp32', at);
      const n = (k: string): number => {
        const v = r[k];
        assert.ok(typeof v === 'number' && Number.isFinite(v), `${at}: ${k} = ${String(v)}`);
        return v;
      };
      const standin = String(r.precision).startsWith('htp-standin');
      assert.ok(n('engine_ms_p50') > 0, at);
      // Same frames on both sides unless one was lost on the way (best-effort camera input).
      if (n('paced_lost') === 0) {
        assert.ok(n('e2e_ms_p50') >= n('engine_ms_p50'), `${at}: e2e below inference`);
      }
      assert.ok(n('e2e_ms_p95') >= n('e2e_ms_p50'), at);
      assert.ok(Math.abs(n('overhead_ms_p50') - (n('e2e_ms_p50') - n('engine_ms_p50'))) <= 0.011);
      if (!standin) {
        assert.ok(
          Math.abs(n('overhead_ratio') - n('overhead_ms_p50') / n('engine_ms_p50')) <= 0.011,
          at,
        );
      }
      // The floor: a bare node's way in and out at this resolution, measured in this run.
      assert.ok(n('floor_ms_p50') > 0, at);
      assert.ok(
        Math.abs(n('overhead_above_floor_ms_p50') - (n('overhead_ms_p50') - n('floor_ms_p50'))) <=
          0.011,
        at,
      );
      // The node's own span holds its preprocessing and inference on every frame, so its median
      // is at least theirs (same frames, the node's window). Against e2e_ms_p50 no such bound
      // holds: that median is the receiver's over the paced frames only, while the node's window
      // also holds the warm-up frames, slower before V8 has compiled the per-frame code.
      const stages = r.stages_ms_p50 as Record<string, number>;
      assert.ok(n('node_stages_ms_p50') > 0, at);
      assert.ok(
        n('node_stages_ms_p50') >= (stages.preprocess ?? Infinity),
        `${at}: span < preprocess`,
      );
      assert.ok(
        n('node_stages_ms_p50') >= (stages.inference ?? Infinity),
        `${at}: span < inference`,
      );
      assert.ok(n('node_cpu_ms_per_frame') > 0, at);
      // Both CPU figures split by thread: the main thread is always among them.
      const byThread = (k: string): Record<string, number> => r[k] as Record<string, number>;
      assert.ok(byThread('node_cpu_ms_per_frame_by_thread').main! > 0, at);
      assert.ok(byThread('floor_cpu_ms_per_frame_by_thread').main! > 0, at);
      assert.ok(n('floor_cpu_ms_per_frame') > 0, at);
      // Both readings start a third into the 2 s phase (the warm-up's cap) and end after it.
      for (const k of ['node_cpu_window_s', 'floor_cpu_window_s']) {
        const [from, to] = r[k] as [number, number];
        assert.ok(Math.abs(from - 2 / 3) < 0.2 && to > from + 1, `${at}: ${k} ${from}-${to}`);
      }
      if (standin) {
        // The stand-in computes nothing: its inference is a small fraction of a real model's.
        assert.ok(n('engine_ms_p50') < 5, `${at}: stand-in inference ${n('engine_ms_p50')} ms`);
      }
      assert.ok(n('fps_30hz') > 0, `${at}: nothing detected at 30 Hz`);
      assert.ok(n('paced_frames') + n('paced_lost') === 4, at);
      for (const s of NODE_STAGES) {
        assert.ok(Number.isFinite(stages[s]), `${at}: stage ${s}`);
        // dds_in subtracts two clocks' readings; every other stage is one clock's difference.
        if (s !== 'dds_in') assert.ok(stages[s]! >= 0, `${at}: stage ${s} = ${stages[s]}`);
      }
      assert.equal(stages.inference, r.engine_ms_p50, at);
    }
  });
});
