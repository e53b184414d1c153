/** Command-line flags shared by the benchmark commands: `--json <path>` and `--seconds <n>`. */
export interface BenchArgs {
  readonly jsonPath: string | undefined;
  readonly seconds: number | undefined;
  readonly rest: readonly string[];
}

export function parseBenchArgs(argv: readonly string[]): BenchArgs {
  let jsonPath: string | undefined;
  let seconds: number | undefined;
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--json') {
      jsonPath = argv[++i];
      if (!jsonPath) throw new Error('--json needs a file path');
    } else if (a === '--seconds') {
      seconds = Number(argv[++i]);
      if (!Number.isFinite(seconds) || seconds <= 0)
        throw new Error('--seconds needs a positive number');
    } else {
      rest.push(a);
    }
  }
  return { jsonPath, seconds, rest };
}

/** The value after `name` in `rest`, if the flag is there (a benchmark's own flags, read as given). */
export function flagValue(rest: readonly string[], name: string): string | undefined {
  const i = rest.indexOf(name);
  return i >= 0 ? rest[i + 1] : undefined;
}

/**
 * A benchmark's own flags, taken one by one from what parseBenchArgs left; finish() refuses any
 * that no one took, so a misspelt flag is an error rather than a silent default.
 */
export class BenchFlags {
  private readonly rest: string[];

  constructor(rest: readonly string[]) {
    this.rest = [...rest];
  }

  /** `flag VALUE`, or undefined when absent; a flag without its value is an error. */
  value(flag: string): string | undefined {
    const i = this.rest.indexOf(flag);
    if (i < 0) return undefined;
    const v = this.rest[i + 1];
    if (v === undefined) throw new Error(`${flag} needs a value`);
    this.rest.splice(i, 2);
    return v;
  }

  /** `flag N` with N an integer >= min, or `def` when absent. */
  int(flag: string, def: number, min: number): number {
    const raw = this.value(flag);
    if (raw === undefined) return def;
    const v = Number(raw);
    if (!Number.isInteger(v) || v < min) throw new Error(`${flag} needs an integer >= ${min}`);
    return v;
  }

  /** A switch without a value. */
  has(flag: string): boolean {
    const i = this.rest.indexOf(flag);
    if (i >= 0) this.rest.splice(i, 1);
    return i >= 0;
  }

  finish(): void {
    if (this.rest.length > 0) throw new Error(`unknown arguments: ${this.rest.join(' ')}`);
  }
}
