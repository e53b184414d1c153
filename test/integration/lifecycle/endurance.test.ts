import { strict as assert } from 'node:assert';
import { useRosTestBed } from '../../support/rosTestBed';
import * as fs from 'node:fs';
import { DetectionsMsg } from '../../support/rosClient';
import { startNode, startPhotoSource } from '../../support/rosProcess';

const CYCLES = 50;

/** Resident set size (kB) and open file descriptors of a process, from /proc. */
function footprint(pid: number): { rssKb: number; fds: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
  return { rssKb, fds: fs.readdirSync(`/proc/${pid}/fd`).length };
}

describe('managed perception node: endurance of the lifecycle', function () {
  this.timeout(900_000);
  const bed = useRosTestBed('person.jpg');

  it(`${CYCLES} configure / activate / deactivate / cleanup cycles with frames flowing: RSS grows by at most 8 % after the first, fds by at most 5 %`, async function () {
    const node = startNode('perceptionNode', 'en_it', ['autostart:=false', 'threads:=2']);
    bed.own(node);
    bed.own(startPhotoSource('en_src', bed.photoDir, 10));
    await bed.client.watch('/en_it/detections', 'detections');
    const pid = node.child.pid!;
    const samples: { rssKb: number; fds: number }[] = [];
    for (let i = 0; i < CYCLES; i++) {
      assert.equal(await bed.client.changeState('en_it', 'configure'), true, `configure ${i}`);
      assert.equal(await bed.client.changeState('en_it', 'activate'), true, `activate ${i}`);
      const got = await bed.client.take<DetectionsMsg>('/en_it/detections', 1, 30);
      assert.ok(got.length >= 1, `cycle ${i}: no detections while active`);
      assert.equal(await bed.client.changeState('en_it', 'deactivate'), true, `deactivate ${i}`);
      assert.equal(await bed.client.changeState('en_it', 'cleanup'), true, `cleanup ${i}`);
      await bed.client.clear('/en_it/detections');
      samples.push(footprint(pid));
    }
    // Warm-up (allocator arenas, JIT code, V8 heap sizing) takes about five cycles; a leak shows
    // as a trend after it. Medians over ten cycles each, so one collection more or less in a
    // window cannot decide.
    const mb = (kb: number): string => (kb / 1024).toFixed(1);
    const median = (a: number[]): number => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)]!;
    const early = median(samples.slice(5, 15).map((s) => s.rssKb));
    const late = median(samples.slice(CYCLES - 10).map((s) => s.rssKb));
    const first = samples[0]!;
    const last = samples.at(-1)!;
    console.log(`      RSS after each cleanup (MB): ${samples.map((s) => mb(s.rssKb)).join(' ')}`);
    console.log(
      `      after cycle 1: ${mb(first.rssKb)} MB, ${first.fds} fds; median cycles 6-15: ${mb(early)} MB; median cycles ${CYCLES - 9}-${CYCLES}: ${mb(late)} MB (${(((late - early) / early) * 100).toFixed(1)} %); after cycle ${CYCLES}: ${last.fds} fds`,
    );
    // 8 %: the same code measured +2.1 % (CI), +4.4 % (a loaded machine), +5.6 % (a clean
    // clone) and +4.9 % (beside a two-core CPU hog, 2026-12-02): steps of ~5 MB at random
    // cycles, new high-water marks of glibc's heap as in the hour-long soak, not a trend. The
    // leak this guards against (the allocator tuning off,
    // bench/results/2026-11-27-malloc-tuning-and-take-window.md) grew +17.4 %: not a timing
    // bound, and 3x the worst growth (17 %) would let that leak pass, so the bound sits between.
    assert.ok(late <= early * 1.08, `RSS grew ${mb(early)} -> ${mb(late)} MB`);
    // A leak grows the count for good; a descriptor DDS or libuv holds for a moment at one sample
    // (CI on 2026-11-27: 44 everywhere, 47 once at cycle 46) is not one. Medians, as for RSS.
    const lateFds = median(samples.slice(CYCLES - 10).map((s) => s.fds));
    assert.ok(lateFds <= first.fds * 1.05, `fds: ${samples.map((s) => s.fds).join(' ')}`);
    assert.doesNotMatch(node.stdout() + node.stderr(), /\[(WARN|ERROR)\]/);
  });
});
