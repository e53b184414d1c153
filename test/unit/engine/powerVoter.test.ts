import * as assert from 'node:assert/strict';
import type { VoterClock } from '../../../src/engine/powerVoter';
import { PowerVoter } from '../../../src/engine/powerVoter';
import { POWER_PROFILES } from '../../../src/core/powerProfiles';

/** A manual clock: timers fire only when the test advances time past them. */
class FakeClock implements VoterClock {
  t = 0;
  private timers = new Map<number, { at: number; fn: () => void }>();
  private next = 1;
  now(): number {
    return this.t;
  }
  setTimer(fn: () => void, ms: number): unknown {
    const id = this.next++;
    this.timers.set(id, { at: this.t + ms, fn });
    return id;
  }
  clearTimer(h: unknown): void {
    this.timers.delete(h as number);
  }
  advance(ms: number): void {
    const end = this.t + ms;
    for (;;) {
      const due = [...this.timers.entries()]
        .filter(([, v]) => v.at <= end)
        .sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      this.timers.delete(due[0]);
      this.t = due[1].at;
      due[1].fn();
    }
    this.t = end;
  }
}

function setup(hold?: number) {
  const clock = new FakeClock();
  const votes: string[] = [];
  const voter = new PowerVoter(
    POWER_PROFILES.sustained_high_performance,
    { vote: (m) => votes.push(m) },
    clock,
    hold,
  );
  return { clock, votes, voter };
}

describe('PowerVoter', () => {
  it('holds 3x the median of the last 15 gaps between runs, whatever their order', () => {
    const { clock, voter } = setup();
    voter.onRun();
    voter.onRunEnd();
    const run = (gap: number): void => {
      clock.advance(gap); // every gap below the 100 ms minimum hold: the vote is never released
      voter.onRun();
      voter.onRunEnd();
    };
    for (let i = 0; i < 5; i++) run(10);
    assert.equal(voter.stats().holdMs, 100); // 3 x 10, raised to the minimum
    for (let i = 0; i < 3; i++) for (const g of [30, 45, 90, 35, 40]) run(g);
    // The window is the last 15 gaps: 30, 35, 40, 45, 90 three times each, median 40.
    assert.equal(voter.stats().holdMs, 120);
    assert.equal(voter.holdMs(), 120); // read again
    for (let i = 0; i < 5; i++) run(20);
    // Five 20s push out the first five: 20 x5, then 30 35 40 45 90 twice, median 35.
    assert.equal(voter.holdMs(), 105);
  });

  it('keeps one vote for a whole steady 30 Hz stream (one up, one release)', () => {
    const { clock, votes, voter } = setup();
    for (let i = 0; i < 300; i++) {
      voter.onRun();
      voter.onRunEnd();
      assert.equal(voter.stats().state, 'voted');
      clock.advance(1000 / 30);
    }
    assert.deepEqual(votes, ['sustained_high_performance']);
    assert.ok(Math.abs(voter.stats().holdMs - 100) < 1e-6); // 3 x 33.3 ms
    clock.advance(1000);
    assert.deepEqual(votes, ['sustained_high_performance', 'low_power_saver']);
    const s = voter.stats();
    assert.equal(s.state, 'released');
    assert.equal(s.votesUp, 1);
    assert.equal(s.votesDown, 1);
    assert.ok(
      Math.abs(s.votedMs - (300 * 1000) / 30 - 100 + 1000 / 30) < 1e-6,
      `votedMs ${s.votedMs}`,
    );
  });

  it('sets about one timer per hold, not two per frame, and releases as soon as a hold that shrank runs out', () => {
    const { clock, voter } = setup();
    let timersSet = 0;
    const setTimer = clock.setTimer.bind(clock);
    clock.setTimer = (fn, ms) => {
      timersSet++;
      return setTimer(fn, ms);
    };
    // The first hold is 1000 ms; at 30 Hz it shrinks to 100 ms after a few frames.
    for (let i = 0; i < 300; i++) {
      voter.onRun();
      voter.onRunEnd();
      clock.advance(1000 / 30);
    }
    // 10 s of frames, hold 100 ms: one wake-up every 67-100 ms (600 timers when every run re-armed).
    assert.ok(timersSet <= 150, `${timersSet} timers set`);
    const lastEnd = clock.t - 1000 / 30;
    clock.advance(100 - 1000 / 30 - 1);
    assert.equal(voter.stats().state, 'voted');
    clock.advance(2);
    assert.equal(
      voter.stats().state,
      'released',
      `still voted ${clock.t - lastEnd} ms after the last run`,
    );
  });

  it('releases between bursts separated by gaps longer than the hold, and re-votes', () => {
    const { clock, votes, voter } = setup();
    for (let burst = 0; burst < 3; burst++) {
      for (let i = 0; i < 10; i++) {
        voter.onRun();
        voter.onRunEnd();
        clock.advance(50);
      }
      clock.advance(2000);
      assert.equal(voter.stats().state, 'released');
    }
    assert.equal(voter.stats().votesUp, 3);
    assert.equal(voter.stats().votesDown, 3);
    assert.deepEqual(votes.slice(0, 2), ['sustained_high_performance', 'low_power_saver']);
  });

  it('derives the hold from the median frame gap (3x) once frames flow', () => {
    const { clock, voter } = setup();
    for (let i = 0; i < 5; i++) {
      voter.onRun();
      voter.onRunEnd();
      clock.advance(200);
    }
    assert.equal(voter.stats().holdMs, 600);
    assert.equal(voter.stats().state, 'voted');
  });

  it('honours a fixed vote_hold_ms', () => {
    const { clock, voter } = setup(250);
    voter.onRun();
    voter.onRunEnd();
    clock.advance(240);
    assert.equal(voter.stats().state, 'voted');
    clock.advance(20);
    assert.equal(voter.stats().state, 'released');
  });

  it('never releases under a run that outlasts the hold; the hold counts from the run end', () => {
    const { clock, voter } = setup(100);
    voter.onRun();
    clock.advance(500); // a slow run: the timer fires mid-run and is re-armed
    assert.equal(voter.stats().state, 'voted');
    voter.onRunEnd();
    clock.advance(99);
    assert.equal(voter.stats().state, 'voted');
    clock.advance(2);
    assert.equal(voter.stats().state, 'released');
    assert.equal(voter.stats().votesDown, 1);
  });

  it('dispose releases the vote and ignores later runs', () => {
    const { votes, voter } = setup();
    voter.onRun();
    voter.dispose();
    assert.deepEqual(votes, ['sustained_high_performance', 'low_power_saver']);
    voter.onRun();
    assert.equal(voter.stats().state, 'disposed');
    assert.equal(votes.length, 2);
  });

  it('counts a refused vote and stays released', () => {
    const clock = new FakeClock();
    const voter = new PowerVoter(
      POWER_PROFILES.burst,
      {
        vote: () => {
          throw new Error('Unable to set HTP power configurations');
        },
      },
      clock,
    );
    voter.onRun();
    const s = voter.stats();
    assert.equal(s.state, 'released');
    assert.equal(s.voteFailures, 1);
    assert.match(s.lastError, /Unable to set HTP power/);
  });

  it('releaseNow drops the vote at once (node deactivated), never under a run, and re-votes on the next run', () => {
    const { clock, votes, voter } = setup();
    voter.onRun();
    voter.releaseNow();
    assert.equal(voter.stats().state, 'voted', 'a run is executing: the vote stays');
    voter.onRunEnd();
    clock.advance(10);
    voter.releaseNow();
    assert.equal(voter.stats().state, 'released');
    assert.deepEqual(votes, ['sustained_high_performance', 'low_power_saver']);
    clock.advance(5000);
    assert.equal(votes.length, 2, 'the cancelled hold timer does not vote again');
    voter.releaseNow();
    assert.equal(votes.length, 2, 'nothing voted: nothing to release');
    voter.onRun();
    voter.onRunEnd();
    assert.equal(voter.stats().state, 'voted');
    assert.equal(votes.length, 3);
  });

  it('releaseNow(abandoned) drops the vote under a run given up on; its late end votes nothing', () => {
    const { clock, votes, voter } = setup();
    voter.onRun();
    voter.releaseNow(true);
    assert.equal(voter.stats().state, 'released');
    assert.deepEqual(votes, ['sustained_high_performance', 'low_power_saver']);
    // The hung run returns long after: no vote goes up or down for it.
    clock.advance(30_000);
    voter.onRunEnd();
    clock.advance(5000);
    assert.equal(voter.stats().state, 'released');
    assert.equal(votes.length, 2);
  });
});
