import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { repoPath } from './paths';

/** The tools venv of bootstrap step 25: onnx, onnxruntime, numpy, OpenCV (independent references). */
export const TOOLS_PYTHON = repoPath('.cache', 'tools-venv', 'bin', 'python');

/** Runs a script with the tools venv's Python (stdin `input`), returns its stdout; throws on failure. */
export function runToolsPython(args: readonly string[], input?: string): string {
  if (!fs.existsSync(TOOLS_PYTHON)) {
    throw new Error(`${TOOLS_PYTHON} missing: run 'bash scripts/bootstrap.sh 25-pytools'`);
  }
  const r = spawnSync(TOOLS_PYTHON, args, { input, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`${args[0]} failed (${String(r.status)}): ${r.stderr}`);
  return r.stdout;
}
