/**
 * HTTP adapter throughput and latency, with autocannon against real server processes:
 *   - a bare fastify route returning a fixed record (baseline, same run),
 *   - `addrflow serve` (SQLite store, real engine pool): single `lines` and single `search` at
 *     10 connections, in rounds with the baseline (bare, lines, search; ADDRFLOW_BENCH_HTTP_ROUNDS,
 *     default 3): each round's ratios, and their medians, are issue 20's measures;
 *   - single `search` on 2,000 real addresses the embedded index does not hold (needs ../shared),
 *     first as a newly started server meets them (after its default warm-up on made-up records,
 *     `serve --warm-up`; the server has also run the rounds above), then warm (after
 *     ADDRFLOW_BENCH_HTTP_REAL_WARM more seconds of them, default 12: the JIT's optimising of
 *     their paths; `node tools/serve-warm-up.ts` measures a new server's first seconds alone),
 *   - then single `search` at 20 and 40 connections (capacity beyond the targets' 10), batches of
 *     5,000 `lines` and `search`; single `lines` on the PostgreSQL store when reachable.
 * Prints requests/s, p50/p99 latency and the ratio of each single-record run to the baseline, and
 * for each addrflow run the money steps per billing-store transaction (group commit; a single
 * record's request makes one step, its charge, a batch two, its reserve and its settle), read from
 * the server's /metrics, and for single lookups the records per engine-pool task (they travel
 * together while the pool's threads are busy, src/adapters/http/coalescing-runner.ts).
 *
 *   npm run bench -- http            (ADDRFLOW_BENCH_SECONDS=N to change the run length, default 8;
 *                                     ADDRFLOW_BENCH_HTTP=postgres runs the PostgreSQL run only)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import { sharedDataPath } from '../src/config/shared-data.ts';
import { median } from './support/median.ts';
import { realAddresses } from './support/real-addresses.ts';
import { createUnlimitedAccount, startServer, stopServer } from './support/serve-process.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(ROOT, 'bin', 'addrflow.ts');
const SECONDS = Number(process.env.ADDRFLOW_BENCH_SECONDS ?? 8);
const WORKERS = process.env.ADDRFLOW_BENCH_WORKERS ?? '1';
const PG_URL = process.env.ADDRFLOW_TEST_PG ?? 'postgres://postgres@127.0.0.1:5432/test';
const PG_ONLY = process.env.ADDRFLOW_BENCH_HTTP === 'postgres';
const ROUNDS = Math.max(1, Number(process.env.ADDRFLOW_BENCH_HTTP_ROUNDS ?? 3));
/** Seconds of real addresses between their first run and their warm one (ADDRFLOW_BENCH_HTTP_REAL_WARM). */
const REAL_WARM = Math.max(0, Number(process.env.ADDRFLOW_BENCH_HTTP_REAL_WARM ?? 12));

interface Row { name: string; rps: number; p50: number; p99: number; records: number; non2xx: number }
const rows: Row[] = [];

async function measure(name: string, url: string, body: string | string[], opts: { connections: number; records?: number; seconds?: number }): Promise<Row> {
  const headers = { 'content-type': 'application/x-www-form-urlencoded' };
  const r = await autocannon({
    url, method: 'POST', connections: opts.connections, duration: opts.seconds ?? SECONDS, headers,
    // several bodies: each connection sends them in turn
    ...(typeof body === 'string' ? { body } : { requests: body.map((b) => ({ method: 'POST', body: b, headers })) }),
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
async function measureServer(name: string, base: string, path: string, body: string | string[], opts: { connections: number; records?: number; seconds?: number }): Promise<Row> {
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
  /** Each round's baseline and single-record runs (none: the PostgreSQL run alone). */
  const rounds: { base: Row; lines: Row; search: Row }[] = [];
  if (!PG_ONLY) {
    const bare = await startServer([join(ROOT, 'bench', 'support', 'bare-fastify.ts')]);
    const acc = createUnlimitedAccount(BIN, db);
    const srv = await startServer([BIN, 'serve', '--port', '0', '--db', db, '--workers', WORKERS]);
    const cred = { license: acc.license, guid: acc.guid };
    // Warm-up (JIT, index pages, SQLite cache), both operations: a lookup's code is optimised on
    // the thread that runs it (the store's, as serve runs single lookups on SQLite) only under load.
    await measure('(warm-up) bare fastify', bare.url + '/address/lines', form(LINES), { connections: 10, seconds: 2 });
    rows.pop();
    await measure('(warm-up) single lines', srv.url + '/address/lines', form({ ...cred, ...LINES }), { connections: 10, seconds: 2 });
    rows.pop();
    await measure('(warm-up) single search', srv.url + '/address/search', form({ ...cred, ...SEARCH }), { connections: 10, seconds: 2 });
    rows.pop();
    // Rounds: the baseline and both single-record runs in turn, so that each ratio compares runs
    // minutes apart at most; a shared machine moves one 8 s run by 15 % (docs/performance.md).
    for (let round = 1; round <= ROUNDS; round++) {
      const base = await measure(`round ${round}: bare fastify, fixed record (baseline)`, bare.url + '/address/lines', form(LINES), { connections: 10 });
      const lines = await measureServer(`round ${round}: addrflow single lines (SQLite)`, srv.url, '/address/lines', form({ ...cred, ...LINES }), { connections: 10 });
      const search = await measureServer(`round ${round}: addrflow single search (SQLite)`, srv.url, '/address/search', form({ ...cred, ...SEARCH }), { connections: 10 });
      rounds.push({ base, lines, search });
      console.log(`${''.padEnd(44)} round ${round} ratios: lines ${(lines.rps / base.rps).toFixed(3)}, search ${(search.rps / base.rps).toFixed(3)}`);
    }
    // The target's request is one address, the same each time. Real addresses cost the embedded
    // index more (a city-level index: every street query ends at the named place or postcode,
    // after the searches that find no street): the held-out addresses of eval/lookup, as typed in
    // its four forms, at 10 connections, beside a baseline run of its own.
    // Their first seconds are the JIT's: real addresses take paths the one address never did, and
    // V8 optimises (and re-optimises) them for 10–15 s (about 4 s of compiling on its helper
    // threads, docs/performance.md; `serve` now warms up on made-up records before it listens), so
    // the run is made twice: as a newly started server meets them, and after REAL_WARM more
    // seconds of them, as a running service answers them.
    const real = realAddresses();
    if (real.length > 0) {
      const bodies = real.map((q) => form({ ...cred, ...q }));
      const base = await measure('bare fastify, fixed record (beside real addresses)', bare.url + '/address/lines', form(LINES), { connections: 10 });
      const cold = await measureServer(`addrflow single search, ${real.length.toLocaleString('en')} real addresses, first ${SECONDS} s`, srv.url, '/address/search', bodies, { connections: 10 });
      console.log(`${''.padEnd(44)} ratio to the baseline beside it: ${(cold.rps / base.rps).toFixed(3)}`);
      await measure(`(warm-up) real addresses, ${REAL_WARM} s more`, srv.url + '/address/search', bodies, { connections: 10, seconds: REAL_WARM });
      rows.pop();
      const warm = await measureServer(`addrflow single search, ${real.length.toLocaleString('en')} real addresses, warm`, srv.url, '/address/search', bodies, { connections: 10 });
      console.log(`${''.padEnd(44)} ratio to the baseline beside it: ${(warm.rps / base.rps).toFixed(3)}`);
    } else {
      console.log(`single search on real addresses skipped: no ${sharedDataPath()} (held-out addresses of eval/lookup)`);
    }
    await stopServer(bare.child);
    // Beyond the target's 10 connections: single search with more callers at once. At 10 each
    // request waits for the lookups of the batch before its own; more callers fill the pipeline
    // (the server's capacity rather than its latency).
    for (const connections of [20, 40]) {
      await measureServer(`addrflow single search, ${connections} connections`, srv.url, '/address/search', form({ ...cred, ...SEARCH }), { connections });
    }
    const lb = JSON.stringify(Array.from({ length: 5000 }, (_, i) => ({ ...LINES, housenumber: String(i + 1) })));
    const sb = JSON.stringify(Array.from({ length: 5000 }, (_, i) => ({ ...SEARCH, housenumber: String((i % 200) + 1) })));
    await measureServer('addrflow batch 5,000 lines (SQLite)', srv.url, '/address/lines', form({ ...cred, batch: lb }), { connections: 2, records: 5000 });
    await measureServer('addrflow batch 5,000 search (SQLite)', srv.url, '/address/search', form({ ...cred, batch: sb }), { connections: 2, records: 5000 });
    await stopServer(srv.child);
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
      const pacc = createUnlimitedAccount(BIN, u.toString());
      const psrv = await startServer([BIN, 'serve', '--port', '0', '--db', u.toString(), '--workers', WORKERS]);
      const pcred = { license: pacc.license, guid: pacc.guid };
      await measure('(warm-up) single lines (PostgreSQL)', psrv.url + '/address/lines', form({ ...pcred, ...LINES }), { connections: 10, seconds: 2 });
      rows.pop();
      await measureServer('addrflow single lines (PostgreSQL)', psrv.url, '/address/lines', form({ ...pcred, ...LINES }), { connections: 10 });
      await stopServer(psrv.child);
    } finally {
      await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    }
  } else {
    console.log(`PostgreSQL run skipped: ${PG_URL} unreachable`);
  }
  await c.end().catch(() => {});

  console.log('');
  if (rounds.length > 0) {
    const med = (run: 'base' | 'lines' | 'search', of: 'rps' | 'p99') => median(rounds.map((r) => r[run][of]));
    const ratios = (run: 'lines' | 'search') => rounds.map((r) => r[run].rps / r.base.rps);
    const all = (xs: number[]) => xs.map((x) => x.toFixed(3)).join(', ');
    console.log(`medians of ${ROUNDS} rounds: bare fastify ${med('base', 'rps').toFixed(0)} req/s, single lines ${med('lines', 'rps').toFixed(0)} req/s, single search ${med('search', 'rps').toFixed(0)} req/s`);
    console.log(`ratio single lines / bare fastify:  ${median(ratios('lines')).toFixed(3)} (median of the rounds' ratios: ${all(ratios('lines'))}), p99 ${med('lines', 'p99')} ms (target ≥ 0.25, p99 ≤ 10 ms)`);
    console.log(`ratio single search / bare fastify: ${median(ratios('search')).toFixed(3)} (median of the rounds' ratios: ${all(ratios('search'))}), p99 ${med('search', 'p99')} ms (target ≥ 0.20)`);
  }
  const bad = rows.filter((r) => r.non2xx > 0);
  if (bad.length) {
    console.error(`non-2xx answers in: ${bad.map((r) => r.name).join(', ')}`);
    process.exitCode = 1;
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
