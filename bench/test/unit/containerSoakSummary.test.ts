import * as assert from 'node:assert/strict';
import { frameCounts, latencyDrift, latencyWindows } from '../../src/containerSoakSummary';

describe('bench/containerSoakSummary', () => {
  const readings = [
    { t_s: 1, latency_ms: 10 },
    { t_s: 2, latency_ms: 30 },
    { t_s: 3, latency_ms: 20 },
    { t_s: 12, latency_ms: 40 },
    { t_s: 25, latency_ms: 50 },
    { t_s: 26, latency_ms: 70 },
  ];

  it('cuts readings into windows to the end of the run, an empty window kept as such', () => {
    const w = latencyWindows(readings, 10, 35);
    assert.deepEqual(
      w.map((x) => [x.from_s, x.to_s, x.messages]),
      [
        [0, 10, 3],
        [10, 20, 1],
        [20, 30, 2],
        [30, 35, 0],
      ],
    );
    assert.equal(w[0]!.p50_ms, 20);
    assert.ok(Number.isNaN(w[3]!.p50_ms));
    assert.ok(w[2]!.p95_ms >= w[2]!.p50_ms);
  });

  it('drift compares the first and last windows with messages after warm-up', () => {
    const w = latencyWindows(readings, 10, 35);
    const d = latencyDrift(w, 10);
    assert.ok(d);
    // 40 ms (10-20) -> p50 of [50, 70] in 20-30.
    assert.equal(d.p50_pct, ((w[2]!.p50_ms - 40) / 40) * 100);
    assert.equal(latencyDrift(w, 20), undefined, 'one window with messages: no drift');
  });

  it('reads the frame counters of a diagnostics status, missing keys as 0', () => {
    const c = frameCounts(
      new Map([
        ['received', '2853'],
        ['processed', '523'],
        ['dropped_stale', '2327'],
        ['errors', 'x'],
      ]),
    );
    assert.deepEqual(c, {
      received: 2853,
      processed: 523,
      published: 0,
      dropped_stale: 2327,
      dropped_engine_down: 0,
      bad_frames: 0,
      errors: 0,
    });
  });
});
