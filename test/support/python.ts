import { spawnSync } from 'node:child_process';

/** Runs a Python script of the ROS environment with a JSON request on stdin, returns its JSON. */
export function runPythonJson<T>(script: string, request: unknown): T {
  const result = spawnSync('python3', [script], {
    input: JSON.stringify(request),
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  if (result.status !== 0) {
    throw new Error(`python3 ${script} failed (${result.status}): ${result.stderr}`);
  }
  return JSON.parse(result.stdout) as T;
}
