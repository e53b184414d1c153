import { strict as assert } from 'node:assert';
import { scoreTracking, Sequence } from '../../../src/tracking/trackingMetrics';

const sq = (x: number) => ({ x1: x, y1: 0, x2: x + 10, y2: 10 });
const A = sq(0);
const B = sq(100);

/** `frames` frames of both objects, the output ids given per frame by `ids`. */
function twoObjects(frames: number, ids: (f: number) => [number, number]): [Sequence, Sequence] {
  const truth: Sequence = Array.from({ length: frames }, () => [
    { id: 1, box: A },
    { id: 2, box: B },
  ]);
  const out: Sequence = Array.from({ length: frames }, (_, f) => {
    const [a, b] = ids(f);
    return [
      { id: a, box: A },
      { id: b, box: B },
    ];
  });
  return [truth, out];
}

describe('tracking/trackingMetrics', () => {
  it('scores a perfect output 0 switches, IDF1 1, whatever the output ids are', () => {
    const s = scoreTracking(...twoObjects(10, () => [7, 3]));
    assert.equal(s.idSwitches, 0);
    assert.equal(s.idf1, 1);
    assert.equal(s.recall, 1);
  });

  it('counts a swap halfway as two switches and IDF1 0.5', () => {
    const s = scoreTracking(...twoObjects(10, (f) => (f < 5 ? [1, 2] : [2, 1])));
    assert.equal(s.idSwitches, 2);
    // Best one-to-one: 5 of 10 frames each; IDF1 = 2 * 10 / (20 + 20).
    assert.equal(s.idtp, 10);
    assert.equal(s.idf1, 0.5);
  });

  it('counts a new id for one object as one switch; IDF1 from the longer part', () => {
    const s = scoreTracking(...twoObjects(10, (f) => (f < 6 ? [1, 2] : [9, 2])));
    assert.equal(s.idSwitches, 1);
    assert.equal(s.idtp, 16);
    assert.equal(s.idf1, (2 * 16) / 40);
  });

  it('does not count a gap as a switch when the same id comes back', () => {
    const truth: Sequence = Array.from({ length: 10 }, () => [{ id: 1, box: A }]);
    const out: Sequence = truth.map((_, i) => (i === 3 || i === 4 ? [] : [{ id: 4, box: A }]));
    const s = scoreTracking(truth, out);
    assert.equal(s.idSwitches, 0);
    assert.equal(s.recall, 0.8);
    assert.equal(s.idf1, (2 * 8) / 18);
  });

  it('does not match boxes overlapping less than IoU 0.5, and counts false outputs', () => {
    const truth: Sequence = [[{ id: 1, box: A }]];
    // sq(4) overlaps A by 6x10: IoU 60 / 140 < 0.5.
    const s = scoreTracking(truth, [[{ id: 1, box: sq(4) }]]);
    assert.equal(s.idtp, 0);
    assert.equal(s.idf1, 0);
    assert.equal(s.recall, 0);
    assert.equal(scoreTracking(truth, [[]]).idf1, 0);
    assert.equal(scoreTracking([[], []], [[], []]).idf1, 1);
  });

  it('keeps a correspondence while it still overlaps (no switch to a closer id)', () => {
    // Output 5 follows the object; in frame 1 another output 6 sits exactly on it, 5 a bit off.
    const truth: Sequence = [[{ id: 1, box: A }], [{ id: 1, box: A }]];
    const out: Sequence = [
      [{ id: 5, box: A }],
      [
        { id: 6, box: A },
        { id: 5, box: sq(1) },
      ],
    ];
    assert.equal(scoreTracking(truth, out).idSwitches, 0);
  });

  it('refuses sequences of different lengths', () => {
    assert.throws(() => scoreTracking([[]], []), /1 ground-truth frames but 0 output frames/);
  });
});
