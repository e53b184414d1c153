/**
 * The property suites' case counts hold whatever the environment says (issue 40 item 4): an
 * inherited HTP_PERCEPTION_FUZZ_RUNS may ask for more cases, never fewer.
 */
import { strict as assert } from 'node:assert';
import * as fc from 'fast-check';
import {
  FUZZ_MIN_RUNS,
  FUZZ_PATH_VAR,
  FUZZ_RUNS_VAR,
  FUZZ_SIDE_RUNS,
  propertyCheck,
  runsFromEnv,
} from '../support/propertyCheck';

describe('propertyCheck: the case count', function () {
  const saved = { runs: process.env[FUZZ_RUNS_VAR], path: process.env[FUZZ_PATH_VAR] };
  const restore = (name: string, value: string | undefined) => {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  };
  beforeEach(() => delete process.env[FUZZ_PATH_VAR]);
  afterEach(() => {
    restore(FUZZ_RUNS_VAR, saved.runs);
    restore(FUZZ_PATH_VAR, saved.path);
  });

  /** Cases the property really ran, and what propertyCheck says it ran. */
  const ran = (runs?: number): { cases: number; reported: number } => {
    let cases = 0;
    const property = fc.property(fc.integer(), () => {
      cases++;
    });
    const reported = (runs === undefined ? propertyCheck(property) : propertyCheck(property, runs))
      .runs;
    return { cases, reported };
  };

  it(`runs ${FUZZ_MIN_RUNS} cases with ${FUZZ_RUNS_VAR}=5, and the test's own count below that`, function () {
    process.env[FUZZ_RUNS_VAR] = '5';
    assert.deepEqual(ran(), { cases: FUZZ_MIN_RUNS, reported: FUZZ_MIN_RUNS });
    assert.deepEqual(ran(FUZZ_SIDE_RUNS), { cases: FUZZ_SIDE_RUNS, reported: FUZZ_SIDE_RUNS });
    assert.equal(runsFromEnv(FUZZ_MIN_RUNS), FUZZ_MIN_RUNS);
  });

  it(`runs more when ${FUZZ_RUNS_VAR} asks for more (a long hunt), the test's count without it`, function () {
    process.env[FUZZ_RUNS_VAR] = String(FUZZ_MIN_RUNS + 500);
    assert.deepEqual(ran(), { cases: FUZZ_MIN_RUNS + 500, reported: FUZZ_MIN_RUNS + 500 });
    assert.equal(runsFromEnv(FUZZ_SIDE_RUNS), FUZZ_MIN_RUNS + 500);
    delete process.env[FUZZ_RUNS_VAR];
    assert.equal(runsFromEnv(FUZZ_MIN_RUNS), FUZZ_MIN_RUNS);
  });

  it(`refuses a ${FUZZ_RUNS_VAR} that is not a positive integer`, function () {
    for (const bad of ['0', '-3', '1.5', 'many']) {
      process.env[FUZZ_RUNS_VAR] = bad;
      assert.throws(() => runsFromEnv(FUZZ_MIN_RUNS), {
        message: `${FUZZ_RUNS_VAR}=${bad}: expected a positive integer`,
      });
    }
  });
});
