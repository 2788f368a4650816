/**
 * CPU seconds of this process's threads by thread name, from /proc/self/task (Linux): the
 * benchmarks' per-thread profile (the main thread, Node's worker threads, V8's garbage-collection
 * helpers, libuv's pool). Take a snapshot before and after a run; `cpuSince` gives the difference
 * by name. Off Linux both answer empty.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** thread id → [name, CPU seconds (user + system)] */
export type ThreadCpu = Map<string, [string, number]>;

const TICKS = 100; // USER_HZ: clock ticks per second of /proc's utime and stime on Linux

export function threadCpu(): ThreadCpu {
  const out: ThreadCpu = new Map();
  let tids: string[];
  try {
    tids = readdirSync('/proc/self/task');
  } catch {
    return out;
  }
  for (const tid of tids) {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // fields 14 and 15 of stat(5) (utime, stime), counted from the state field (3)
      out.set(tid, [name, (Number(f[11]) + Number(f[12])) / TICKS]);
    } catch {
      // the thread ended in between
    }
  }
  return out;
}

/** CPU seconds by thread name between two snapshots (threads started in between count from 0). */
export function cpuSince(before: ThreadCpu, after: ThreadCpu = threadCpu()): Map<string, number> {
  const out = new Map<string, number>();
  for (const [tid, [name, s]] of after) {
    const d = s - (before.get(tid)?.[1] ?? 0);
    if (d > 0) out.set(name, (out.get(name) ?? 0) + d);
  }
  return out;
}

/** "name 1.2 s, other 0.3 s", largest first. */
export function formatCpu(by: Map<string, number>): string {
  return [...by].sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${v.toFixed(2)} s`).join(', ');
}

/**
 * CPU seconds of another process so far (user + system, all its threads), or undefined when it
 * cannot be read: the local broker's, given as ADDRFLOW_BENCH_BROKER_PID (it shares the cores).
 */
export function processCpu(pid: number | undefined): number | undefined {
  if (pid === undefined || !Number.isInteger(pid)) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / TICKS;
  } catch {
    return undefined;
  }
}
