import { strict as assert } from 'node:assert';
import { LatestFrameMailbox } from '../../../../src/nodes/perception/latestFrameMailbox';

describe('LatestFrameMailbox', function () {
  it('hands a waiting consumer the frame immediately', async function () {
    const box = new LatestFrameMailbox<number>();
    const taken = box.take();
    box.post(1);
    assert.equal(await taken, 1);
    assert.equal(box.dropped, 0);
  });

  it('keeps only the newest frame and counts the ones replaced', async function () {
    const box = new LatestFrameMailbox<number>();
    for (let i = 1; i <= 5; i++) box.post(i);
    assert.equal(await box.take(), 5);
    assert.equal(box.dropped, 4);
    assert.equal(box.posted, 5);
    assert.equal(box.hasPending, false);
  });

  it('releases a waiting consumer with undefined on close and ignores later posts', async function () {
    const box = new LatestFrameMailbox<number>();
    const taken = box.take();
    box.close();
    assert.equal(await taken, undefined);
    box.post(9);
    assert.equal(await box.take(), undefined);
    assert.equal(box.posted, 0);
  });

  it('refuses a second concurrent consumer', async function () {
    const box = new LatestFrameMailbox<number>();
    void box.take();
    await assert.rejects(box.take(), /only one consumer/);
  });
});
