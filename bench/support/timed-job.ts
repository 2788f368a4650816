/**
 * One `addrflow run --op lines --workers 2 --output /dev/null` job of a checkout, timed: wall time,
 * CPU time of the job's process tree (user + system, all threads, from bash's `times`) and the
 * peak RSS the job's summary prints. Shared by the file-job bench and its A/B of two checkouts.
 */
import { spawnSync } from 'node:child_process';

export interface TimedJob {
  ms: number;
  cpuMs: number;
  rssMB: number;
}

export function timedJob(checkout: string, path: string, extra: string[]): TimedJob {
  const q = (a: string) => `'${a.replace(/'/g, `'\\''`)}'`;
  const root = checkout.endsWith('/') ? checkout : `${checkout}/`;
  const args = [process.execPath, `${root}bin/addrflow.ts`, 'run', '--op', 'lines', '--input', path, '--output', '/dev/null', '--workers', '2', '--progress', 'off', ...extra];
  const t = performance.now();
  const r = spawnSync('bash', ['-c', `${args.map(q).join(' ')} >/dev/null; rc=$?; times >&2; exit $rc`], {
    encoding: 'utf8', env: { ...process.env, ADDRFLOW_LOG_LEVEL: 'warn' }, maxBuffer: 1 << 24,
  });
  const ms = performance.now() - t;
  if (r.status !== 0) throw new Error(`job failed (${root}): ${r.stderr}`);
  // `times` prints the shell's own times, then its children's: "XmY.YYYs XmY.YYYs".
  const lines = r.stderr.trimEnd().split('\n');
  const m = /(\d+)m([\d.]+)s (\d+)m([\d.]+)s/.exec(lines.at(-1)!);
  const cpuMs = m ? (Number(m[1]) * 60 + Number(m[2]) + Number(m[3]) * 60 + Number(m[4])) * 1000 : NaN;
  const rss = /peak RSS: (\d+) MB/.exec(r.stderr);
  return { ms, cpuMs, rssMB: rss ? Number(rss[1]) : NaN };
}
