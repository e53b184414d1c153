import { strict as assert } from 'node:assert';
import { camerasGrowth, camerasRow, type ConfigMeasure } from '../../src/camerasRows';

const config = (
  mode: ConfigMeasure['mode'],
  n: number,
  cpuMs: number,
  rssLoadedMb: number,
  processedEach = 100,
): ConfigMeasure => ({
  backend: 'htp-standin',
  mode,
  cameras: Array.from({ length: n }, (_, i) => ({
    camera: `c${i}`,
    sent: 150,
    processed: processedEach,
    latencyMs: [10 + i, 20 + i, 30 + i],
  })),
  phaseS: 10,
  cpuMs,
  windowS: 10,
  resultsInWindow: n * processedEach,
  rssLoadedMb,
  rssEndMb: rssLoadedMb + 5,
  nativeMb: 40,
  modelSessions: mode === 'per-camera' ? n : 1,
  framesPerRun: mode === 'batched' ? 1.8 : NaN,
});

describe('bench:cameras figures', function () {
  it('sums the cameras, drops = sent - processed, CPU per camera-frame over every camera', function () {
    // 400 processed over the 10 s phase, 250 of them in the CPU window after the warm-up.
    const r = camerasRow({ ...config('shared', 4, 1250, 300), resultsInWindow: 250 });
    assert.equal(r.n, 4);
    assert.equal(r.sent, 600);
    assert.equal(r.processed, 400);
    assert.equal(r.dropped, 200);
    assert.equal(r.processed_hz, 40);
    assert.equal(r.cpu_ms_per_camera_frame, 5);
    assert.equal(r.cpu_percent_of_one_core, 12.5);
    assert.equal(r.per_camera.length, 4);
    assert.deepEqual(
      r.per_camera.map((c) => c.dropped),
      [50, 50, 50, 50],
    );
    assert.equal(r.per_camera[3]!.latency_ms_p50, 23);
    assert.ok(r.latency_ms_p95 >= r.latency_ms_p50);
  });

  it('a camera that got nothing has no latency, not zero', function () {
    const r = camerasRow({
      ...config('shared', 1, 100, 300),
      cameras: [{ camera: 'c0', sent: 10, processed: 0, latencyMs: [] }],
      resultsInWindow: 0,
    });
    assert.ok(Number.isNaN(r.latency_ms_p50));
    assert.ok(Number.isNaN(r.cpu_ms_per_camera_frame));
  });

  it('RSS per added camera from the smallest to the largest N, CPU per camera-frame against N = 1', function () {
    const rows = [
      camerasRow(config('shared', 1, 500, 300)),
      camerasRow(config('shared', 2, 1000, 306)),
      camerasRow(config('shared', 4, 2400, 318)),
      camerasRow(config('per-camera', 1, 500, 300)),
      camerasRow(config('per-camera', 4, 2000, 420)),
    ];
    const [shared, perCamera] = camerasGrowth(rows);
    assert.equal(shared!.mode, 'shared');
    assert.equal(shared!.rss_loaded_mb_per_added_camera, 6);
    assert.deepEqual(shared!.cpu_per_camera_frame_vs_first, { 1: 1, 2: 1, 4: 1.2 });
    assert.equal(perCamera!.rss_loaded_mb_per_added_camera, 40);
    assert.deepEqual(perCamera!.cpu_per_camera_frame_vs_first, { 1: 1, 4: 1 });
  });

  it('reports frames per run for a batched node, one for the others', function () {
    assert.equal(camerasRow(config('batched', 2, 400, 300)).frames_per_run, 1.8);
    assert.equal(camerasRow(config('shared', 2, 400, 300)).frames_per_run, 1);
  });
});
