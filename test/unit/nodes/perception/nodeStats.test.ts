import * as assert from 'node:assert/strict';
import { NodeStats } from '../../../../src/nodes/perception/nodeStats';

describe('nodes/nodeStats', () => {
  it('percentiles by nearest rank over the last 300 samples, fresh after every new sample', () => {
    const s = new NodeStats();
    assert.ok(Number.isNaN(s.percentile('head', 50)));
    for (let i = 100; i >= 1; i--) s.sample('head', i);
    assert.equal(s.percentile('head', 50), 51);
    assert.equal(s.percentile('head', 95), 95);
    assert.equal(s.percentile('head', 0), 1);
    // A new sample after a read changes the answer (the sorted copy is not kept past it).
    s.sample('head', 1000);
    assert.equal(s.percentile('head', 100), 1000);
    assert.equal(s.percentile('head', 50), 51);
    // The window: 300 more samples of 7 push every earlier one out.
    for (let i = 0; i < 300; i++) s.sample('head', 7);
    assert.equal(s.percentile('head', 100), 7);
    // Non-finite samples are dropped; other stages are apart; clearing empties them.
    s.sample('head', Number.NaN);
    s.sample('publish', 2);
    assert.equal(s.percentile('head', 100), 7);
    assert.equal(s.percentile('publish', 50), 2);
    s.clearTimings();
    assert.ok(Number.isNaN(s.percentile('head', 50)));
    assert.ok(Number.isNaN(s.percentile('publish', 50)));
  });

  it('notes the input format: resized, re-encoded, the text and the count only on a change', () => {
    const s = new NodeStats();
    assert.equal(s.inputFormat, '');
    assert.equal(s.noteFormat(640, 480, 'rgb8'), 'first');
    assert.equal(s.noteFormat(640, 480, 'rgb8'), 'same');
    assert.equal(s.noteFormat(640, 480, 'bgr8'), 'reencoded');
    assert.equal(s.noteFormat(320, 240, 'yuyv'), 'resized');
    assert.equal(s.noteFormat(320, 240, 'yuyv'), 'same');
    assert.equal(s.inputFormat, '320x240 yuyv');
    assert.equal(s.inputFormatChanges, 2);
  });
});
