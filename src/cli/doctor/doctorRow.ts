/** One line of the doctor's table. */
export interface DoctorRow {
  readonly section: 'stack' | 'device';
  readonly check: string;
  /** `n/a`: not applicable on this host (e.g. device checks on x86-64); never fails the run. */
  readonly status: 'ok' | 'fail' | 'warn' | 'n/a';
  readonly detail: string;
  /** What to do about a failed or warned row, as one command or sentence. */
  readonly fix?: string;
}

export function ok(section: DoctorRow['section'], check: string, detail: string): DoctorRow {
  return { section, check, status: 'ok', detail };
}

export function fail(
  section: DoctorRow['section'],
  check: string,
  detail: string,
  fix: string,
): DoctorRow {
  return { section, check, status: 'fail', detail, fix };
}

/** Who will open a device node: its permission bits are judged for this identity. */
export interface DeviceUser {
  readonly uid: number;
  readonly gids: readonly number[];
}

/** Whether `who` may open a node of mode and owners `st` read-write (sessions open it O_RDWR). */
export function canOpenReadWrite(
  st: { readonly mode: number; readonly uid: number; readonly gid: number },
  who: DeviceUser,
): boolean {
  const m = st.mode;
  return (
    who.uid === 0 ||
    (st.uid === who.uid && (m & 0o600) === 0o600) ||
    (who.gids.includes(st.gid) && (m & 0o060) === 0o060) ||
    (m & 0o006) === 0o006
  );
}

/** Exit code of a doctor run: 1 when any row failed. */
export function doctorExitCode(rows: readonly DoctorRow[]): 0 | 1 {
  return rows.some((r) => r.status === 'fail') ? 1 : 0;
}

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter((w) => w.length > 0)) {
    if (line.length > 0 && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line.length > 0 ? `${line} ${word}` : word;
  }
  if (line.length > 0 || lines.length === 0) lines.push(line);
  return lines;
}

/** A plain-text table, one block per row, fixes indented under failed rows. */
export function formatDoctorTable(rows: readonly DoctorRow[], width = 100): string {
  const checkW = Math.max(5, ...rows.map((r) => r.check.length));
  const statusW = 4;
  const detailW = Math.max(30, width - checkW - statusW - 4);
  const out: string[] = [];
  let section: string | undefined;
  for (const r of rows) {
    if (r.section !== section) {
      section = r.section;
      if (out.length > 0) out.push('');
      out.push(section === 'stack' ? 'Software stack' : 'HTP device');
    }
    const detail = wrap(r.detail, detailW);
    const status = r.status.toUpperCase().padEnd(statusW);
    out.push(`  ${status} ${r.check.padEnd(checkW)}  ${detail[0] ?? ''}`);
    for (const d of detail.slice(1))
      out.push(`  ${' '.repeat(statusW)} ${' '.repeat(checkW)}  ${d}`);
    if (r.fix !== undefined && r.status !== 'ok') {
      const fix = wrap(`fix: ${r.fix}`, detailW);
      for (const f of fix) out.push(`  ${' '.repeat(statusW)} ${' '.repeat(checkW)}  ${f}`);
    }
  }
  const failed = rows.filter((r) => r.status === 'fail').length;
  out.push('');
  out.push(failed === 0 ? 'All checks passed.' : `${failed} check(s) failed.`);
  return `${out.join('\n')}\n`;
}
