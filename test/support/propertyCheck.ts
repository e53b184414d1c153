/**
 * One way to run a fast-check property in the unit suite: a fixed seed by default so a run
 * repeats exactly, FUZZ_MIN_RUNS cases unless the test says otherwise, and on failure a message
 * that says how to replay the failing case alone.
 *
 *   HTP_PERCEPTION_FUZZ_SEED=<int> | random   seed of every property (default FUZZ_DEFAULT_SEED)
 *   HTP_PERCEPTION_FUZZ_PATH=<path>            replay one shrunk case (fast-check's "path")
 *   HTP_PERCEPTION_FUZZ_RUNS=<int>             cases per property where that is more than the
 *                                              test's count (a long hunt); never fewer: an
 *                                              inherited small value must not thin a run out
 */
import * as fc from 'fast-check';

export const FUZZ_SEED_VAR = 'HTP_PERCEPTION_FUZZ_SEED';
export const FUZZ_PATH_VAR = 'HTP_PERCEPTION_FUZZ_PATH';
export const FUZZ_RUNS_VAR = 'HTP_PERCEPTION_FUZZ_RUNS';
export const FUZZ_DEFAULT_SEED = 20261127;
/**
 * What issues 35 and 40 ask per run of the unit suite of every decoder's hostile-input property
 * and every parameter table's, whatever the environment.
 */
export const FUZZ_MIN_RUNS = 10_000;
/**
 * Cases of a decoder's other properties (valid round trips, one wrong field): each decoder has its
 * 10,000 hostile cases already, and the unit suite has to stay quick on 2 cores.
 */
export const FUZZ_SIDE_RUNS = 2_000;

let randomSeed: number | undefined;

function seedFromEnv(): number {
  const raw = process.env[FUZZ_SEED_VAR];
  if (raw === undefined || raw === '') return FUZZ_DEFAULT_SEED;
  if (raw === 'random') {
    // One seed per process, so every property of a run can be replayed with the printed value.
    randomSeed ??= (Math.random() * 0x7fffffff) | 0;
    return randomSeed;
  }
  const seed = Number(raw);
  if (!Number.isSafeInteger(seed)) {
    throw new Error(`${FUZZ_SEED_VAR}=${raw}: expected an integer or "random"`);
  }
  return seed;
}

/** The test's count, or FUZZ_RUNS_VAR where that asks for more (it only ever raises it). */
export function runsFromEnv(runs: number): number {
  const raw = process.env[FUZZ_RUNS_VAR];
  if (raw === undefined || raw === '') return runs;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < 1) {
    throw new Error(`${FUZZ_RUNS_VAR}=${raw}: expected a positive integer`);
  }
  return Math.max(runs, n);
}

/**
 * Runs `property` for `runs` cases (FUZZ_MIN_RUNS unless said) and throws, naming the seed and the
 * replay path, when a case fails. Returns the seed and case count for the test to report.
 */
export function propertyCheck<Ts extends [unknown, ...unknown[]]>(
  property: fc.IProperty<Ts>,
  runs = FUZZ_MIN_RUNS,
): { seed: number; runs: number } {
  const seed = seedFromEnv();
  const numRuns = runsFromEnv(runs);
  // Capturing stacks is half the cost of a refusal (zod's error and ours): cases run without them,
  // a replay (FUZZ_PATH_VAR set) keeps them for the one case it runs.
  const limit = Error.stackTraceLimit;
  if (!process.env[FUZZ_PATH_VAR]) Error.stackTraceLimit = 0;
  let details: fc.RunDetails<Ts>;
  try {
    details = fc.check(property, parameters(seed, numRuns));
  } finally {
    Error.stackTraceLimit = limit;
  }
  return failed(details, seed, numRuns);
}

/** propertyCheck for an asynchronous property (one that awaits the addon, for instance). */
export async function propertyCheckAsync<Ts extends [unknown, ...unknown[]]>(
  property: fc.IAsyncProperty<Ts>,
  runs = FUZZ_MIN_RUNS,
): Promise<{ seed: number; runs: number }> {
  const seed = seedFromEnv();
  const numRuns = runsFromEnv(runs);
  return failed(await fc.check(property, parameters(seed, numRuns)), seed, numRuns);
}

function parameters(
  seed: number,
  numRuns: number,
): { seed: number; numRuns: number; path?: string } {
  const path = process.env[FUZZ_PATH_VAR] || undefined;
  return path === undefined ? { seed, numRuns } : { seed, numRuns, path };
}

function failed<Ts>(
  details: fc.RunDetails<Ts>,
  seed: number,
  numRuns: number,
): { seed: number; runs: number } {
  if (details.failed) {
    const report = fc.defaultReportMessage(details) ?? 'property failed';
    const cause = details.errorInstance;
    const why = cause instanceof Error ? (cause.stack ?? cause.message) : String(cause);
    throw new Error(
      `${report}\nGot: ${why}\nReplay: ${FUZZ_SEED_VAR}=${seed}` +
        (details.counterexamplePath ? ` ${FUZZ_PATH_VAR}=${details.counterexamplePath}` : ''),
    );
  }
  return { seed, runs: numRuns };
}
