import * as fs from 'node:fs';

/** Linux reports process CPU times in clock ticks of 1/100 s on x86-64 and arm64. */
const CLOCK_TICKS_PER_S = 100;

/**
 * VmRSS in MB, user + system CPU time in seconds and minor page faults so far of a process, from
 * /proc. Minor faults count the pages a process touched for the first time in a mapping: a frame
 * buffer that gets a fresh mapping per message shows there (bench/results/2026-11-27-malloc-tuning-and-take-window.md).
 */
export function readProcessUsage(pid: number): {
  rssMb: number;
  cpuS: number;
  minorFaults: number;
  /** The /proc/<pid>/status text these came from: a caller's other figures (RSS by kind). */
  status: string;
} {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  return { rssMb: rssKb / 1024, cpuS: statCpuS(stat), minorFaults: statMinorFaults(stat), status };
}

/** minflt of a /proc stat line: field 10, the 8th after the parenthesized command name. */
function statMinorFaults(stat: string): number {
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[7]);
}

/** User + system CPU seconds of a /proc stat line (a process's or one of its threads'). */
function statCpuS(stat: string): number {
  // Fields after the parenthesized command name; utime and stime are fields 14 and 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_S;
}

/**
 * User + system CPU seconds per thread name of a process (threads of one name summed), from
 * /proc/<pid>/task: which of the node's threads (main, DDS, engine worker, GC) spends its CPU.
 */
export function readThreadCpu(pid: number): Map<string, number> {
  const byName = new Map<string, number>();
  for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    } catch {
      continue; // the thread ended between the listing and the read
    }
    // Node names its main thread and its libuv pool threads alike: tell the main thread apart.
    const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const name = Number(tid) === pid ? 'main' : comm;
    byName.set(name, (byName.get(name) ?? 0) + statCpuS(stat));
  }
  return byName;
}

/** CPU ms per thread name between two readThreadCpu readings, largest first. */
export function threadCpuDeltaMs(
  before: Map<string, number>,
  after: Map<string, number>,
): Array<[string, number]> {
  return [...after.entries()]
    .map(([name, s]): [string, number] => [name, (s - (before.get(name) ?? 0)) * 1000])
    .filter(([, ms]) => ms > 0)
    .sort((a, b) => b[1] - a[1]);
}
