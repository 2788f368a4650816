/**
 * HTTP A/B of two checkouts (e.g. this tree and a `git worktree add --detach DIR REV` of a base):
 * for each round, each checkout's `addrflow serve` (fresh SQLite store, unlimited account) takes
 * 2 s of warm-up (WARM=N: N s) and 6 s of autocannon at 10 connections on one single-record request; the rounds
 * alternate the checkouts, so both see the same machine. Besides the rates, the serve process's CPU
 * per request by thread (Linux /proc): the figure a loaded machine moves least. V8's helper threads
 * count JIT compilation as well as GC: right after start the optimising compiler is most of them, so
 * a warm-up of 6 s or more (WARM=6) measures the steady state.
 *
 *   node tools/http-ab.ts lines|search|search-real ROOT_A ROOT_B [ROUNDS]
 *                                                                (search-real: 2,000 real addresses
 *                                                                 in turn, bench/support/real-addresses.ts;
 *                                                                 W=N: serve --workers N, default 1;
 *                                                                 WARM=N: N s of warm-up, default 2;
 *                                                                 RATE=N: N requests/s offered, default as fast as answered)
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { realAddresses } from '../bench/support/real-addresses.ts';
import { createUnlimitedAccount, startServer, stopServer } from '../bench/support/serve-process.ts';

const [op = 'lines', ...rest] = process.argv.slice(2);
const rounds = Number(rest.find((a) => /^\d+$/.test(a)) ?? 3);
const roots = rest.filter((a) => !/^\d+$/.test(a));
if ((op !== 'lines' && op !== 'search' && op !== 'search-real') || roots.length === 0) {
  console.error('usage: node tools/http-ab.ts lines|search|search-real ROOT_A ROOT_B [ROUNDS]');
  process.exit(2);
}
const REAL = op === 'search-real' ? realAddresses() : [];
if (op === 'search-real' && REAL.length === 0) {
  console.error('http-ab: search-real needs ../shared (the held-out addresses of eval/lookup)');
  process.exit(2);
}
const SEARCH = { street: 'Rue de Rivoli', housenumber: '10', city: 'Paris', country: 'FRA' };
const LINES = { countrycode: 'DE', sendercountrycode: 'DE', street: 'Hauptstraße', housenumber: '5', zip: '10115', city: 'Berlin' };

async function measure(root: string): Promise<string> {
  const bin = join(root, 'bin', 'addrflow.ts');
  const dir = mkdtempSync(join(tmpdir(), 'addrflow-http-ab-'));
  const db = `sqlite:${join(dir, 'billing.sqlite')}`;
  try {
    const acc = createUnlimitedAccount(bin, db);
    const { child, url } = await startServer([bin, 'serve', '--port', '0', '--db', db, '--workers', process.env.W ?? '1'], { stderr: 'inherit' });
    const form = (q: Record<string, string>) => new URLSearchParams({ ...acc, ...q }).toString();
    const body = form(op === 'lines' ? LINES : SEARCH);
    const path = op === 'lines' ? 'lines' : 'search';
    // RATE: both checkouts get the same offered load, so that their CPU per request compares work
    // at the same concurrency (single records group more, and cost less each, the busier the server)
    const rate = process.env.RATE ? { overallRate: Number(process.env.RATE) } : {};
    const headers = { 'content-type': 'application/x-www-form-urlencoded' };
    const bodies = REAL.length > 0 ? { requests: REAL.map((q) => ({ method: 'POST', body: form(q), headers })) } : { body };
    const opts = { url: `${url}/address/${path}`, method: 'POST' as const, connections: 10, ...rate, headers, ...bodies };
    await autocannon({ ...opts, duration: Number(process.env.WARM ?? 2) });
    const before = threadCpu(child.pid!);
    const r = await autocannon({ ...opts, duration: 6 });
    const after = threadCpu(child.pid!);
    await stopServer(child);
    return `${r.requests.average.toFixed(0)} req/s  p50 ${r.latency.p50} ms  p99 ${r.latency.p99} ms  CPU µs/request ${cpuPerRequest(before, after, r.requests.total)}${r.non2xx ? `  NON-2XX ${r.non2xx}` : ''}`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** CPU ticks (1/100 s) of each thread of process `pid`, by thread id and name (/proc/PID/task). */
function threadCpu(pid: number): Map<string, number> {
  const m = new Map<string, number>();
  for (const t of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${t}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      m.set(`${t} ${/\(([^)]*)\)/.exec(stat)![1]}`, Number(f[11]) + Number(f[12]));
    } catch {
      // the thread ended meanwhile
    }
  }
  return m;
}

/** The serve process's CPU per request: its main thread, each other busy thread (engine, store), V8's GC helpers, total. */
function cpuPerRequest(before: Map<string, number>, after: Map<string, number>, requests: number): string {
  const us = (ticks: number) => Math.round((ticks * 10_000) / Math.max(1, requests));
  let main = 0, gc = 0, total = 0;
  const others: number[] = [];
  for (const [k, v] of after) {
    const d = v - (before.get(k) ?? 0);
    total += d;
    if (k.endsWith(' node') || k.endsWith(' MainThread')) main += d;
    else if (k.includes('V8Worker')) gc += d;
    else if (us(d) > 1) others.push(us(d));
  }
  return `main ${us(main)}, threads ${others.sort((a, b) => b - a).join('/') || '0'}, V8 helpers ${us(gc)}, total ${us(total)}`;
}

for (let i = 0; i < rounds; i++) for (const root of roots) console.log(`${root}  ${op}  ${await measure(root)}`);
