/**
 * Where a file job's CPU goes, by thread: the main thread (reading, splitting, the pool hop,
 * writing), the engine worker threads (decoding, validation, the engine, rendering) and V8's GC
 * helper threads. Each run is a fresh child process that runs the 1M-record NDJSON lines job of
 * the A/B (bench/support/csv-trio.ts) in-process, as `addrflow run --workers 2 --output /dev/null`
 * does minus the command line, and reads every thread's CPU time from /proc/self/task (Linux) and
 * its scheduler times (run, waiting for a core, asleep). With --base, the two checkouts alternate,
 * round by round; medians are printed.
 *
 *   node bench/file-job-threads.ts [--base DIR] [--rounds 3] [--records 1000000] [--workers 2]
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';

interface ThreadTimes {
  wall: number;
  /** CPU ms by thread group: main, WorkerThread (the engine pool), V8Worker (GC helpers), other. */
  cpu: Record<string, number>;
  /** The engine threads' scheduler times, ms, summed: running, runnable but waiting, asleep. */
  workers: { run: number; runq: number; sleep: number };
}

const { values } = parseArgs({
  options: {
    base: { type: 'string' }, rounds: { type: 'string', default: '3' }, records: { type: 'string', default: '1000000' },
    workers: { type: 'string', default: '2' }, child: { type: 'string' }, input: { type: 'string' },
  },
});

if (values.child) {
  console.log(JSON.stringify(await child(values.child, values.input!, Number(values.workers))));
  process.exit(0);
}

const here = fileURLToPath(new URL('..', import.meta.url));
const cache = `${here}.cache/bench`;
mkdirSync(cache, { recursive: true });
const { ensureCsvTrio } = await import('./support/csv-trio.ts');
const input = (await ensureCsvTrio(cache, Number(values.records))).nd;
const checkouts = values.base ? [here, resolve(values.base)] : [here];
const runs = new Map<string, ThreadTimes[]>();
for (let round = 0; round < Number(values.rounds); round++) {
  for (const checkout of round % 2 === 0 ? checkouts : [...checkouts].reverse()) {
    const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child', checkout, '--input', input, '--workers', values.workers], { encoding: 'utf8', maxBuffer: 1 << 24 });
    if (r.status !== 0) throw new Error(`run failed (${checkout}): ${r.stderr}`);
    (runs.get(checkout) ?? runs.set(checkout, []).get(checkout)!).push(JSON.parse(r.stdout.trim().split('\n').at(-1)!) as ThreadTimes);
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const s = (ms: number) => (ms / 1000).toFixed(2);
for (const checkout of checkouts) {
  const rs = runs.get(checkout)!;
  const cpu = (k: string) => median(rs.map((r) => r.cpu[k] ?? 0));
  const total = median(rs.map((r) => Object.values(r.cpu).reduce((a, b) => a + b, 0)));
  console.log(`${checkout === here ? 'this' : 'base'} (${checkout}), median of ${rs.length}: CPU ${s(total)} s = main ${s(cpu('main'))} + engine threads ${s(cpu('WorkerThread'))} + GC helpers ${s(cpu('V8Worker'))} + other ${s(cpu('other'))}; wall ${s(median(rs.map((r) => r.wall)))} s; engine threads run ${s(median(rs.map((r) => r.workers.run)))} s, wait for a core ${s(median(rs.map((r) => r.workers.runq)))} s, asleep ${s(median(rs.map((r) => r.workers.sleep)))} s (summed over threads)`);
}

async function child(root: string, path: string, threads: number): Promise<ThreadTimes> {
  const { EnginePool } = await import(`${root}/src/pool/engine-pool.ts`);
  const { runFileJob } = await import(`${root}/src/adapters/file/job.ts`);
  const { Sink } = await import(`${root}/src/adapters/file/sink.ts`);
  const { openInput } = await import(`${root}/src/adapters/file/input.ts`);
  const { InputDigest } = await import(`${root}/src/adapters/file/checkpoint.ts`);
  const before = taskTimes();
  const t = performance.now();
  const pool = await EnginePool.create({ threads });
  const output = Sink.file('/dev/null');
  const digest = new InputDigest();
  await runFileJob({ op: 'lines', input: digest.wrap(openInput(path)), output, pool, format: 'auto' });
  await output.close();
  const wall = performance.now() - t;
  const after = taskTimes();
  await pool.destroy();
  const cpu: Record<string, number> = {};
  const workers = { run: 0, runq: 0, sleep: 0 };
  for (const [tid, a] of after) {
    const b = before.get(tid);
    const group = tid === process.pid ? 'main' : a.comm === 'WorkerThread' || a.comm === 'V8Worker' ? a.comm : 'other';
    cpu[group] = (cpu[group] ?? 0) + a.cpu - (b?.cpu ?? 0);
    if (a.comm === 'WorkerThread') {
      const run = a.run - (b?.run ?? 0);
      const runq = a.runq - (b?.runq ?? 0);
      workers.run += run;
      workers.runq += runq;
      workers.sleep += wall - run - runq;
    }
  }
  return { wall, cpu, workers };
}

/** Every thread of this process: its name, CPU ms (user + system) and scheduler ms (running, waiting for a core). */
function taskTimes(): Map<number, { comm: string; cpu: number; run: number; runq: number }> {
  const m = new Map<number, { comm: string; cpu: number; run: number; runq: number }>();
  const ticksPerSecond = 100; // USER_HZ
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      const comm = readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim();
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const [run, runq] = readFileSync(`/proc/self/task/${tid}/schedstat`, 'utf8').split(' ').map(Number);
      m.set(Number(tid), { comm, cpu: ((Number(f[11]) + Number(f[12])) * 1000) / ticksPerSecond, run: run! / 1e6, runq: runq! / 1e6 });
    } catch {
      // the thread ended meanwhile
    }
  }
  return m;
}
