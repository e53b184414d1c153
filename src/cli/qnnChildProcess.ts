import { spawnSync } from 'node:child_process';

/**
 * Work that loads the QNN libraries runs in a child node process: they print to the process's
 * stdout on load (which would corrupt `--json`), and a provider that crashes must end the child,
 * not the command. The child writes its answer as one line `<mark><JSON>`.
 */
export type ChildAnswer = { ok: true; value: unknown } | { ok: false; death: string };

export function runMarkedChild(
  script: string,
  args: readonly string[],
  mark: string,
  timeoutMs?: number,
): ChildAnswer {
  const r = spawnSync(process.execPath, [script, ...args], {
    encoding: 'utf8',
    env: process.env,
    maxBuffer: 16 << 20,
    ...(timeoutMs !== undefined ? { timeout: timeoutMs } : {}),
  });
  const line = r.stdout
    ?.split('\n')
    .reverse()
    .find((l) => l.startsWith(mark));
  if (line !== undefined) return { ok: true, value: JSON.parse(line.slice(mark.length)) };
  const how = r.error
    ? r.error.message
    : r.signal
      ? `signal ${r.signal}`
      : `exit code ${String(r.status)}`;
  const last = (r.stderr ?? '').trim().split('\n').pop() ?? '';
  return { ok: false, death: `${how}${last ? `: ${last}` : ''}` };
}

/** The child's side: `value` as the one line `<mark><JSON>` that runMarkedChild looks for. */
export function printMarked(mark: string, value: unknown): void {
  process.stdout.write(`\n${mark}${JSON.stringify(value)}\n`);
}
