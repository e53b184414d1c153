import { strict as assert } from 'node:assert';
import { CameraMailboxes } from '../../../../src/nodes/perception/cameraMailboxes';

/** A clock the test moves by hand. */
function clock(): { now: () => number; at: (t: number) => void } {
  let t = 0;
  return { now: () => t, at: (v) => (t = v) };
}

describe('CameraMailboxes', () => {
  it("keeps each camera's newest frame and counts the ones it replaced, per camera", async () => {
    const c = clock();
    const m = new CameraMailboxes<string>(['front', 'rear'], c.now);
    m.post('front', 'f1');
    m.post('front', 'f2');
    m.post('rear', 'r1');
    assert.deepEqual(await m.take(), { camera: 'front', item: 'f2' });
    assert.deepEqual(await m.take(), { camera: 'rear', item: 'r1' });
    assert.equal(m.dropped('front'), 1);
    assert.equal(m.dropped('rear'), 0);
    assert.equal(m.droppedTotal, 1);
    assert.equal(m.posted('front'), 2);
  });

  it('serves the camera waiting longest first: a fast camera cannot push a slow one back', async () => {
    const c = clock();
    const m = new CameraMailboxes<string>(['fast', 'slow'], c.now);
    c.at(1);
    m.post('fast', 'a1');
    c.at(2);
    m.post('slow', 's1');
    // The fast camera replaces its frame again and again; it still waits since t = 1.
    for (let t = 3; t < 10; t++) {
      c.at(t);
      m.post('fast', `a${t}`);
    }
    assert.deepEqual(await m.take(), { camera: 'fast', item: 'a9' });
    c.at(10);
    m.post('fast', 'a10');
    // The slow camera has waited since t = 2, the fast one only since t = 10.
    assert.deepEqual(await m.take(), { camera: 'slow', item: 's1' });
    assert.deepEqual(await m.take(), { camera: 'fast', item: 'a10' });
  });

  it('under load every camera with a frame runs once per round (round robin over four cameras)', async () => {
    const c = clock();
    const cams = ['front', 'rear', 'left', 'right'];
    const m = new CameraMailboxes<number>(cams, c.now);
    const served: string[] = [];
    let t = 0;
    // Every camera posts before each run: the loop never catches up.
    for (let run = 0; run < 12; run++) {
      for (const cam of cams) {
        c.at(++t);
        m.post(cam, t);
      }
      const taken = await m.take();
      served.push(taken!.camera);
    }
    for (let round = 0; round < 3; round++) {
      assert.deepEqual([...served.slice(round * 4, round * 4 + 4)].sort(), [...cams].sort());
    }
  });

  it('hands a frame straight to an idle loop, and ends the loop on close', async () => {
    const m = new CameraMailboxes<string>(['front']);
    const waiting = m.take();
    m.post('front', 'x');
    assert.deepEqual(await waiting, { camera: 'front', item: 'x' });
    const next = m.take();
    m.close();
    assert.equal(await next, undefined);
    m.post('front', 'after');
    assert.equal(await m.take(), undefined);
  });

  it('refuses a camera it was not made with (a programming error, not a frame to drop)', () => {
    const m = new CameraMailboxes<string>(['front']);
    assert.throws(() => m.post('back', 'x'), /no camera 'back'/);
  });

  describe('takeBatch', () => {
    it('takes the waiting cameras oldest first, up to the batch, without waiting when they are all there', async () => {
      const c = clock();
      const m = new CameraMailboxes<string>(['front', 'rear', 'left'], c.now);
      c.at(1);
      m.post('rear', 'r1');
      c.at(2);
      m.post('left', 'l1');
      c.at(3);
      m.post('front', 'f1');
      const started = performance.now();
      const batch = await m.takeBatch(2, 1000);
      assert.ok(performance.now() - started < 500, 'waited although two cameras had frames');
      assert.deepEqual(
        batch.map((t) => t.item),
        ['r1', 'l1'],
      );
      // The third camera is next, with whatever the others post meanwhile.
      assert.deepEqual(
        (await m.takeBatch(2, 0)).map((t) => t.item),
        ['f1'],
      );
    });

    it('waits up to the window for other cameras, and stops waiting once the batch is full', async () => {
      const m = new CameraMailboxes<string>(['front', 'rear', 'left']);
      m.post('front', 'f1');
      const pending = m.takeBatch(3, 2000);
      setTimeout(() => m.post('rear', 'r1'), 20);
      setTimeout(() => m.post('left', 'l1'), 40);
      const started = performance.now();
      const batch = await pending;
      assert.deepEqual(batch.map((t) => t.camera).sort(), ['front', 'left', 'rear']);
      assert.ok(performance.now() - started < 1500, 'kept waiting after the batch was full');
    });

    it('runs with what came when the window passes, and a batch of one camera does not wait', async () => {
      const m = new CameraMailboxes<string>(['front', 'rear']);
      m.post('front', 'f1');
      const started = performance.now();
      const batch = await m.takeBatch(2, 60);
      const waited = performance.now() - started;
      assert.deepEqual(
        batch.map((t) => t.item),
        ['f1'],
      );
      assert.ok(waited >= 50, `returned after ${waited.toFixed(0)} ms, before the 60 ms window`);
      const single = new CameraMailboxes<string>(['only']);
      single.post('only', 'o1');
      const t0 = performance.now();
      assert.deepEqual(
        (await single.takeBatch(4, 5000)).map((t) => t.item),
        ['o1'],
      );
      assert.ok(performance.now() - t0 < 1000, 'a node of one camera waited for others');
    });

    it('closing ends a wait, and a closed mailbox gives an empty batch', async () => {
      const m = new CameraMailboxes<string>(['front', 'rear']);
      m.post('front', 'f1');
      const pending = m.takeBatch(2, 5000);
      setTimeout(() => m.close(), 10);
      const started = performance.now();
      await pending;
      assert.ok(performance.now() - started < 2000);
      assert.deepEqual(await m.takeBatch(2, 10), []);
    });
  });
});
