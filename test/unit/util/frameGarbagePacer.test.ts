import { strict as assert } from 'node:assert';
import { FrameGarbagePacer } from '../../../src/util/frameGarbagePacer';

const turn = (): Promise<void> => new Promise((r) => setImmediate(r));

describe('FrameGarbagePacer', () => {
  it('collects once per budget of frame bytes, on the next turn of the event loop', async () => {
    let collected = 0;
    const pacer = new FrameGarbagePacer(1000, () => collected++);
    pacer.received(600);
    await turn();
    assert.equal(collected, 0);
    pacer.received(600);
    assert.equal(collected, 0, 'never inside the frame callback');
    await turn();
    assert.equal(collected, 1);
    // The budget starts again from zero after a collection.
    pacer.received(900);
    await turn();
    assert.equal(collected, 1);
    pacer.received(100);
    await turn();
    assert.equal(collected, 2);
    assert.equal(pacer.collections, 2);
  });

  it('schedules one collection however many frames arrive before it runs', async () => {
    let collected = 0;
    const pacer = new FrameGarbagePacer(100, () => collected++);
    for (let i = 0; i < 10; i++) pacer.received(500);
    await turn();
    assert.equal(collected, 1);
  });
});
