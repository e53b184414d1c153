import { strict as assert } from 'node:assert';
import { BadInputWarnings } from '../../../src/ros/badInputWarnings';

describe('BadInputWarnings', () => {
  it('logs the first bad message at once, then one line per period counting every reason since', () => {
    let t = 0;
    const lines: string[] = [];
    const w = new BadInputWarnings(
      (l) => lines.push(l),
      5000,
      () => t,
    );
    w.report('TRUNCATED', 'cut 1');
    for (let i = 0; i < 30; i++) {
      t += 100;
      w.report(i % 3 === 0 ? 'BAD_STRING' : 'TRUNCATED', `bad ${i}`);
    }
    assert.deepEqual(lines, ['cut 1'], 'other reasons wait for the period too');
    // Counted from the line before, in the order they first came since.
    t = 5000;
    w.report('ZERO_SIZE', 'zero');
    assert.deepEqual(lines, [
      'cut 1',
      'zero (31 bad since the last report: BAD_STRING 10, TRUNCATED 20, ZERO_SIZE 1)',
    ]);
    t = 9999;
    w.report('TRUNCATED', 'cut 2');
    assert.equal(lines.length, 2, 'a new period started at the last line');
    t = 10_000;
    w.report('TRUNCATED', 'cut 3');
    assert.equal(lines[2], 'cut 3 (2 bad since the last report: TRUNCATED 2)');
  });

  it('a lone bad message after a quiet period is logged as it is', () => {
    let t = 0;
    const lines: string[] = [];
    const w = new BadInputWarnings(
      (l) => lines.push(l),
      5000,
      () => t,
    );
    w.report('A', 'first');
    t = 60_000;
    w.report('B', 'second');
    assert.deepEqual(lines, ['first', 'second']);
  });
});
