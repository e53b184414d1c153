import { strict as assert } from 'node:assert';
import { ChildProcess, spawn } from 'node:child_process';
import { FRAME_NODE_FLAGS, FRAME_NODE_MODULES } from '../../src/nodes/process/frameNodeFlags';
import { repoPath } from './paths';

/** A private DDS domain per test run, so parallel runs and stray nodes never cross-talk. */
export function privateDomainId(): string {
  return String(100 + (process.pid % 100));
}

export interface RunningProcess {
  readonly child: ChildProcess;
  stdout(): string;
  stderr(): string;
  waitFor(pattern: RegExp, timeoutMs: number): Promise<RegExpMatchArray>;
  exited(): Promise<number | null>;
  stop(): Promise<void>;
}

/** Starts a process in the ROS environment of the test run (tests run under scripts/with-env.sh). */
export function startProcess(
  command: string,
  args: string[],
  env: Record<string, string> = {},
): RunningProcess {
  const child = spawn(command, args, {
    cwd: repoPath(),
    env: {
      ...process.env,
      ROS_DOMAIN_ID: privateDomainId(),
      ROS_AUTOMATIC_DISCOVERY_RANGE: 'LOCALHOST',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  const listeners = new Set<() => void>();
  child.stdout?.on('data', (d: Buffer) => {
    out += d.toString();
    listeners.forEach((l) => l());
  });
  child.stderr?.on('data', (d: Buffer) => {
    err += d.toString();
    listeners.forEach((l) => l());
  });
  // A process ended by a signal has no exit code; say which signal in its stderr, so a failing
  // assertion on the exit code shows why.
  const exit = new Promise<number | null>((resolve) =>
    child.on('exit', (code, signal) => {
      if (signal) err += `\n[process ended by ${signal}]`;
      resolve(code);
    }),
  );
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    exited: () => exit,
    waitFor(pattern, timeoutMs) {
      return new Promise((resolve, reject) => {
        const check = (): void => {
          const m = (out + err).match(pattern);
          if (m) {
            cleanup();
            resolve(m);
          }
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(
            new Error(
              `timed out after ${timeoutMs} ms waiting for ${pattern} from ${command} ${args.join(' ')}\nstdout: ${out}\nstderr: ${err}`,
            ),
          );
        }, timeoutMs);
        const cleanup = (): void => {
          clearTimeout(timer);
          listeners.delete(check);
        };
        listeners.add(check);
        void exit.then(() => setTimeout(check, 0));
        check();
      });
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGINT');
        const t = setTimeout(() => child.kill('SIGKILL'), 5000);
        await exit;
        clearTimeout(t);
      }
    },
  };
}

export function nodeScript(relativeJs: string): string {
  return repoPath('dist', relativeJs);
}

/** The JSON object a peer script printed as its summary: its last stdout line starting with '{'. */
export function jsonSummary<T>(p: RunningProcess): T {
  const lines = p
    .stdout()
    .split('\n')
    .filter((l) => l.startsWith('{'));
  return JSON.parse(lines[lines.length - 1] ?? '{}') as T;
}

/**
 * The command line that starts one of our node modules as its installed launcher does:
 * `node [FRAME_NODE_FLAGS] dist/src/nodes/<module>.js` (after 'node').
 */
export function nodeCommand(module: string): string[] {
  return [
    ...(FRAME_NODE_MODULES.has(module) ? FRAME_NODE_FLAGS : []),
    nodeScript(`src/nodes/${module}.js`),
  ];
}

/**
 * Starts one of our node executables as its own process, as its installed launcher does:
 * nodeCommand(module), then `--ros-args -r __node:=<name> -p k:=v ...`.
 */
export function startNode(
  module: string,
  name: string,
  params: readonly string[] = [],
  extra: readonly string[] = [],
): RunningProcess {
  return startProcess('node', [
    ...nodeCommand(module),
    '--ros-args',
    '-r',
    `__node:=${name}`,
    ...extra,
    ...params.flatMap((p) => ['-p', p]),
  ]);
}

/** image_source publishing the photos of `directory` as a camera stream. */
export function startPhotoSource(
  name: string,
  directory: string,
  rateHz: number,
  frameId?: string,
): RunningProcess {
  return startNode('imageSourceNode', name, [
    `directory:=${directory}`,
    `rate_hz:=${rateHz.toFixed(1)}`,
    ...(frameId ? [`frame_id:=${frameId}`] : []),
  ]);
}

/**
 * Runs one of test/support's probe scripts (compiled into dist/test/support) to its end: it must
 * exit 0 and print one JSON line, which is returned.
 */
export async function runJsonProbe<T>(
  script: string,
  args: string[] = [],
  env: Record<string, string> = {},
): Promise<T> {
  const p = startProcess('node', [repoPath('dist', 'test', 'support', script), ...args], env);
  const code = await p.exited();
  assert.equal(code, 0, p.stderr());
  return JSON.parse(p.stdout().trim()) as T;
}
