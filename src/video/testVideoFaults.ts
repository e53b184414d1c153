/**
 * The tests' way to make the video encoder fail mid-stream (a board's encoder that stops
 * answering): a process started with HTP_PERCEPTION_TEST_VIDEO_FAULTS set to a JSON plan opens
 * every encoder with its failAfterFrames, and the addon honours it only while that variable is
 * set (native/video/src/fault_switch.h). Nothing else sets it; a plan that does not parse is an
 * error at the first encoder, not a test of nothing.
 *
 *   {"failAfterFrames": 15}   every encoder fails its 16th picture and those after it
 */
import { z } from 'zod';
import { ConfigError, formatZodIssues } from '../core/configError';

export const TEST_VIDEO_FAULTS_VARIABLE = 'HTP_PERCEPTION_TEST_VIDEO_FAULTS';

const planSchema = z.object({ failAfterFrames: z.number().int().min(0) }).strict();

export type TestVideoFaultPlan = z.infer<typeof planSchema>;

/** The plan of this process's environment, or undefined when the variable is not set. */
export function environmentTestVideoFaults(
  env: NodeJS.ProcessEnv = process.env,
): TestVideoFaultPlan | undefined {
  const value = env[TEST_VIDEO_FAULTS_VARIABLE];
  if (value === undefined || value === '') return undefined;
  let json: unknown;
  try {
    json = JSON.parse(value);
  } catch (e) {
    throw new ConfigError(`${TEST_VIDEO_FAULTS_VARIABLE} is not JSON: ${(e as Error).message}`);
  }
  const r = planSchema.safeParse(json);
  if (!r.success)
    throw new ConfigError(`${TEST_VIDEO_FAULTS_VARIABLE}: ${formatZodIssues(r.error)}`);
  return r.data;
}
