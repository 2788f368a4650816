/**
 * A/B of file-job speed between this checkout and another one (a base commit checked out beside
 * it, e.g. `git worktree add ../base <commit>` with node_modules linked): the same 1M-record
 * NDJSON and CSV lines jobs (bench/support/csv-trio.ts), 2 workers, output to /dev/null, run in
 * interleaved rounds (A B B A …) so that the machine's load falls on both alike. Prints the median
 * wall time and CPU time of each and the ratio this/base; within 5 % is "no slowdown".
 *
 *   node bench/file-job-ab.ts --base ../base [--rounds 5] [--records 1000000]
 */
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { ensureCsvTrio } from './support/csv-trio.ts';
import { timedJob, type TimedJob } from './support/timed-job.ts';

const { values } = parseArgs({ options: { base: { type: 'string' }, rounds: { type: 'string', default: '5' }, records: { type: 'string', default: '1000000' } } });
if (!values.base) {
  console.error('usage: node bench/file-job-ab.ts --base DIR [--rounds N] [--records N]');
  process.exit(2);
}
const here = fileURLToPath(new URL('..', import.meta.url));
const base = resolve(values.base);
const cache = `${here}.cache/bench`;
mkdirSync(cache, { recursive: true });
const n = Number(values.records);
const f = await ensureCsvTrio(cache, n);
const jobs: Array<[string, string]> = [['NDJSON → NDJSON', f.nd], ['CSV → CSV', f.csv]];
const runs = new Map<string, TimedJob[]>();
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
for (let round = 0; round < Number(values.rounds); round++) {
  const order = round % 2 === 0 ? [here, base] : [base, here];
  for (const [label, path] of jobs) {
    for (const checkout of order) {
      const key = `${label}|${checkout === here ? 'this' : 'base'}`;
      const r = timedJob(checkout, path, []);
      (runs.get(key) ?? runs.set(key, []).get(key)!).push(r);
    }
  }
}
for (const [label] of jobs) {
  const a = runs.get(`${label}|this`)!;
  const b = runs.get(`${label}|base`)!;
  const [aw, bw, ac, bc] = [median(a.map((r) => r.ms)), median(b.map((r) => r.ms)), median(a.map((r) => r.cpuMs)), median(b.map((r) => r.cpuMs))];
  const rate = (ms: number) => Math.round((n * 1000) / ms).toLocaleString('en');
  console.log(`${label}: this ${rate(aw)} records/s (CPU ${(ac / 1000).toFixed(2)} s), base ${rate(bw)} records/s (CPU ${(bc / 1000).toFixed(2)} s); this/base: wall ${(bw / aw).toFixed(3)}, CPU ${(bc / ac).toFixed(3)} (medians of ${a.length})`);
}
