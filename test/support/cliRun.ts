import { spawnSync } from 'node:child_process';
import { repoPath } from './paths';

/** The built `htp-perception` entry point. */
export const CLI_MAIN = repoPath('dist', 'src', 'cli', 'main.js');

export interface CliRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `htp-perception args...` to completion in a child node process. */
export function runCli(
  args: readonly string[],
  opts: { timeoutMs?: number; env?: NodeJS.ProcessEnv } = {},
): CliRun {
  const r = spawnSync(process.execPath, [CLI_MAIN, ...args], {
    encoding: 'utf8',
    env: opts.env ?? process.env,
    timeout: opts.timeoutMs ?? 60_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** stderr lines other than the QNN libraries' chatter ("# LIBNATIVE: ..."). */
export function errorLines(r: CliRun): string[] {
  return r.stderr.split('\n').filter((l) => l.length > 0 && !/LIBNATIVE/.test(l));
}
