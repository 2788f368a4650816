/**
 * The one metering path (src/billing/meter.ts) on both stores: leases that a live job renews,
 * the sweep of a dead holder's, ledger ids per account/function/job, and the migration of a
 * schema-1 store (global ledger ids, reservations by age).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { Billing } from '../../src/billing/billing.ts';
import { Meter } from '../../src/billing/meter.ts';
import { writtenPositions } from '../../src/billing/meter-types.ts';
import { PostgresStore } from '../../src/billing/postgres/store.ts';
import { SqliteStore } from '../../src/billing/sqlite/store.ts';
import type { BillingStore } from '../../src/billing/store.ts';
import { dropSchema, PG_SKIP_REASON, PG_URL, pgUrlWithSchema, postgresReachable, uniqueSchema } from '../helpers/postgres.ts';

const dir = mkdtempSync(join(tmpdir(), 'addrflow-meter-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const pgUp = await postgresReachable();

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Stores {
  /** Two connections to one fresh store (two processes). */
  open(): Promise<[BillingStore, BillingStore]>;
  cleanup(): Promise<void>;
}

function sqliteStores(): Stores {
  const file = join(dir, `m-${Math.random().toString(36).slice(2)}.sqlite`);
  return { open: async () => [new SqliteStore(file), new SqliteStore(file)], cleanup: async () => {} };
}

function pgStores(): Stores {
  const schema = uniqueSchema('meter');
  return {
    open: async () => [new PostgresStore(pgUrlWithSchema(schema)), new PostgresStore(pgUrlWithSchema(schema))],
    cleanup: () => dropSchema(schema),
  };
}

function leaseSuite(make: () => Stores): void {
  it('a slow live job keeps its reservation past many leases (renewed); a dead holder\'s is swept once its lease ends', async () => {
    const stores = make();
    const [s1, s2] = await stores.open();
    const LEASE = 300;
    const live = await Billing.fromStore(s1, { leaseMs: LEASE });
    const sweeper = await Billing.fromStore(s2, { leaseMs: LEASE });
    try {
      const acc = await live.createAccount({ credits: 10 * 20, agreements: ['lines'] });
      // the live job: a hold it keeps for ~7 leases (a job slowed by its output)
      const meter = new Meter(live, acc.account, { kind: 'file', jobId: 'slow-job' });
      const hold = await meter.hold([1, 2, 3, 4, 5].map((p) => ({ op: 'lines' as const, record: p })), { partial: true });
      expect(hold.covered).toBe(5);
      // a dead holder: a reservation nobody renews (its process was killed)
      await live.reserve(acc.account, 'lines', 2);
      expect((await live.findAccount({ id: acc.account }))!.reserved).toBe(7 * 20);
      let swept = 0;
      const until = Date.now() + 7 * LEASE;
      while (Date.now() < until) {
        swept += await sweeper.releaseExpired(); // another process sweeping all the time
        await sleep(LEASE / 4);
      }
      expect(swept).toBe(1); // the dead holder's reservation, only
      expect((await sweeper.findAccount({ id: acc.account }))!.reserved).toBe(5 * 20);
      const s = await meter.settle(hold, [true, true, true, true, false]);
      expect(s.credits).toBe(4 * 20);
      expect(s.entries.map((e) => e.id)).toEqual([1, 2, 3, 4].map((p) => `${acc.account}/lines/file:slow-job/${p}`));
      const after = (await sweeper.findAccount({ id: acc.account }))!;
      expect([after.credits, after.reserved]).toEqual([6 * 20, 0]);
      await meter.close();
    } finally {
      await live.close();
      await sweeper.close();
      await stores.cleanup();
    }
  });

  it('200 concurrent holds over two connections against a balance for 100: exactly 100 charged once', async () => {
    const stores = make();
    const [s1, s2] = await stores.open();
    const b1 = await Billing.fromStore(s1);
    const b2 = await Billing.fromStore(s2);
    try {
      const acc = await b1.createAccount({ credits: 100 * 20, agreements: ['lines'] });
      const outcomes = await Promise.all(Array.from({ length: 200 }, async (_, i) => {
        const m = new Meter(i % 2 ? b1 : b2, acc.account, { kind: 'http', requestid: `r-${i}` });
        try {
          const h = await m.hold([{ op: 'lines', record: 0 }], { partial: false });
          await sleep(Math.random() * 5);
          return (await m.settle(h, [true])).credits;
        } catch (err) {
          if ((err as { status?: number }).status === 402) return 0;
          throw err;
        }
      }));
      expect(outcomes.filter((c) => c === 20)).toHaveLength(100);
      const a = (await b1.findAccount({ id: acc.account }))!;
      expect([a.credits, a.reserved, await b1.store.ledgerCount(acc.account)]).toEqual([0, 0, 100]);
    } finally {
      await b1.close();
      await b2.close();
      await stores.cleanup();
    }
  });
}

describe('Meter on SQLite', () => leaseSuite(sqliteStores));
(pgUp ? describe : describe.skip)(pgUp ? 'Meter on PostgreSQL' : `Meter on PostgreSQL — SKIPPED: ${PG_SKIP_REASON}`, () => leaseSuite(pgStores));

/** The schema-1 tables, as the previous addrflow created them. */
const V1_TABLES = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE accounts (id TEXT PRIMARY KEY, license_hash TEXT NOT NULL UNIQUE, guid_hash TEXT NOT NULL UNIQUE,
  credits BIGINT NOT NULL, reserved BIGINT NOT NULL DEFAULT 0, agreements TEXT NOT NULL DEFAULT '', disabled BOOLEAN NOT NULL DEFAULT false, created_at TEXT NOT NULL);
CREATE TABLE reservations (id TEXT PRIMARY KEY, account_id TEXT NOT NULL REFERENCES accounts(id), amount BIGINT NOT NULL, created_at TEXT NOT NULL);
CREATE TABLE ledger (id TEXT PRIMARY KEY, account_id TEXT NOT NULL REFERENCES accounts(id), function TEXT NOT NULL, credits BIGINT NOT NULL, request_id TEXT NOT NULL, created_at TEXT NOT NULL);
INSERT INTO meta VALUES ('pepper', 'old-pepper'), ('maintenance', '0');
INSERT INTO accounts VALUES ('acc-1', 'lh', 'gh', 1000, 40, 'lines', false, '2026-01-01T00:00:00.000Z');
INSERT INTO reservations VALUES ('res-old', 'acc-1', 40, '2026-01-01T00:00:00.000Z');
INSERT INTO ledger VALUES ('file:0123abcd/1', 'acc-1', 'lines', 20, 'rq', '2026-01-01T00:00:00.000Z'),
  ('orders/0/17', 'acc-1', 'lines', 20, 'rq', '2026-01-01T00:00:00.000Z'),
  ('01900000-0000-7000-8000-000000000000/0', 'acc-1', 'lines', 20, 'rq', '2026-01-01T00:00:00.000Z');
`;

async function checkMigrated(store: BillingStore): Promise<void> {
  const b = await Billing.fromStore(store);
  try {
    const ids = (await b.ledger('acc-1')).map((e) => e.id).sort();
    expect(ids).toEqual([
      'acc-1/lines/legacy:01900000-0000-7000-8000-000000000000/0', 'acc-1/lines/legacy:file:0123abcd/1', 'acc-1/lines/legacy:orders/0/17',
    ]);
    // the old reservation had no lease: it is expired and swept; the balance is untouched
    expect(await b.releaseExpired()).toBe(1);
    const a = (await b.findAccount({ id: 'acc-1' }))!;
    expect([a.credits, a.reserved]).toEqual([1000, 0]);
    // a job that once rode on `file:0123abcd/1` is now a new job and is charged
    const m = new Meter(b, 'acc-1', { kind: 'file', jobId: 'new' });
    const h = await m.hold([{ op: 'lines', record: 1 }], { partial: true });
    expect((await m.settle(h, [true])).credits).toBe(20);
  } finally {
    await b.close();
  }
  // opening again changes nothing (the migration ran once)
  const again = await Billing.fromStore(store instanceof SqliteStore ? new SqliteStore(store.path) : new PostgresStore(pgUrlWithSchema((store as PostgresStore).schema!)));
  try {
    expect((await again.ledger('acc-1')).filter((e) => e.id.includes('legacy:legacy:'))).toEqual([]);
    expect(await again.store.ledgerCount('acc-1')).toBe(4);
  } finally {
    await again.close();
  }
}

describe('migration of a schema-1 store (global ledger ids)', () => {
  it('SQLite: ids become <account>/<function>/legacy:<old id>, schema_version 2, old reservations expire', async () => {
    const file = join(dir, 'v1.sqlite');
    const db = new DatabaseSync(file);
    db.exec(V1_TABLES);
    db.close();
    await checkMigrated(new SqliteStore(file));
    const check = new DatabaseSync(file);
    expect((check.prepare(`SELECT value FROM meta WHERE key = 'schema_version'`).get() as { value: string }).value).toBe('2');
    check.close();
  });

  it.skipIf(!pgUp)(`PostgreSQL: the same${pgUp ? '' : ` — SKIPPED: ${PG_SKIP_REASON}`}`, async () => {
    const schema = uniqueSchema('v1');
    const c = new pg.Client({ connectionString: PG_URL });
    await c.connect();
    try {
      await c.query(`CREATE SCHEMA ${schema}; SET search_path = ${schema};`);
      await c.query(V1_TABLES.replaceAll("'2026-01-01T00:00:00.000Z'", "'2026-01-01T00:00:00.000Z'::timestamptz").replaceAll('created_at TEXT', 'created_at TIMESTAMPTZ'));
    } finally {
      await c.end();
    }
    try {
      await checkMigrated(new PostgresStore(pgUrlWithSchema(schema)));
    } finally {
      await dropSchema(schema);
    }
  });
});

describe('writtenPositions (meter-types.ts): which items the store wrote', () => {
  const charges = ['a', 'b', 'c', 'd'].map((id) => ({ id, requestid: 'r' }));
  const at = [1, 4, 5, 9];
  it('the written ids in the order given: one walk', () => {
    expect(writtenPositions(charges, at, ['a', 'b', 'c', 'd'])).toEqual([1, 4, 5, 9]);
    expect(writtenPositions(charges, at, ['b', 'd'])).toEqual([4, 9]);
    expect(writtenPositions(charges, at, [])).toEqual([]);
  });
  it('in another order: by id, in item order', () => {
    expect(writtenPositions(charges, at, ['d', 'a', 'c'])).toEqual([1, 5, 9]);
  });
});
