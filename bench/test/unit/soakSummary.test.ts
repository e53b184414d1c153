import { strict as assert } from 'node:assert';
import { SoakSample, summarizeSoak } from '../../src/soakSummary';

const at = (t: number, rss: number): SoakSample => ({
  t_s: t,
  rss_mb: rss,
  cpu_percent: 150,
  detections_per_s: 5,
});

describe('summarizeSoak', () => {
  it('measures growth from the minute after warm-up to the last minute, by medians', () => {
    // 10 minutes, 1 Hz: 300 MB flat after a 60 s warm-up, then a ramp to 330 MB in the last minute.
    const samples: SoakSample[] = [];
    for (let t = 1; t <= 600; t++) {
      const rss = t < 60 ? 200 + t : t < 540 ? 300 : 300 + (t - 540) / 2;
      samples.push(at(t, rss));
    }
    const s = summarizeSoak(samples, 60);
    assert.equal(s.rss_mb_after_warmup, 300);
    assert.equal(s.rss_mb_after_1min, 300);
    assert.equal(s.rss_mb_end, 315);
    assert.equal(s.rss_mb_peak, 330);
    assert.equal(s.growth_pct, 5);
    assert.equal(s.detections_per_s_median, 5);
    assert.equal(s.cpu_percent_median, 150);
  });

  it('ignores a single spike (one collection late) in a window', () => {
    const samples = Array.from({ length: 300 }, (_, i) => at(i + 1, i === 200 ? 500 : 250));
    const s = summarizeSoak(samples, 60);
    assert.equal(s.growth_pct, 0);
    assert.equal(s.rss_mb_peak, 500);
  });

  it('shrinks the windows to fit a short run', () => {
    const samples = Array.from({ length: 30 }, (_, i) => at(i + 1, i < 20 ? 100 : 110));
    const s = summarizeSoak(samples, 10);
    // Windows of (30 - 10) / 2 = 10 s: [10, 20) at 100 MB, the last 10 s at 110 MB.
    assert.equal(s.rss_mb_after_warmup, 100);
    assert.equal(s.rss_mb_end, 110);
    assert.equal(s.growth_pct, 10);
  });

  it('refuses an empty run', () => {
    assert.throws(() => summarizeSoak([], 60), /no samples/);
  });
});
