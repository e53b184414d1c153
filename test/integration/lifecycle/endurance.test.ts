import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { DetectionsMsg, RosClient } from '../../support/rosClient';
import { RunningProcess, startNode, startPhotoSource } from '../../support/rosProcess';
import { photoDirWith } from '../../support/photos';

const CYCLES = 50;

/** Resident set size (kB) and open file descriptors of a process, from /proc. */
function footprint(pid: number): { rssKb: number; fds: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
  return { rssKb, fds: fs.readdirSync(`/proc/${pid}/fd`).length };
}

describe('managed perception node: endurance of the lifecycle', function () {
  this.timeout(900_000);
  const procs: RunningProcess[] = [];
  let client: RosClient;
  let photoDir: string;

  before(async () => {
    photoDir = photoDirWith('person.jpg');
    client = await RosClient.start();
  });
  after(async () => {
    await Promise.all(procs.splice(0).map((p) => p.stop()));
    await client.close();
    fs.rmSync(photoDir, { recursive: true, force: true });
  });

  it(`${CYCLES} configure / activate / deactivate / cleanup cycles with frames flowing: RSS and fds do not grow by more than 5 % after the first`, async function () {
    const node = startNode('perceptionNode', 'en_it', ['autostart:=false', 'threads:=2']);
    procs.push(node);
    procs.push(startPhotoSource('en_src', photoDir, 10));
    await client.watch('/en_it/detections', 'detections');
    const pid = node.child.pid!;
    const samples: { rssKb: number; fds: number }[] = [];
    for (let i = 0; i < CYCLES; i++) {
      assert.equal(await client.changeState('en_it', 'configure'), true, `configure ${i}`);
      assert.equal(await client.changeState('en_it', 'activate'), true, `activate ${i}`);
      const got = await client.take<DetectionsMsg>('/en_it/detections', 1, 30);
      assert.ok(got.length >= 1, `cycle ${i}: no detections while active`);
      assert.equal(await client.changeState('en_it', 'deactivate'), true, `deactivate ${i}`);
      assert.equal(await client.changeState('en_it', 'cleanup'), true, `cleanup ${i}`);
      await client.clear('/en_it/detections');
      samples.push(footprint(pid));
    }
    const first = samples[0]!;
    const last = samples.at(-1)!;
    const maxRss = Math.max(...samples.map((s) => s.rssKb));
    console.log(
      `      after cycle 1: RSS ${(first.rssKb / 1024).toFixed(1)} MB, ${first.fds} fds; after cycle ${CYCLES}: RSS ${(last.rssKb / 1024).toFixed(1)} MB (max ${(maxRss / 1024).toFixed(1)}), ${last.fds} fds`,
    );
    assert.ok(last.rssKb <= first.rssKb * 1.05, `RSS grew ${first.rssKb} -> ${last.rssKb} kB`);
    assert.ok(last.fds <= first.fds * 1.05, `fds grew ${first.fds} -> ${last.fds}`);
    assert.doesNotMatch(node.stdout() + node.stderr(), /\[(WARN|ERROR)\]/);
  });
});
