/** CPU time of another process (a gateway child), read from /proc on Linux; NaN where /proc is not there. */
import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of /proc/<pid>/stat times (USER_HZ, 100 on every mainstream Linux build). */
export const CLOCK_TICKS_PER_SEC = 100;

/** User + system CPU milliseconds from the text of /proc/<pid>/stat; NaN when the text is not one. */
export function parseProcStatCpuMs(stat: string, ticksPerSec = CLOCK_TICKS_PER_SEC): number {
  // The command name (field 2) is in parentheses and may itself hold spaces or parentheses: split after the last one.
  const close = stat.lastIndexOf(')');
  if (close < 0) return Number.NaN;
  const fields = stat
    .slice(close + 1)
    .trim()
    .split(/\s+/);
  // fields[0] is field 3 (state); utime and stime are fields 14 and 15.
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  if (!Number.isFinite(utime) || !Number.isFinite(stime) || fields.length < 13) return Number.NaN;
  return ((utime + stime) * 1000) / ticksPerSec;
}

/** CPU milliseconds used so far by process `pid`, or NaN when it cannot be read. */
export function processCpuMs(pid: number | null | undefined): number {
  if (pid === null || pid === undefined) return Number.NaN;
  try {
    return parseProcStatCpuMs(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return Number.NaN;
  }
}

/** The pids of the direct children of `pid` (every thread's list), or [] where /proc cannot tell. */
export function childPids(pid: number | null | undefined): number[] {
  if (pid === null || pid === undefined) return [];
  try {
    const tasks = readdirSync(`/proc/${pid}/task`);
    return tasks.flatMap((tid) =>
      readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').split(/\s+/).filter(Boolean).map(Number),
    );
  } catch {
    return [];
  }
}

/** Every pid below `pid` (children, their children, ...), parents before children. */
export function descendantPids(pid: number | null | undefined): number[] {
  const found: number[] = [];
  const queue = childPids(pid);
  while (queue.length > 0) {
    const next = queue.shift() as number;
    if (found.includes(next)) continue;
    found.push(next);
    queue.push(...childPids(next));
  }
  return found;
}

/** The command line of `pid` with arguments joined by spaces, or '' when it cannot be read. */
export function commandLineOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
  } catch {
    return '';
  }
}

/** The first child of `parent` whose command line ends with `suffix` and is not in `exclude`. */
export function findChild(
  parent: number | null | undefined,
  suffix: string,
  exclude: readonly number[] = [],
): number | undefined {
  return childPids(parent).find((pid) => !exclude.includes(pid) && commandLineOf(pid).endsWith(suffix));
}

/** The resident set size of `pid` in KiB from /proc/<pid>/status (VmRSS), or NaN when it cannot be read. */
export function processRssKiB(pid: number | null | undefined): number {
  if (pid === null || pid === undefined) return Number.NaN;
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8')
      .split('\n')
      .find((l) => l.startsWith('VmRSS:'));
    return line === undefined ? Number.NaN : Number(line.split(/\s+/)[1]);
  } catch {
    return Number.NaN;
  }
}

/** Jiffies of the whole host from the `cpu` line of /proc/stat: all of them, and those stolen by the hypervisor. */
export interface HostCpuTimes {
  total: number;
  steal: number;
}

/** Parses the aggregate `cpu` line of /proc/stat text; undefined when there is none. */
export function parseHostCpuTimes(stat: string): HostCpuTimes | undefined {
  const line = stat.split('\n').find((l) => l.startsWith('cpu '));
  if (!line) return undefined;
  // user nice system idle iowait irq softirq steal [guest guest_nice, already counted in user and nice]
  const fields = line.trim().split(/\s+/).slice(1, 9).map(Number);
  if (fields.length < 8 || fields.some((n) => !Number.isFinite(n))) return undefined;
  return { total: fields.reduce((a, b) => a + b, 0), steal: fields[7] as number };
}

/** The host's CPU times now, or undefined where /proc/stat cannot be read. */
export function hostCpuTimes(): HostCpuTimes | undefined {
  try {
    return parseHostCpuTimes(readFileSync('/proc/stat', 'utf8'));
  } catch {
    return undefined;
  }
}

/** The share (0..1) of CPU time stolen by the hypervisor between two readings; NaN when it cannot be told. */
export function stealShare(before: HostCpuTimes | undefined, after: HostCpuTimes | undefined): number {
  if (!before || !after || after.total <= before.total) return Number.NaN;
  return (after.steal - before.steal) / (after.total - before.total);
}
