import { strict as assert } from 'node:assert';
import { ThrottledLog } from '../../../src/ros/throttledLog';

/** A ThrottledLog on a clock the test sets (ms), its lines collected. */
function clocked(burst?: number): { log: ThrottledLog; lines: string[]; at(ms: number): void } {
  let t = 0;
  const lines: string[] = [];
  const log = new ThrottledLog((l) => lines.push(l), { periodMs: 5000, now: () => t, burst });
  return { log, lines, at: (ms) => (t = ms) };
}

describe('ThrottledLog', () => {
  it('logs the first line of a reason at once and at most one per period, with the count', () => {
    const { log, lines, at } = clocked();
    log.report('ERR_STEP', 'bad step 1');
    for (let i = 0; i < 30; i++) {
      at((i + 1) * 100);
      log.report('ERR_STEP', `bad step ${i + 2}`);
    }
    assert.deepEqual(lines, ['bad step 1']);
    at(5000);
    log.report('ERR_STEP', 'bad step 32');
    assert.deepEqual(lines, ['bad step 1', 'bad step 32 (30 more since the last report)']);
    at(5100);
    log.report('ERR_STEP', 'bad step 33');
    assert.equal(lines.length, 2, 'a new period started at the last line');
  });

  it('throttles each reason on its own', () => {
    const { log, lines } = clocked();
    log.report('a', 'first a');
    log.report('b', 'first b');
    log.report('a', 'second a');
    assert.deepEqual(lines, ['first a', 'first b']);
  });

  it('logs up to `burst` lines of a reason per period, then counts the rest for the next line', () => {
    const { log, lines, at } = clocked(3);
    for (let i = 1; i <= 10; i++) {
      at((i - 1) * 100);
      log.report('format', `change ${i}`);
    }
    assert.deepEqual(lines, ['change 1', 'change 2', 'change 3']);
    at(5000);
    log.report('format', 'change 11');
    log.report('format', 'change 12');
    assert.deepEqual(lines.slice(3), ['change 11 (7 more since the last report)', 'change 12']);
  });
});
