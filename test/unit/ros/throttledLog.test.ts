import { strict as assert } from 'node:assert';
import { ThrottledLog } from '../../../src/ros/throttledLog';

describe('ThrottledLog', () => {
  it('logs the first line of a reason at once and at most one per period, with the count', () => {
    let t = 0;
    const lines: string[] = [];
    const w = new ThrottledLog(
      (l) => lines.push(l),
      5000,
      () => t,
    );
    w.report('ERR_STEP', 'bad step 1');
    for (let i = 0; i < 30; i++) {
      t += 100;
      w.report('ERR_STEP', `bad step ${i + 2}`);
    }
    assert.deepEqual(lines, ['bad step 1']);
    t = 5000;
    w.report('ERR_STEP', 'bad step 32');
    assert.deepEqual(lines, ['bad step 1', 'bad step 32 (30 more since the last report)']);
    t = 5100;
    w.report('ERR_STEP', 'bad step 33');
    assert.equal(lines.length, 2, 'a new period started at the last line');
  });

  it('throttles each reason on its own', () => {
    const lines: string[] = [];
    const w = new ThrottledLog(
      (l) => lines.push(l),
      5000,
      () => 0,
    );
    w.report('a', 'first a');
    w.report('b', 'first b');
    w.report('a', 'second a');
    assert.deepEqual(lines, ['first a', 'first b']);
  });
});

describe('ThrottledLog with a burst', () => {
  it('logs up to `burst` lines of a reason per period, then counts the rest for the next line', () => {
    let t = 0;
    const lines: string[] = [];
    const w = new ThrottledLog(
      (l) => lines.push(l),
      5000,
      () => t,
      3,
    );
    for (let i = 1; i <= 10; i++) {
      w.report('format', `change ${i}`);
      t += 100;
    }
    assert.deepEqual(lines, ['change 1', 'change 2', 'change 3']);
    t = 5000;
    w.report('format', 'change 11');
    w.report('format', 'change 12');
    assert.deepEqual(lines.slice(3), ['change 11 (7 more since the last report)', 'change 12']);
  });
});
