/**
 * 200 parallel requests against a balance that covers exactly 100 records: exactly 100 succeed,
 * the balance ends at 0 and the ledger holds 100 entries. On SQLite (one server; single `lines`,
 * and single `search` run on the store's thread before its charge, as serve runs it) and on
 * PostgreSQL (one server, and two server instances sharing one balance). The money steps are
 * group-committed: /metrics counts 200 reserves and 100 settles in fewer transactions than steps.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { Billing } from '../../../src/billing/billing.ts';
import { PRICES, type Op } from '../../../src/contract/params.ts';
import { PostgresStore } from '../../../src/billing/postgres/store.ts';
import { chooseEngine, freshPgSchema, postForm, startTestServer, type TestServer } from '../../helpers/http-server.ts';
import { PG_SKIP_REASON, postgresReachable } from '../../helpers/postgres.ts';

const engine = await chooseEngine();
const NOTE = '[engine: real pool]';
const pgUp = await postgresReachable();
afterAll(() => engine.close());

const LINES_OK = { countrycode: 'DE', sendercountrycode: 'DE', street: 'Hauptstraße', housenumber: '5', zip: '10115', city: 'Berlin' };

const SEARCH_OK = { street: 'Rue de Rivoli', housenumber: '10', city: 'Paris', country: 'FRA' };

async function hammer(servers: TestServer[], billing: Billing, op: Op = 'lines') {
  const price = PRICES[op];
  const acc = await billing.createAccount({ credits: 100 * price, agreements: [op] });
  const results = await Promise.all(Array.from({ length: 200 }, (_, i) =>
    postForm(servers[i % servers.length]!.url + `/address/${op}`, { license: acc.license, guid: acc.guid, ...(op === 'lines' ? LINES_OK : SEARCH_OK), returnavailablecredits: '1' })));
  const ok = results.filter((r) => r.status === 200);
  const refused = results.filter((r) => r.status === 402);
  expect(ok).toHaveLength(100);
  expect(refused).toHaveLength(100);
  for (const r of refused) expect(r.json()).toEqual({ errorcode: 402, errormessage: expect.any(String) });
  // Every successful answer reports a distinct balance after its own charge: 1980, 1960, …, 0.
  const balances = ok.map((r) => Number(r.json().availablecredits)).sort((a, b) => a - b);
  expect(balances).toEqual(Array.from({ length: 100 }, (_, i) => i * price));
  expect(await billing.balance(acc.account)).toBe(0);
  expect(await billing.store.ledgerCount(acc.account)).toBe(100);
  expect((await billing.store.findAccount({ id: acc.account }))!.reserved).toBe(0);
  const ledger = await billing.ledger(acc.account);
  expect(new Set(ledger.map((e) => e.id)).size).toBe(100);
  expect(ledger.every((e) => e.credits === price && e.function === op)).toBe(true);
  // group commit: 200 steps (a single record's money is one `charge` step: the 402 check, the
  // ledger row and the debit), some of them sharing a transaction
  let steps = 0;
  let transactions = 0;
  // the 100 records answered, by the thread their engine ran on (/metrics)
  const ranOn: Record<string, number> = {};
  for (const s of servers) {
    const text = await (await fetch(s.url + '/metrics')).text();
    steps += Number(/^addrflow_billing_steps_per_transaction_sum (\S+)$/m.exec(text)?.[1]);
    for (const m of text.matchAll(new RegExp(`^addrflow_http_single_records_total\\{op="${op}",thread="(\\w+)"\\} (\\S+)$`, 'gm'))) {
      ranOn[m[1]!] = (ranOn[m[1]!] ?? 0) + Number(m[2]);
    }
    transactions += Number(/^addrflow_billing_steps_per_transaction_count (\S+)$/m.exec(text)?.[1]);
  }
  expect(steps).toBe(200);
  expect(transactions).toBeLessThan(200);
  return ranOn;
}

describe(`concurrency over HTTP ${NOTE}`, () => {
  it('SQLite: 200 parallel requests, balance for 100 → exactly 100 succeed, balance 0, 100 ledger entries', async () => {
    const s = await startTestServer({ runner: engine.runner });
    try {
      expect(await hammer([s], s.billing)).toEqual({ event_loop: 100 });
    } finally {
      await s.close();
    }
  });

  it.skipIf(!engine.searchReady)(`SQLite, single searches run on the store's thread as serve runs them (one hop): the same${engine.searchReady ? '' : ` — SKIPPED: ${engine.reason}`}`, async () => {
    const s = await startTestServer({ runner: engine.runner, work: engine.singleWork });
    try {
      expect(s.billing.runsWork).toBe(true);
      // on the store's thread (with more than two cores, some may overflow to the pool: single-route.ts)
      const ranOn = await hammer([s], s.billing, 'search');
      expect((ranOn.store ?? 0) + (ranOn.pool ?? 0)).toBe(100);
      expect(ranOn.store).toBeGreaterThan(0);
    } finally {
      await s.close();
    }
  });

  it.skipIf(!pgUp)(`PostgreSQL, one server: the same${pgUp ? '' : ` — SKIPPED: ${PG_SKIP_REASON}`}`, async () => {
    const pg = await freshPgSchema();
    const b = await Billing.fromStore(new PostgresStore(pg.url));
    const s = await startTestServer({ runner: engine.runner, billing: b });
    try {
      await hammer([s], b);
    } finally {
      await s.close();
      await b.close();
      await pg.drop();
    }
  });

  it.skipIf(!pgUp)(`PostgreSQL, two server instances sharing one balance: the same${pgUp ? '' : ` — SKIPPED: ${PG_SKIP_REASON}`}`, async () => {
    const pg = await freshPgSchema();
    const b1 = await Billing.fromStore(new PostgresStore(pg.url));
    const b2 = await Billing.fromStore(new PostgresStore(pg.url));
    const s1 = await startTestServer({ runner: engine.runner, billing: b1 });
    const s2 = await startTestServer({ runner: engine.runner, billing: b2 });
    try {
      await hammer([s1, s2], b1);
    } finally {
      await s1.close();
      await s2.close();
      await b1.close();
      await b2.close();
      await pg.drop();
    }
  });
});
