/**
 * The tests' fault switch (native/src/faults/fault_plan.h): a process started with
 * HTP_PERCEPTION_TEST_FAULTS set to a JSON plan makes the addon fail or hang chosen runs and fail
 * chosen session creations, the way a QCS6490 does when its DSP restarts. Nothing else sets it;
 * a plan that does not parse stops the process at the first engine use rather than testing
 * nothing.
 *
 *   {"model": "yolo11n", "failRuns": [5, 7], "hangRuns": [12, 12], "hangMs": 4000,
 *    "failLoads": [2, 2]}
 *
 * Runs and loads are counted from 1 over the sessions whose model path contains `model` (every
 * session without it); each region of a top-down model's frame is one run.
 */
import { z } from 'zod';
import { EngineError } from '../core/engineError';
import { formatZodIssues } from '../core/configError';

export const TEST_FAULTS_VARIABLE = 'HTP_PERCEPTION_TEST_FAULTS';

const range = z
  .tuple([z.number().int().min(1), z.number().int().min(1)])
  .refine(([first, last]) => first <= last, 'first must not be after last');

const planSchema = z
  .object({
    model: z.string().min(1).optional(),
    failRuns: range.optional(),
    hangRuns: range.optional(),
    hangMs: z.number().int().min(1).max(600_000).optional(),
    failLoads: range.optional(),
  })
  .strict()
  .refine((p) => (p.hangRuns === undefined) === (p.hangMs === undefined), {
    message: 'hangRuns and hangMs go together',
  });

export type TestFaultPlan = z.infer<typeof planSchema>;

/** What the addon counted for the plan's sessions since it was set. */
export interface FaultCounts {
  readonly runs: number;
  readonly loads: number;
}

/** The plan in `value` (the variable's text); throws EngineError ERR_INVALID_OPTIONS. */
export function parseTestFaultPlan(value: string): TestFaultPlan {
  let json: unknown;
  try {
    json = JSON.parse(value);
  } catch (e) {
    throw new EngineError(
      'ERR_INVALID_OPTIONS',
      `${TEST_FAULTS_VARIABLE} is not JSON: ${(e as Error).message}`,
    );
  }
  const r = planSchema.safeParse(json);
  if (!r.success) {
    throw new EngineError(
      'ERR_INVALID_OPTIONS',
      `${TEST_FAULTS_VARIABLE}: ${formatZodIssues(r.error)}`,
    );
  }
  return r.data;
}

/** The plan of this process's environment, or undefined when the variable is not set. */
export function environmentTestFaultPlan(
  env: NodeJS.ProcessEnv = process.env,
): TestFaultPlan | undefined {
  const value = env[TEST_FAULTS_VARIABLE];
  return value === undefined || value === '' ? undefined : parseTestFaultPlan(value);
}
