import type { StageTimings } from '../../src/core/pipelineResult';

/** Timings of a result built by hand (pure-logic tests that never ran an engine). */
export const NO_TIMINGS: StageTimings = {
  queueMs: 0,
  preprocessMs: 0,
  inferenceMs: 0,
  engineMs: 0,
  headMs: 0,
  totalMs: 0,
  runs: 1,
};
