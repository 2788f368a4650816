/**
 * PostgreSQL's CPU per group commit of single-record charges, one-by-one function
 * (`addrflow_money_batch`) against the set-based one (`addrflow_money_charges`), on the same
 * schema and account, in alternating slices on one connection: the backend's own CPU (Linux
 * /proc) per call, medians over the slices, for batches of several sizes.
 *
 *   node tools/pg-money-ab.ts [--sizes 1,2,5,10,20] [--calls 300] [--rounds 6] [--credits N]
 *
 * The database is ADDRFLOW_TEST_PG (default postgres://postgres@127.0.0.1:5432/test, on this
 * machine: /proc must show its backend); a fresh schema, dropped at the end. --credits -1
 * (default) charges an unlimited account, as the HTTP bench does.
 */
import { parseArgs } from 'node:util';
import pg from 'pg';
import { PostgresStore } from '../src/billing/postgres/store.ts';
import { batchArgument, batchFunction } from '../src/billing/postgres/batch-function.ts';
import type { MoneyStep } from '../src/billing/store.ts';
import { median } from '../bench/support/median.ts';
import { processCpu } from '../bench/support/thread-cpu.ts';

const { values } = parseArgs({ options: { sizes: { type: 'string' }, calls: { type: 'string' }, rounds: { type: 'string' }, credits: { type: 'string' } } });
const sizes = (values.sizes ?? '1,2,5,10,20').split(',').map(Number);
const calls = Number(values.calls ?? 300);
const rounds = Number(values.rounds ?? 6);
const PG_URL = process.env.ADDRFLOW_TEST_PG ?? 'postgres://postgres@127.0.0.1:5432/test';
const schema = `money_ab_${process.pid}`;
const url = new URL(PG_URL);
url.searchParams.set('schema', schema);

const store = new PostgresStore(url.toString());
await store.init();
await store.createAccount({ id: 'acc', licenseHash: `l${process.pid}`, guidHash: `g${process.pid}`, credits: Number(values.credits ?? -1), reserved: 0, agreements: ['lines'], disabled: false, createdAt: new Date().toISOString() });
await store.close();
const c = new pg.Client({ connectionString: PG_URL });
await c.connect();
try {
  await c.query(`SET search_path = ${schema}`);
  const pid = (await c.query<{ p: number }>('SELECT pg_backend_pid() AS p')).rows[0]!.p;
  const backendCpuMs = () => (processCpu(pid) ?? NaN) * 1000;
  let next = 0;
  const charge = (): MoneyStep => {
    const id = `r${next++}`;
    const t = new Date().toISOString();
    return { kind: 'charge', reservation: { id, accountId: 'acc', amount: 1, createdAt: t, expiresAt: t }, entries: [{ id: `acc/lines/${id}`, account: 'acc', function: 'lines', credits: 1, requestid: id, time: t }] };
  };
  console.log(`node ${process.version}, ${calls} calls per slice, ${rounds} slices each`);
  for (const size of sizes) {
    const cpu: Record<string, number[]> = { 'addrflow_money_batch': [], 'addrflow_money_charges': [] };
    for (let r = 0; r <= rounds; r++) {
      for (const fn of (r % 2 ? ['addrflow_money_batch', 'addrflow_money_charges'] : ['addrflow_money_charges', 'addrflow_money_batch'])) {
        const t0 = backendCpuMs();
        for (let i = 0; i < calls; i++) {
          const steps = Array.from({ length: size }, charge);
          // a batch of one always goes to the loop (batchFunction), as the store sends it
          await c.query(`SELECT ${size === 1 ? batchFunction(steps) : fn}($1::jsonb)`, [batchArgument(steps)]);
        }
        if (r > 0) cpu[fn]!.push(((backendCpuMs() - t0) * 1000) / calls); // the first round warms up
      }
    }
    const loop = median(cpu['addrflow_money_batch']!), sets = median(cpu['addrflow_money_charges']!);
    console.log(`batch of ${String(size).padStart(3)} charges: one by one ${loop.toFixed(0)} µs, set-based ${sets.toFixed(0)} µs of the backend's CPU per commit: ${(sets / loop).toFixed(2)}×`);
  }
} finally {
  await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await c.end();
}
