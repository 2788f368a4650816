/**
 * `addrflow_money_charges` (the set-based path for a batch of charges) answers and writes exactly
 * what `addrflow_money_batch` (the steps one by one) does: the same random batches run through each
 * on two schemas that start alike, and after every batch the answers (or the error) and after all
 * of them every account, ledger row and stored answer are compared. The batches mix accounts that
 * cover them, accounts that do not (the loop decides those), an unlimited account, an account with
 * reservations, a missing account, replayed ledger ids, charges with no ledger row and charges
 * that store an Idempotency-Key answer. Needs PostgreSQL (skipped with the reason otherwise).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { PostgresStore } from '../../src/billing/postgres/store.ts';
import { batchArgument, batchFunction } from '../../src/billing/postgres/batch-function.ts';
import type { LedgerEntry, MoneyStep } from '../../src/billing/store.ts';
import { dropSchema, PG_SKIP_REASON, PG_URL, pgUrlWithSchema, postgresReachable, uniqueSchema } from '../helpers/postgres.ts';

const charge = (account: string, amount: number, entries: LedgerEntry[], key?: string): MoneyStep => {
  const t = '2026-11-26T12:00:00.000Z';
  return {
    kind: 'charge', reservation: { id: `res-${account}-${entries[0]?.id ?? Math.random()}`, accountId: account, amount, createdAt: t, expiresAt: t },
    entries, opts: key ? { answer: { key, template: { status: 200, contentType: 'application/json', parts: ['{"credits":', '}'] } } } : {},
  };
};
const entry = (account: string, id: string, credits: number): LedgerEntry =>
  ({ id: `${account}/lines/${id}`, account, function: 'lines', credits, requestid: `rq-${id}`, time: '2026-11-26T12:00:00.000Z' });

describe('batchFunction: which function a batch goes to', () => {
  const e = (id: string) => entry('a', id, 1);
  it('sends three or more charges with distinct ledger ids to addrflow_money_charges, every other batch to the loop', () => {
    expect(batchFunction([charge('a', 1, [e('1')]), charge('a', 1, [e('2')]), charge('a', 1, [])])).toBe('addrflow_money_charges');
    expect(batchFunction([charge('a', 1, [e('1')])])).toBe('addrflow_money_batch');
    expect(batchFunction([charge('a', 1, [e('1')]), charge('a', 1, [e('2')])])).toBe('addrflow_money_batch');
    expect(batchFunction([charge('a', 1, [e('1')]), charge('b', 1, [e('1')])])).toBe('addrflow_money_batch');
    expect(batchFunction([charge('a', 1, [e('1')]), { kind: 'release', reservationId: 'r' }])).toBe('addrflow_money_batch');
  });
});

const up = await postgresReachable();

(up ? describe : describe.skip)(up ? 'addrflow_money_charges ≡ addrflow_money_batch (PostgreSQL)' : `addrflow_money_charges ≡ addrflow_money_batch — SKIPPED: ${PG_SKIP_REASON}`, () => {
  const schemas = [uniqueSchema('loop'), uniqueSchema('sets')] as const;
  const clients: pg.Client[] = [];
  const ACCOUNTS = [['rich', 1_000_000], ['mid', 40], ['poor', 6], ['broke', 0], ['unlimited', -1], ['held', 30]] as const;

  beforeAll(async () => {
    for (const schema of schemas) {
      const store = new PostgresStore(pgUrlWithSchema(schema));
      await store.init();
      for (const [id, credits] of ACCOUNTS) {
        await store.createAccount({ id, licenseHash: `l-${id}`, guidHash: `g-${id}`, credits, reserved: 0, agreements: ['lines'], disabled: false, createdAt: '2026-11-26T00:00:00.000Z' });
      }
      await store.close();
      const c = new pg.Client({ connectionString: PG_URL });
      await c.connect();
      await c.query(`SET search_path = ${schema}`);
      // credits held by another server's reservation, and ledger ids charged before (replays)
      await c.query(`UPDATE accounts SET reserved = 25 WHERE id = 'held'`);
      await c.query(`INSERT INTO ledger (id, account_id, function, credits, request_id, created_at) VALUES ('mid/lines/old-1', 'mid', 'lines', 1, 'x', '2026-11-25T00:00:00Z'), ('rich/lines/old-2', 'rich', 'lines', 1, 'x', '2026-11-25T00:00:00Z')`);
      clients.push(c);
    }
  });
  afterAll(async () => {
    for (const c of clients) await c.end().catch(() => {});
    for (const s of schemas) await dropSchema(s);
  });

  async function both(sql: string, params: unknown[] = []): Promise<[unknown, unknown]> {
    const run = (c: pg.Client, fn: string) => c.query(sql.replace('$FN', fn), params).then((r) => r.rows, () => ({ error: true }));
    return [await run(clients[0]!, 'addrflow_money_batch'), await run(clients[1]!, 'addrflow_money_charges')];
  }

  /** Whether the balances before the batch cover every account's charges in it (the set-based way). */
  async function coversAll(steps: MoneyStep[]): Promise<boolean> {
    const rows = (await clients[0]!.query<{ id: string; credits: string; reserved: string }>('SELECT id, credits, reserved FROM accounts')).rows;
    const need = new Map<string, number>();
    for (const s of steps) if (s.kind === 'charge') need.set(s.reservation.accountId, (need.get(s.reservation.accountId) ?? 0) + s.reservation.amount);
    return [...need].every(([id, amount]) => {
      const a = rows.find((r) => r.id === id);
      return !!a && (a.credits === '-1' || Number(a.credits) - Number(a.reserved) >= amount);
    });
  }

  it('answers every random batch alike and leaves the same accounts, ledger and stored answers', async () => {
    let seed = 20261126;
    const rnd = (n: number) => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
    let next = 0;
    let covered = 0;
    let uncovered = 0;
    for (let b = 0; b < 200; b++) {
      // credits bought now and then, so that the small accounts go on being covered as well as not
      if (b % 25 === 0) for (const c of clients) await c.query(`UPDATE accounts SET credits = credits + 8 WHERE id IN ('mid', 'poor', 'broke')`);
      const steps: MoneyStep[] = [];
      const n = 3 + rnd(8);
      for (let i = 0; i < n; i++) {
        const account = rnd(12) === 0 ? 'missing' : ACCOUNTS[rnd(ACCOUNTS.length)]![0];
        const amount = 1 + rnd(3);
        const entries: LedgerEntry[] = [];
        const k = rnd(5) === 0 ? 0 : 1 + rnd(amount);
        for (let j = 0; j < k; j++) entries.push(rnd(15) === 0 ? entry(account, rnd(2) ? 'old-1' : 'old-2', 1) : entry(account, `e${next++}`, 1));
        let key: string | undefined;
        if (rnd(4) === 0) {
          key = `k${next++}`;
          for (const c of clients) await c.query(`INSERT INTO idempotency_keys (account_id, key, fingerprint, state, created_at) SELECT $1, $2, 'fp', 'pending', '2026-11-26T00:00:00Z' WHERE EXISTS (SELECT 1 FROM accounts WHERE id = $1)`, [account, key]);
        }
        steps.push(charge(account, amount, entries, key));
      }
      if (batchFunction(steps) !== 'addrflow_money_charges') continue; // a replayed id twice in one batch
      if (await coversAll(steps)) covered++;
      else uncovered++;
      const [loop, sets] = await both('SELECT $FN($1::jsonb) AS out', [batchArgument(steps)]);
      expect(sets, `batch ${b}`).toEqual(loop);
    }
    // both ways of addrflow_money_charges were taken, often: set-based, and handed to the loop
    expect(covered).toBeGreaterThan(40);
    expect(uncovered).toBeGreaterThan(40);
    for (const table of ['SELECT id, credits, reserved FROM accounts ORDER BY id', 'SELECT id, account_id, function, credits, request_id, created_at, exported FROM ledger ORDER BY id',
      'SELECT account_id, key, state, status, content_type, body FROM idempotency_keys ORDER BY account_id, key']) {
      const [a, b] = await both(table);
      expect(b, table).toEqual(a);
    }
  });

  it('raises, as the loop does, when a charge writes more credits than it holds', async () => {
    const steps = [charge('rich', 1, [entry('rich', 'over-1', 2)]), charge('rich', 1, [entry('rich', 'over-2', 1)])];
    const [loop, sets] = await both('SELECT $FN($1::jsonb) AS out', [batchArgument(steps)]);
    expect(loop).toHaveProperty('error');
    expect(sets).toHaveProperty('error');
    const [a, b] = await both(`SELECT count(*) AS n FROM ledger WHERE id LIKE 'rich/lines/over-%'`);
    expect(a).toEqual([{ n: '0' }]);
    expect(b).toEqual(a);
  });
});
