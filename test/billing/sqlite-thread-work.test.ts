/**
 * The SQLite store's thread running work before a charge commits (src/billing/sqlite/thread-work.ts,
 * issue 20): the work `serve` gives it, a single record's real engine run over the default index
 * (src/adapters/http/single-work.ts), a real worker thread and a real SQLite file, read back.
 * Money as `charge` after the pool's run: the work's record decides the ledger row; 402 and an
 * engine failure charge nothing; a failing step of a group commit fails alone.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { singleRecordWork, type SingleTask } from '../../src/adapters/http/single-work.ts';
import { Billing } from '../../src/billing/billing.ts';
import { ledgerId } from '../../src/billing/ledger-id.ts';
import { Meter } from '../../src/billing/meter.ts';
import { newRequestId } from '../../src/billing/request-id.ts';
import { SqliteThreadStore } from '../../src/billing/sqlite/thread-store.ts';
import { ServiceError } from '../../src/contract/errors.ts';
import type { Op } from '../../src/contract/params.ts';
import { validateElement, type ValidElement } from '../../src/contract/validate.ts';
import { loadDefaultIndex } from '../../src/data/index-file.ts';
import type { Outcome } from '../../src/engine/process.ts';

const dir = mkdtempSync(join(tmpdir(), 'addrflow-thread-work-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const index = await loadDefaultIndex();

const LINES = { countrycode: 'DE', sendercountrycode: 'DE', street: 'Hauptstraße', housenumber: '5', zip: '10115', city: 'Berlin' };

function task(op: Op, element: Record<string, string>): { task: SingleTask } {
  const v = validateElement(op, element);
  if (!v.ok) throw new Error(v.error.errormessage);
  return { task: { op, element: v as ValidElement } };
}

async function billingWith(name: string, indexBuffer: SharedArrayBuffer | undefined): Promise<Billing> {
  return Billing.fromStore(new SqliteThreadStore(join(dir, `${name}.sqlite`), { work: singleRecordWork(indexBuffer) }));
}

/** One record charged after its work, as api.ts charges a single record. */
function chargeAfter(b: Billing, account: string, op: Op, work: { task: SingleTask }) {
  const requestid = newRequestId();
  const id = ledgerId(account, op, { kind: 'http', requestid }, 0);
  return b.chargeAfterWork(account, op, 1, [{ id, requestid }], work);
}

describe('SQLite store thread running a single record before its charge', () => {
  it('a chargeable record: its outcome comes back with the charge, one ledger row, the balance debited', async () => {
    const b = await billingWith('chargeable', index);
    expect(b.runsWork).toBe(true);
    const acc = await b.createAccount({ credits: 100, agreements: ['search', 'lines'] });
    const r = await chargeAfter(b, acc.account, 'search', task('search', { city: 'Paris', country: 'FRA' }));
    const outcome = r.result as Outcome;
    expect(outcome.ok && (outcome.record as { city?: string }).city).toBe('Paris');
    expect(r.settled).toMatchObject({ written: 1, charged: 27, credits: 73 });
    expect(await b.store.ledgerCount(acc.account)).toBe(1);
    expect(await b.balance(acc.account)).toBe(73);
    await b.close();
  });

  it('a record that is not chargeable (a recipient block that cannot be built) is answered and charged nothing', async () => {
    const b = await billingWith('free', index);
    const acc = await b.createAccount({ credits: 100, agreements: ['lines'] });
    const r = await chargeAfter(b, acc.account, 'lines', task('lines', { ...LINES, zip: 'x' }));
    const outcome = r.result as Outcome;
    expect(outcome.ok && !outcome.chargeable).toBe(true);
    expect(r.settled).toMatchObject({ written: 0, charged: 0, credits: 100 });
    expect(await b.store.ledgerCount(acc.account)).toBe(0);
    await b.close();
  });

  it('402 when the balance does not cover the record, whatever its outcome: nothing written', async () => {
    const b = await billingWith('poor', index);
    const acc = await b.createAccount({ credits: 26, agreements: ['search'] });
    const m = await Meter.open(b, { license: acc.license, guid: acc.guid }, ['search'], { job: { kind: 'http', requestid: newRequestId() } });
    await expect(m.chargeAfterWork('search', task('search', { city: 'Paris' }))).rejects.toSatisfy((e: unknown) => e instanceof ServiceError && e.status === 402);
    expect(await b.store.ledgerCount(acc.account)).toBe(0);
    expect(await b.balance(acc.account)).toBe(26);
    await b.close();
  });

  it('an engine failure (search without an index) is the record\'s 500 outcome, never charged', async () => {
    const b = await billingWith('no-index', undefined);
    const acc = await b.createAccount({ credits: 100, agreements: ['search'] });
    const r = await chargeAfter(b, acc.account, 'search', task('search', { city: 'Paris' }));
    expect(r.result).toMatchObject({ ok: false, error: { errorcode: 500 } });
    expect(r.settled).toMatchObject({ written: 0, charged: 0, credits: 100 });
    expect(await b.store.ledgerCount(acc.account)).toBe(0);
    await b.close();
  });

  it('group commit: concurrent records share transactions, and a failing step beside them fails alone (their works run again)', async () => {
    const b = await billingWith('group', index);
    const acc = await b.createAccount({ credits: 27 * 50, agreements: ['search'] });
    const records = Array.from({ length: 50 }, () => chargeAfter(b, acc.account, 'search', task('search', { city: 'Berlin' })));
    // a settle of a reservation nobody holds throws in the store: the batch it rides in rolls back
    const broken = b.settle({ id: 'no-such-reservation', accountId: acc.account, op: 'search', records: 1, amount: 27 } as never,
      [{ id: ledgerId(acc.account, 'search', { kind: 'http', requestid: newRequestId() }, 0), requestid: 'x' }]);
    await expect(broken).rejects.toThrow();
    const done = await Promise.all(records);
    expect(done.every((r) => (r.result as Outcome).ok && r.settled.written === 1)).toBe(true);
    expect(await b.balance(acc.account)).toBe(0);
    expect(await b.store.ledgerCount(acc.account)).toBe(50);
    expect(b.commits.totals.batches).toBeLessThan(b.commits.totals.steps);
    await b.close();
  });

  it('close() ends a thread holding the engine by itself (no thread terminated)', async () => {
    const terminate = vi.spyOn(Worker.prototype, 'terminate');
    try {
      const b = await billingWith('ends', index);
      const acc = await b.createAccount({ credits: 100, agreements: ['lines'] });
      expect((await chargeAfter(b, acc.account, 'lines', task('lines', LINES))).settled).toMatchObject({ written: 1 });
      const started = performance.now();
      await b.close();
      expect(performance.now() - started).toBeLessThan(2_000);
      expect(terminate).not.toHaveBeenCalled();
    } finally {
      terminate.mockRestore();
    }
  });

  it('a store started without work refuses work (a caller bug, never a silent two-step)', async () => {
    const b = await Billing.fromStore(new SqliteThreadStore(join(dir, 'plain.sqlite')));
    expect(b.runsWork).toBe(false);
    const acc = await b.createAccount({ credits: 100, agreements: ['search'] });
    await expect(chargeAfter(b, acc.account, 'search', task('search', { city: 'Paris' }))).rejects.toThrow(/without work/);
    expect(await b.store.ledgerCount(acc.account)).toBe(0);
    await b.close();
  });
});
