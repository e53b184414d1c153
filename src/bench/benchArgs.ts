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

/** Prints rows as an aligned text table. */
export function formatTable(rows: readonly Record<string, string | number>[]): string {
  if (rows.length === 0) return '(no rows)';
  const cols = Object.keys(rows[0]!);
  const cell = (v: string | number | undefined): string =>
    typeof v === 'number' ? v.toFixed(v % 1 === 0 ? 0 : 2) : (v ?? '');
  const widths = cols.map((c) => Math.max(c.length, ...rows.map((r) => cell(r[c]).length)));
  const line = (vals: string[]): string => vals.map((v, i) => v.padEnd(widths[i]!)).join('  ');
  return [
    line(cols),
    line(widths.map((w) => '-'.repeat(w))),
    ...rows.map((r) => line(cols.map((c) => cell(r[c])))),
  ].join('\n');
}

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const idx = Math.min(sorted.length - 1, Math.max(0, Math.round((p / 100) * (sorted.length - 1))));
  return sorted[idx]!;
}
