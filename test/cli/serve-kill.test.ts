/**
 * `kill -9` of `addrflow serve` (a real process, SQLite store) under load, every request with an
 * `Idempotency-Key` (issue 20):
 * - every 200 a client received has its ledger row (the answer's requestid is in the ledger);
 * - a retry with the same key, on a new server, is answered from the store (`Idempotent-Replayed`)
 *   and not charged again;
 * - no reservation outlives its lease (the new server sweeps the dead one's).
 * And the same for single searches without a key, which serve runs on the SQLite store's thread
 * just before their charge commits (src/adapters/http/single-work.ts): every 200 has its row.
 */
import { spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { Billing } from '../../src/billing/billing.ts';
import { BIN, startServe, type ServeProcess } from '../helpers/cli.ts';
import { postForm } from '../helpers/http-server.ts';

const dir = mkdtempSync(join(tmpdir(), 'addrflow-serve-kill-'));
const db = `sqlite:${join(dir, 'billing.sqlite')}`;
const LINES_OK = { countrycode: 'DE', sendercountrycode: 'DE', street: 'Hauptstraße', housenumber: '5', zip: '10115', city: 'Berlin' };
const LEASE_MS = 1500;
const children: ChildProcess[] = [];

afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

async function serve(): Promise<ServeProcess> {
  const s = await startServe(['--db', db, '--workers', '1'], { ADDRFLOW_LEASE_MS: String(LEASE_MS) });
  children.push(s.child);
  return s;
}

it('kill -9 under load: every 200 has its ledger row; a retry with its Idempotency-Key is answered from the store, not charged; no reservation outlives its lease', async () => {
  const created = spawnSync(process.execPath, [BIN, 'accounts', 'create', '--credits', '1000000', '--agree', 'lines', '--db', db], { encoding: 'utf8' });
  expect(created.status).toBe(0);
  const acc = JSON.parse(created.stdout) as { license: string; guid: string; account: string };
  const first = await serve();
  const form = { license: acc.license, guid: acc.guid, requestproof: '1', ...LINES_OK };

  // 8 clients send keyed requests until the server dies under them
  const answered = new Map<string, string>(); // key → requestid of a 200
  let n = 0;
  let dead = false;
  const client = async (c: number) => {
    while (!dead) {
      const key = `k-${c}-${n++}`;
      try {
        const r = await postForm(first.url + '/address/lines', form, { headers: { 'content-type': 'application/x-www-form-urlencoded', 'idempotency-key': key } });
        if (r.status === 200) answered.set(key, r.json().requestid as string);
      } catch {
        return; // the connection died with the server
      }
    }
  };
  const load = Promise.all(Array.from({ length: 8 }, (_, c) => client(c)));
  while (answered.size < 50) await new Promise((r) => setTimeout(r, 20));
  first.child.kill('SIGKILL');
  dead = true;
  await load;
  await first.exited();

  const billing = await Billing.open(db);
  try {
    const ledger = await billing.ledger(acc.account, 1_000_000);
    const charged = new Set(ledger.map((e) => e.requestid));
    // every 200 a client received was charged (its row committed before it was answered)
    for (const rid of answered.values()) expect(charged.has(rid)).toBe(true);
    const rowsBefore = ledger.length;
    const balanceBefore = await billing.balance(acc.account);
    expect(balanceBefore).toBe(1_000_000 - 20 * rowsBefore);

    // a new server: the retries of the answered keys come from the store, nothing is charged
    const second = await serve();
    for (const [key, rid] of answered) {
      const r = await postForm(second.url + '/address/lines', form, { headers: { 'content-type': 'application/x-www-form-urlencoded', 'idempotency-key': key } });
      expect(r.status).toBe(200);
      expect(r.headers.get('idempotent-replayed')).toBe('true');
      expect(r.json().requestid).toBe(rid);
    }
    expect(await billing.store.ledgerCount(acc.account)).toBe(rowsBefore);
    expect(await billing.balance(acc.account)).toBe(balanceBefore);
    // the dead server's reservations end with their lease: the new server sweeps them (at start
    // and every lease), or this sweep does
    await new Promise((r) => setTimeout(r, LEASE_MS + 500));
    await billing.releaseExpired();
    expect((await billing.findAccount({ id: acc.account }))!.reserved).toBe(0);
    second.child.kill('SIGTERM');
    await second.exited();
  } finally {
    await billing.close();
  }
}, 120_000);

it('kill -9 under load of single searches (run on the store\'s thread before their charge, as serve runs them): every 200 has its ledger row, the balance is exact', async () => {
  const created = spawnSync(process.execPath, [BIN, 'accounts', 'create', '--credits', '1000000', '--agree', 'search', '--db', db], { encoding: 'utf8' });
  expect(created.status).toBe(0);
  const acc = JSON.parse(created.stdout) as { license: string; guid: string; account: string };
  const server = await serve();
  const form = { license: acc.license, guid: acc.guid, requestproof: '1', street: 'Rue de Rivoli', housenumber: '10', city: 'Paris', country: 'FRA' };
  const answered = new Set<string>(); // requestids of the 200s
  let dead = false;
  const client = async () => {
    while (!dead) {
      try {
        const r = await postForm(server.url + '/address/search', form);
        if (r.status === 200) answered.add(r.json().requestid as string);
      } catch {
        return;
      }
    }
  };
  const load = Promise.all(Array.from({ length: 8 }, () => client()));
  while (answered.size < 200) await new Promise((r) => setTimeout(r, 20));
  server.child.kill('SIGKILL');
  dead = true;
  await load;
  await server.exited();

  const billing = await Billing.open(db);
  try {
    const ledger = await billing.ledger(acc.account, 1_000_000);
    const charged = new Set(ledger.map((e) => e.requestid));
    for (const rid of answered) expect(charged.has(rid)).toBe(true);
    // nothing charged twice, nothing charged without its row (a row whose answer the kill cut off is the only surplus)
    expect(charged.size).toBe(ledger.length);
    expect(await billing.balance(acc.account)).toBe(1_000_000 - 27 * ledger.length);
    expect((await billing.findAccount({ id: acc.account }))!.reserved).toBe(0);
  } finally {
    await billing.close();
  }
}, 120_000);
