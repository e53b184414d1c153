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
