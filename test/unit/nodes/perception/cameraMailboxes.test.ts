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
});
