/**
 * Single `lines` through S `addrflow serve` processes sharing one PostgreSQL store (one schema, one
 * unlimited account), each with its own autocannon at C connections: requests per second in all,
 * p99 per server, requests per store transaction, and PostgreSQL's CPU per request (every
 * `postgres` process on this machine, Linux /proc). ROOT is the checkout whose bin/addrflow.ts
 * runs (a worktree of a base commit for an A/B).
 *
 *   node tools/pg-servers.ts [--servers 2] [--connections 20] [--seconds 8] [--root DIR]
 */
import { execSync, type ChildProcess } from 'node:child_process';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import pg from 'pg';
import { createUnlimitedAccount, startServer, stopServer } from '../bench/support/serve-process.ts';
import { processCpu } from '../bench/support/thread-cpu.ts';

const { values } = parseArgs({ options: { servers: { type: 'string' }, connections: { type: 'string' }, seconds: { type: 'string' }, root: { type: 'string' } } });
const servers = Number(values.servers ?? 2), connections = Number(values.connections ?? 20), seconds = Number(values.seconds ?? 8);
const root = resolve(values.root ?? '.');
const BIN = join(root, 'bin', 'addrflow.ts');
const PG_URL = process.env.ADDRFLOW_TEST_PG ?? 'postgres://postgres@127.0.0.1:5432/test';
const url = new URL(PG_URL);
const schema = `servers_ab_${process.pid}`;
url.searchParams.set('schema', schema);

const acc = createUnlimitedAccount(BIN, url.toString());
const children: ChildProcess[] = [];
const bases: string[] = [];
try {
  for (let i = 0; i < servers; i++) {
    const served = await startServer([BIN, 'serve', '--port', '0', '--db', url.toString(), '--workers', '1'], { stderr: 'inherit' });
    children.push(served.child);
    bases.push(served.url);
  }
  const body = new URLSearchParams({ license: acc.license, guid: acc.guid, countrycode: 'DE', sendercountrycode: 'DE', street: 'Hauptstraße', housenumber: '5', zip: '10115', city: 'Berlin' }).toString();
  const load = (s: number) => Promise.all(bases.map((b) => autocannon({ url: b + '/address/lines', method: 'POST', connections, duration: s, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body })));
  // (a backend that ended meanwhile counts 0)
  const pgCpuMs = () => execSync('pgrep -x postgres').toString().trim().split('\n').reduce((sum, pid) => sum + (processCpu(Number(pid)) ?? 0) * 1000, 0);
  const commits = async () => {
    let n = 0, steps = 0;
    for (const b of bases) {
      const text = await (await fetch(b + '/metrics')).text();
      n += Number(/^addrflow_billing_steps_per_transaction_count (\S+)$/m.exec(text)?.[1] ?? 0);
      steps += Number(/^addrflow_billing_steps_per_transaction_sum (\S+)$/m.exec(text)?.[1] ?? 0);
    }
    return { n, steps };
  };
  await load(3); // warm-up
  const cpu0 = pgCpuMs(), c0 = await commits();
  const runs = await load(seconds);
  const cpu1 = pgCpuMs(), c1 = await commits();
  const requests = runs.reduce((n, r) => n + r.requests.total, 0);
  console.log(`${root}: ${servers} servers × ${connections} connections: ${(requests / seconds).toFixed(0)} req/s, p99 ${runs.map((r) => r.latency.p99).join(' / ')} ms, `
    + `${((c1.steps - c0.steps) / (c1.n - c0.n)).toFixed(1)} requests per transaction, PostgreSQL ${(((cpu1 - cpu0) * 1000) / requests).toFixed(0)} µs of CPU per request`);
} finally {
  await Promise.all(children.map(stopServer));
  const c = new pg.Client({ connectionString: PG_URL });
  await c.connect();
  await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await c.end();
}
