import { ChildProcess, spawn } from 'node:child_process';

/**
 * A child process driven by lines: commands on its stdin, one reply line each on its stdout. The
 * benchmark's camera stand-in (tools/ros/frame_publisher.py) and the perception node (whose log
 * lines we wait for) are run this way.
 */
export class LineProcess {
  private readonly child: ChildProcess;
  private buffered = '';
  private readonly lines: string[] = [];
  private output = '';
  private waiter: (() => void) | undefined;
  private exitCode: number | null | undefined;

  constructor(
    readonly label: string,
    command: string,
    args: readonly string[],
    stdin: 'pipe' | 'ignore' = 'pipe',
  ) {
    this.child = spawn(command, [...args], { stdio: [stdin, 'pipe', 'pipe'] });
    const take = (d: Buffer): void => {
      const text = d.toString();
      this.output += text;
      this.buffered += text;
      const parts = this.buffered.split('\n');
      this.buffered = parts.pop() ?? '';
      this.lines.push(...parts);
      this.waiter?.();
    };
    this.child.stdout!.on('data', take);
    this.child.stderr!.on('data', (d: Buffer) => {
      this.output += d.toString();
      this.waiter?.();
    });
    this.child.on('exit', (code) => {
      this.exitCode = code;
      this.waiter?.();
    });
  }

  /** Its process id (the benchmarks read its memory from /proc). */
  get pid(): number {
    return this.child.pid ?? -1;
  }

  /** Everything it printed so far (stdout and stderr), for error messages. */
  get log(): string {
    return this.output;
  }

  send(line: string): void {
    this.child.stdin!.write(`${line}\n`);
  }

  /** The next stdout line matching `pattern` (earlier non-matching lines are skipped). */
  async nextLine(pattern: RegExp, timeoutMs: number): Promise<RegExpMatchArray> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      while (this.lines.length > 0) {
        const m = this.lines.shift()!.match(pattern);
        if (m) return m;
      }
      if (this.exitCode !== undefined) {
        throw new Error(
          `${this.label} exited (${this.exitCode}) waiting for ${pattern}:\n${this.tail()}`,
        );
      }
      const left = until - Date.now();
      if (left <= 0)
        throw new Error(`${this.label}: timed out waiting for ${pattern}:\n${this.tail()}`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.waiter = () => {
          clearTimeout(t);
          this.waiter = undefined;
          resolve();
        };
      });
    }
  }

  /** Waits until anything it printed (stdout or stderr) matches `pattern`. */
  async printed(pattern: RegExp, timeoutMs: number): Promise<void> {
    const until = Date.now() + timeoutMs;
    while (!pattern.test(this.output)) {
      if (this.exitCode !== undefined) {
        throw new Error(
          `${this.label} exited (${this.exitCode}) before printing ${pattern}:\n${this.tail()}`,
        );
      }
      if (Date.now() > until)
        throw new Error(`${this.label}: timed out waiting for ${pattern}:\n${this.tail()}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** SIGINT, then SIGKILL after `graceMs`; resolves once it has exited. */
  async stop(graceMs = 10_000): Promise<void> {
    if (this.exitCode !== undefined) return;
    const exited = new Promise<void>((r) => this.child.once('exit', () => r()));
    this.child.kill('SIGINT');
    const t = setTimeout(() => this.child.kill('SIGKILL'), graceMs);
    await exited;
    clearTimeout(t);
  }

  private tail(): string {
    return this.output.split('\n').slice(-30).join('\n');
  }
}
