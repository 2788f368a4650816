/**
 * HTTP adapter throughput and latency, with autocannon against real server processes:
 *   - a bare fastify route returning a fixed record (baseline, same run),
 *   - `addrflow serve` (SQLite store, real engine pool): single `lines`, single `search`,
 *     batches of 5,000 `lines` and `search`; single `lines` on the PostgreSQL store when reachable.
 * Prints requests/s, p50/p99 latency and the ratio of each single-record run to the baseline, and
 * for each addrflow run the money steps per billing-store transaction (group commit; a single
 * record's request makes one step, its charge, a batch two, its reserve and its settle), read from
 * the server's /metrics, and for single lookups the records per engine-pool task (they travel
 * together while the pool's threads are busy, src/adapters/http/coalescing-runner.ts).
 *
 *   npm run bench -- http            (ADDRFLOW_BENCH_SECONDS=N to change the run length, default 8;
 *                                     ADDRFLOW_BENCH_HTTP=postgres runs the PostgreSQL run only)
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(ROOT, 'bin', 'addrflow.ts');
const SECONDS = Number(process.env.ADDRFLOW_BENCH_SECONDS ?? 8);
const WORKERS = process.env.ADDRFLOW_BENCH_WORKERS ?? '1';
const PG_URL = process.env.ADDRFLOW_TEST_PG ?? 'postgres://postgres@127.0.0.1:5432/test';
const PG_ONLY = process.env.ADDRFLOW_BENCH_HTTP === 'postgres';

function start(args: string[]): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ADDRFLOW_LOG_LEVEL: 'warn' } });
  let err = '';
  child.stderr!.on('data', (d) => (err += d));
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /\{"listening":"([^"]+)"\}/.exec(out);
      if (m) resolve({ child, url: m[1]! });
    });
    child.on('exit', (code) => reject(new Error(`server exited ${code}: ${err}`)));
  });
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const done = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await done;
}

function createAccount(db: string): { license: string; guid: string } {
  const r = spawnSync(process.execPath, [BIN, 'accounts', 'create', '--unlimited', '--agree', 'search,lines', '--db', db], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout);
}

interface Row { name: string; rps: number; p50: number; p99: number; records: number; non2xx: number }
const rows: Row[] = [];

async function measure(name: string, url: string, body: string, opts: { connections: number; records?: number; seconds?: number }): Promise<Row> {
  const r = await autocannon({
    url, method: 'POST', body, connections: opts.connections, duration: opts.seconds ?? SECONDS,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  const row = {
    name, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99,
    records: r.requests.average * (opts.records ?? 1), non2xx: r.non2xx + r.errors + r.timeouts,
  };
  rows.push(row);
  console.log(`${name.padEnd(44)} ${row.rps.toFixed(0).padStart(7)} req/s  p50 ${String(row.p50).padStart(5)} ms  p99 ${String(row.p99).padStart(5)} ms  ${row.records.toFixed(0).padStart(8)} records/s${row.non2xx ? `  NON-2XX: ${row.non2xx}` : ''}`);
  return row;
}

/** Sum and count of the server's steps-per-transaction and single-records-per-task histograms. */
async function commitStats(url: string): Promise<{ sum: number; count: number; singles: number; tasks: number }> {
  const text = await (await fetch(url + '/metrics')).text();
  const num = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? 0);
  return {
    sum: num('addrflow_billing_steps_per_transaction_sum'), count: num('addrflow_billing_steps_per_transaction_count'),
    singles: num('addrflow_engine_single_records_per_task_sum'), tasks: num('addrflow_engine_single_records_per_task_count'),
  };
}

/** Runs `measure` and prints the steps per store transaction during it. */
async function measureServer(name: string, base: string, path: string, body: string, opts: { connections: number; records?: number; seconds?: number }): Promise<Row> {
  // a single record's money is one `charge` step; a batch's a reserve and a settle
  const stepsPerRequest = (opts.records ?? 1) === 1 ? 1 : 2;
  const before = await commitStats(base);
  const row = await measure(name, base + path, body, opts);
  const after = await commitStats(base);
  const tx = after.count - before.count;
  const steps = after.sum - before.sum;
  console.log(`${''.padEnd(44)} group commit: ${tx.toFixed(0)} transactions, ${(tx ? steps / tx : 0).toFixed(2)} steps/transaction (${(tx ? steps / tx / stepsPerRequest : 0).toFixed(2)} requests/transaction)`);
  const tasks = after.tasks - before.tasks;
  if (tasks > 0) console.log(`${''.padEnd(44)} engine pool: ${tasks.toFixed(0)} tasks, ${((after.singles - before.singles) / tasks).toFixed(2)} single records/task`);
  return row;
}

const form = (o: Record<string, string>) => new URLSearchParams(o).toString();
const LINES = { countrycode: 'DE', sendercountrycode: 'DE', street: 'Hauptstraße', housenumber: '5', zip: '10115', city: 'Berlin' };
const SEARCH = { street: 'Rue de Rivoli', housenumber: '10', city: 'Paris', country: 'FRA' };

console.log(`node ${process.version}, ${availableParallelism()} cores (${cpus()[0]?.model ?? '?'}), server --workers ${WORKERS}, ${SECONDS} s per run`);

const dir = mkdtempSync(join(tmpdir(), 'addrflow-bench-'));
const db = `sqlite:${join(dir, 'billing.sqlite')}`;
try {
  let base: Row | undefined;
  let lines: Row | undefined;
  let search: Row | undefined;
  if (!PG_ONLY) {
    const bare = await start([join(ROOT, 'bench', 'support', 'bare-fastify.ts')]);
    base = await measure('bare fastify, fixed record (baseline)', bare.url + '/address/lines', form(LINES), { connections: 10 });
    await stop(bare.child);

    const acc = createAccount(db);
    const srv = await start([BIN, 'serve', '--port', '0', '--db', db, '--workers', WORKERS]);
    const cred = { license: acc.license, guid: acc.guid };
    // Warm-up (JIT, index pages, SQLite cache), both operations: a lookup's code is optimised on
    // the thread that runs it (the store's, as serve runs single lookups on SQLite) only under load.
    await measure('(warm-up) single lines', srv.url + '/address/lines', form({ ...cred, ...LINES }), { connections: 10, seconds: 2 });
    rows.pop();
    await measure('(warm-up) single search', srv.url + '/address/search', form({ ...cred, ...SEARCH }), { connections: 10, seconds: 2 });
    rows.pop();
    lines = await measureServer('addrflow single lines (SQLite)', srv.url, '/address/lines', form({ ...cred, ...LINES }), { connections: 10 });
    search = await measureServer('addrflow single search (SQLite)', srv.url, '/address/search', form({ ...cred, ...SEARCH }), { connections: 10 });
    const lb = JSON.stringify(Array.from({ length: 5000 }, (_, i) => ({ ...LINES, housenumber: String(i + 1) })));
    const sb = JSON.stringify(Array.from({ length: 5000 }, (_, i) => ({ ...SEARCH, housenumber: String((i % 200) + 1) })));
    await measureServer('addrflow batch 5,000 lines (SQLite)', srv.url, '/address/lines', form({ ...cred, batch: lb }), { connections: 2, records: 5000 });
    await measureServer('addrflow batch 5,000 search (SQLite)', srv.url, '/address/search', form({ ...cred, batch: sb }), { connections: 2, records: 5000 });
    await stop(srv.child);
  }

  // PostgreSQL store, when reachable.
  let pgUp = false;
  const c = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 2000 });
  try { await c.connect(); pgUp = true; } catch { /* skipped below */ }
  if (pgUp) {
    const schema = `bench_${process.pid}`;
    const u = new URL(PG_URL);
    u.searchParams.set('schema', schema);
    try {
      const pacc = createAccount(u.toString());
      const psrv = await start([BIN, 'serve', '--port', '0', '--db', u.toString(), '--workers', WORKERS]);
      const pcred = { license: pacc.license, guid: pacc.guid };
      await measure('(warm-up) single lines (PostgreSQL)', psrv.url + '/address/lines', form({ ...pcred, ...LINES }), { connections: 10, seconds: 2 });
      rows.pop();
      await measureServer('addrflow single lines (PostgreSQL)', psrv.url, '/address/lines', form({ ...pcred, ...LINES }), { connections: 10 });
      await stop(psrv.child);
    } finally {
      await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    }
  } else {
    console.log(`PostgreSQL run skipped: ${PG_URL} unreachable`);
  }
  await c.end().catch(() => {});

  console.log('');
  if (base && lines && search) {
    console.log(`ratio single lines / bare fastify:  ${(lines.rps / base.rps).toFixed(3)} (throughput), p99 ${lines.p99} vs ${base.p99} ms`);
    console.log(`ratio single search / bare fastify: ${(search.rps / base.rps).toFixed(3)} (throughput), p99 ${search.p99} vs ${base.p99} ms`);
  }
  const bad = rows.filter((r) => r.non2xx > 0);
  if (bad.length) {
    console.error(`non-2xx answers in: ${bad.map((r) => r.name).join(', ')}`);
    process.exitCode = 1;
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
