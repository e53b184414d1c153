import * as fs from 'node:fs';

/** Linux reports process CPU times in clock ticks of 1/100 s on x86-64 and arm64. */
const CLOCK_TICKS_PER_S = 100;

/** VmRSS in MB and user + system CPU time in seconds of a process, from /proc. */
export function readProcessUsage(pid: number): { rssMb: number; cpuS: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
  // Fields after the parenthesized command name; utime and stime are fields 14 and 15.
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return { rssMb: rssKb / 1024, cpuS: ticks / CLOCK_TICKS_PER_S };
}
