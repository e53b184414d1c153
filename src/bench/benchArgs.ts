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
