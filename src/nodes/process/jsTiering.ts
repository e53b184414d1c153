import * as v8 from 'node:v8';

/**
 * V8's interrupt budget (bytes of bytecode run between tier-up checks) for perception processes.
 * Their per-frame code (intake, head, tracking, message building) runs once per camera frame: at
 * 30 Hz, V8's default budget (66 KB) left much of it in the interpreter and baseline tiers for
 * minutes. With 8 KB, two stand-in nodes on one camera (one with, one without) measured 6-10 %
 * less CPU per frame after 8 s of frames and 7-8 % after 90 s; 2 KB was no better within noise.
 */
export const PERCEPTION_INTERRUPT_BUDGET = 8192;

/**
 * Lowers the interrupt budget for this process, unless the user chose one (`--interrupt-budget`
 * in the node's flags or NODE_OPTIONS) or asked for V8's default with HTP_JS_TIERING=default.
 * Returns the budget applied, or undefined.
 */
export function tierUpPerFrameCodeSooner(): number | undefined {
  const chosen = [...process.execArgv, process.env.NODE_OPTIONS ?? ''].some((a) =>
    a.includes('--interrupt-budget'),
  );
  if (chosen || process.env.HTP_JS_TIERING === 'default') return undefined;
  v8.setFlagsFromString(`--interrupt-budget=${PERCEPTION_INTERRUPT_BUDGET}`);
  return PERCEPTION_INTERRUPT_BUDGET;
}
