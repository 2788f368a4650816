/**
 * The billing contract, run against every store (sqlite-store.test.ts, postgres-store.test.ts).
 * `open()` must return a fresh, empty store; `openSecond()` a second connection to the SAME data
 * (a second server instance or process).
 */
import { beforeAll, afterAll, describe, expect, it } from 'vitest';
import { ServiceError } from '../../src/contract/errors.ts';
import { Billing } from '../../src/billing/billing.ts';
import { isRequestId, newRequestId } from '../../src/billing/request-id.ts';
import { answerTemplate, type BillingStore } from '../../src/billing/store.ts';
import { ledgerId } from '../../src/billing/ledger-id.ts';

/** A scoped ledger id (account/function/job/record) of an HTTP request. */
const lid = (account: string, op: 'search' | 'lines', rid: string, rec: string | number) => ledgerId(account, op, { kind: 'http', requestid: rid }, rec);
/** Settle results without the written ids (compared separately where they matter). */
const sum = (r: { written: number; charged: number; credits: number }) => ({ written: r.written, charged: r.charged, credits: r.credits });

export interface StoreFactory {
  open(): Promise<BillingStore>;
  openSecond(): Promise<BillingStore>;
  cleanup?(): Promise<void>;
}

async function status(p: Promise<unknown>): Promise<number | 'ok'> {
  try {
    await p;
    return 'ok';
  } catch (err) {
    if (err instanceof ServiceError) return err.status;
    throw err;
  }
}

export function storeContract(f: StoreFactory): void {
  let billing: Billing;
  let second: Billing;

  beforeAll(async () => {
    billing = await Billing.fromStore(await f.open());
    second = await Billing.fromStore(await f.openSecond());
  });
  afterAll(async () => {
    await billing?.close();
    await second?.close();
    await f.cleanup?.();
  });

  describe('accounts', () => {
    it('creates an account with a license XXXXX-XXXXX-XXXXX-XXXXX-XXXXX and a UUID guid, stored hashed', async () => {
      const c = await billing.createAccount({ credits: 100, agreements: ['lines'] });
      expect(c.license).toMatch(/^[A-Z0-9]{5}(-[A-Z0-9]{5}){4}$/);
      expect(c.license).toHaveLength(29);
      expect(c.guid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      const row = await billing.store.findAccount({ id: c.account });
      expect(row).toBeDefined();
      const flat = JSON.stringify(row);
      expect(flat).not.toContain(c.license);
      expect(flat).not.toContain(c.guid);
      expect(row!.licenseHash).toMatch(/^[0-9a-f]{64}$/);
      expect(row!.guidHash).toMatch(/^[0-9a-f]{64}$/);
      expect(row!.credits).toBe(100);
    });

    it('two accounts get different secrets', async () => {
      const a = await billing.createAccount();
      const b = await billing.createAccount();
      expect(a.license).not.toBe(b.license);
      expect(a.guid).not.toBe(b.guid);
    });

    it('finds an account by guid, license or id, and the second instance sees the same pepper', async () => {
      const c = await billing.createAccount({ credits: 5 });
      expect((await billing.findAccount({ guid: c.guid }))?.id).toBe(c.account);
      expect((await billing.findAccount({ license: c.license }))?.id).toBe(c.account);
      expect((await second.findAccount({ guid: c.guid }))?.id).toBe(c.account);
      expect(await billing.findAccount({ guid: 'nope' })).toBeUndefined();
    });

    it('tops up, agrees, disables', async () => {
      const c = await billing.createAccount({ credits: 10 });
      expect((await billing.topup({ guid: c.guid }, 32)).credits).toBe(42);
      expect((await billing.setAgreements({ id: c.account }, ['search', 'lines'])).agreements).toEqual(['search', 'lines']);
      expect((await billing.setDisabled({ license: c.license }, true)).disabled).toBe(true);
      const u = await billing.topup({ id: c.account }, 'unlimited');
      expect(u.credits).toBe(-1);
      expect(u.unlimited).toBe(true);
      expect((await billing.topup({ id: c.account }, 5)).credits).toBe(-1);
    });
  });

  describe('authenticate', () => {
    it('accepts the right pair for an agreed function', async () => {
      const c = await billing.createAccount({ credits: 1, agreements: ['search'] });
      const a = await billing.authenticate({ license: c.license, guid: c.guid }, 'search');
      expect(a.id).toBe(c.account);
      expect(a).not.toHaveProperty('guidHash');
    });

    it('401 for an unknown license, a wrong guid, or a disabled account; 403 without the agreement', async () => {
      const c = await billing.createAccount({ credits: 1, agreements: ['search'] });
      const other = await billing.createAccount({ credits: 1, agreements: ['search'] });
      expect(await status(billing.authenticate({ license: 'AAAAA-AAAAA-AAAAA-AAAAA-AAAAA', guid: c.guid }, 'search'))).toBe(401);
      expect(await status(billing.authenticate({ license: c.license, guid: other.guid }, 'search'))).toBe(401);
      expect(await status(billing.authenticate({ license: c.license, guid: c.guid.toUpperCase() }, 'search'))).toBe(401);
      expect(await status(billing.authenticate({ license: c.license, guid: c.guid }, 'lines'))).toBe(403);
      await billing.setDisabled({ id: c.account }, true);
      expect(await status(billing.authenticate({ license: c.license, guid: c.guid }, 'search'))).toBe(401);
      await billing.setDisabled({ id: c.account }, false);
      expect(await status(billing.authenticate({ license: c.license, guid: c.guid }, 'search'))).toBe('ok');
    });
  });

  describe('reserve → settle', () => {
    it('refuses with 402 when price × records exceeds the balance, holding nothing', async () => {
      const c = await billing.createAccount({ credits: 53, agreements: ['search'] });
      expect(await status(billing.reserve(c.account, 'search', 2))).toBe(402); // 54 > 53
      const row = await billing.store.findAccount({ id: c.account });
      expect(row!.reserved).toBe(0);
      const r = await billing.reserve(c.account, 'search', 1); // 27 ≤ 53
      expect(r.amount).toBe(27);
      expect(await status(billing.reserve(c.account, 'search', 1))).toBe(402); // 27 + 27 > 53
      await billing.release(r);
      expect((await billing.store.findAccount({ id: c.account }))!.reserved).toBe(0);
      expect(await billing.balance(c.account)).toBe(53);
    });

    it('prices are 27 (search) and 20 (lines) per record', async () => {
      const c = await billing.createAccount({ credits: 1000 });
      const s = await billing.reserve(c.account, 'search', 3);
      const l = await billing.reserve(c.account, 'lines', 3);
      expect(s.amount).toBe(81);
      expect(l.amount).toBe(60);
      const rid = newRequestId();
      await billing.settle(s, [0, 1].map((i) => ({ id: lid(c.account, 'search', rid, i), requestid: rid })));
      await billing.settle(l, [0, 1].map((i) => ({ id: lid(c.account, 'lines', rid, i), requestid: rid })));
      expect(await billing.balance(c.account)).toBe(1000 - 54 - 40);
    });

    it('settle writes one ledger entry per charge, debits them, releases the rest', async () => {
      const c = await billing.createAccount({ credits: 100 });
      const r = await billing.reserve(c.account, 'lines', 5);
      const rid = newRequestId();
      const s = await billing.settle(r, [0, 2, 4].map((i) => ({ id: lid(c.account, 'lines', rid, i), requestid: rid })));
      expect(sum(s)).toEqual({ written: 3, charged: 60, credits: 40 });
      expect(s.writtenIds.sort()).toEqual([0, 2, 4].map((i) => lid(c.account, 'lines', rid, i)).sort());
      const row = await billing.store.findAccount({ id: c.account });
      expect(row!.credits).toBe(40);
      expect(row!.reserved).toBe(0);
      const ledger = await billing.ledger(c.account);
      expect(ledger.map((e) => e.id).sort()).toEqual([0, 2, 4].map((i) => lid(c.account, "lines", rid, i)).sort());
      for (const e of ledger) {
        expect(e).toMatchObject({ account: c.account, function: 'lines', credits: 20, requestid: rid });
        expect(Number.isNaN(Date.parse(e.time))).toBe(false);
        expect(Math.abs(Date.parse(e.time) - Date.now())).toBeLessThan(60_000);
      }
      expect(isRequestId(rid)).toBe(true);
    });

    it('is idempotent on ledger ids: a replay never charges twice', async () => {
      const c = await billing.createAccount({ credits: 100 });
      const job = { kind: 'kafka' as const, topicId: '4c80675b-d222-4670-acd4-0661a08ed906', group: 'g' };
      const id = (o: number) => ledgerId(c.account, 'lines', job, `0/${o}`);
      const ids = [id(17), id(18)];
      const r1 = await billing.reserve(c.account, 'lines', 2);
      const s1 = await billing.settle(r1, ids.map((id) => ({ id, requestid: 'req-1' })));
      expect(s1.charged).toBe(40);
      // The same records again (a consumer restarted before committing its offsets).
      const r2 = await billing.reserve(c.account, 'lines', 2);
      const s2 = await billing.settle(r2, ids.map((id) => ({ id, requestid: 'req-2' })));
      expect(sum(s2)).toEqual({ written: 0, charged: 0, credits: 60 });
      // One old, one new.
      const r3 = await billing.reserve(c.account, 'lines', 2);
      const s3 = await billing.settle(r3, [{ id: id(18), requestid: 'x' }, { id: id(19), requestid: 'x' }]);
      expect(sum(s3)).toEqual({ written: 1, charged: 20, credits: 40 });
      expect(s3.writtenIds).toEqual([id(19)]);
      // Settling the same reservation again (a retried call) is a no-op.
      const s4 = await billing.settle(r3, [{ id: id(18), requestid: 'x' }, { id: id(19), requestid: 'x' }]);
      expect(sum(s4)).toEqual({ written: 0, charged: 0, credits: 40 });
      expect(await billing.store.ledgerCount(c.account)).toBe(3);
      expect((await billing.store.findAccount({ id: c.account }))!.reserved).toBe(0);
      expect((await billing.store.ledgerEntry(c.account, id(17)))!.requestid).toBe('req-1');
    });

    it('a ledger id belongs to one account and one function: settle refuses another, lookups need the account', async () => {
      const a = await billing.createAccount({ credits: 100 });
      const b = await billing.createAccount({ credits: 100 });
      const rid = newRequestId();
      const r = await billing.reserve(a.account, 'lines', 1);
      await expect(billing.settle(r, [{ id: lid(b.account, 'lines', rid, 0), requestid: rid }])).rejects.toThrow(/does not belong/);
      await expect(billing.settle(r, [{ id: lid(a.account, 'search', rid, 0), requestid: rid }])).rejects.toThrow(/does not belong/);
      await billing.settle(r, [{ id: lid(a.account, 'lines', rid, 0), requestid: rid }]);
      expect(await billing.store.ledgerEntry(a.account, lid(a.account, 'lines', rid, 0))).toBeDefined();
      expect(await billing.store.ledgerEntry(b.account, lid(a.account, 'lines', rid, 0))).toBeUndefined();
      expect(await billing.store.ledgerIdsPresent(b.account, [lid(a.account, 'lines', rid, 0)])).toEqual(new Set());
      expect(await billing.store.ledgerIdsPresent(a.account, [lid(a.account, 'lines', rid, 0), lid(a.account, 'lines', rid, 1)]))
        .toEqual(new Set([lid(a.account, 'lines', rid, 0)]));
    });

    it('refuses to settle new charges against an unknown reservation, writing nothing', async () => {
      const c = await billing.createAccount({ credits: 100 });
      const r = await billing.reserve(c.account, 'lines', 1);
      await billing.release(r);
      const orphan = lid(c.account, 'lines', newRequestId(), 1);
      await expect(billing.settle(r, [{ id: orphan, requestid: 'x' }])).rejects.toThrow(/unknown or already settled/);
      expect(await billing.store.ledgerEntry(c.account, orphan)).toBeUndefined();
      expect(await billing.balance(c.account)).toBe(100);
    });

    it('refuses more charges than reserved records', async () => {
      const c = await billing.createAccount({ credits: 100 });
      const r = await billing.reserve(c.account, 'lines', 1);
      await expect(billing.settle(r, [{ id: lid(c.account, 'lines', 'r', 'a'), requestid: 'x' }, { id: lid(c.account, 'lines', 'r', 'b'), requestid: 'x' }])).rejects.toThrow(/2 charges/);
      await billing.release(r);
    });

    it('unlimited accounts (-1) are never refused, never debited, and still get ledger entries', async () => {
      const c = await billing.createAccount({ unlimited: true, agreements: ['search'] });
      const r = await billing.reserve(c.account, 'search', 5000);
      const rid = newRequestId();
      const s = await billing.settle(r, Array.from({ length: 5000 }, (_, i) => ({ id: lid(c.account, 'search', rid, i), requestid: rid })));
      expect(sum(s)).toEqual({ written: 5000, charged: 0, credits: -1 });
      expect(await billing.balance(c.account)).toBe(-1);
      expect(await billing.store.ledgerCount(c.account)).toBe(5000);
      expect((await billing.ledger(c.account, 1))[0]!.credits).toBe(27);
    });

    it('zero records reserve nothing and settle nothing', async () => {
      const c = await billing.createAccount({ credits: 0 });
      const r = await billing.reserve(c.account, 'search', 0);
      expect(r.amount).toBe(0);
      expect(await billing.settle(r, [])).toMatchObject({ written: 0, writtenIds: [], charged: 0, credits: 0 });
    });

    it('a reservation is a lease: renewed it survives a sweep, expired it is released', async () => {
      const c = await billing.createAccount({ credits: 40 });
      const live = await billing.reserve(c.account, 'lines', 1);
      const dead = await billing.reserve(c.account, 'lines', 1);
      expect(await status(billing.reserve(c.account, 'lines', 1))).toBe(402);
      // an hour later, seen by another process: the live holder renewed, the dead one did not
      const later = new Date(Date.now() + 3600_000).toISOString();
      expect(await billing.store.renew([live.id], new Date(Date.now() + 7200_000).toISOString())).toBe(1);
      expect(await second.store.releaseExpired(later)).toBe(1);
      expect((await billing.store.findAccount({ id: c.account }))!.reserved).toBe(20);
      const rid = newRequestId();
      expect((await billing.settle(live, [{ id: lid(c.account, 'lines', rid, 0), requestid: rid }])).charged).toBe(20);
      await expect(billing.settle(dead, [{ id: lid(c.account, 'lines', rid, 1), requestid: rid }])).rejects.toThrow(/unknown or already settled/);
      expect((await billing.store.findAccount({ id: c.account }))!.reserved).toBe(0);
      expect(await billing.balance(c.account)).toBe(20);
    });
  });

  describe('idempotency keys', () => {
    const answer = { status: 200, contentType: 'application/json; charset=UTF-8', body: '{"a":1}' };
    it('claim → complete → the answer again; another account\'s key is its own; expired keys are swept', async () => {
      const a = await billing.createAccount({ credits: 1 });
      const b = await billing.createAccount({ credits: 1 });
      expect(await billing.claimIdempotencyKey(a.account, 'k1', 'fp')).toEqual({ state: 'claimed' });
      expect(await second.claimIdempotencyKey(a.account, 'k1', 'fp')).toEqual({ state: 'pending', fingerprint: 'fp' });
      expect(await second.claimIdempotencyKey(b.account, 'k1', 'fp')).toEqual({ state: 'claimed' });
      await billing.completeIdempotencyKey(a.account, 'k1', answer);
      expect(await second.claimIdempotencyKey(a.account, 'k1', 'fp2')).toEqual({ state: 'done', fingerprint: 'fp', answer });
      await second.abandonIdempotencyKey(b.account, 'k1');
      expect(await billing.claimIdempotencyKey(b.account, 'k1', 'fp')).toEqual({ state: 'claimed' });
      // 25 h later the answer is gone
      const t = Date.now() + 25 * 3600_000;
      const swept = await billing.store.sweepIdempotencyKeys(new Date(t - 24 * 3600_000).toISOString());
      expect(swept).toBeGreaterThanOrEqual(2);
      expect(await billing.claimIdempotencyKey(a.account, 'k1', 'fp')).toEqual({ state: 'claimed' });
    });

    it('a settle stores the answer of its key in the same transaction; a settle that fails stores nothing', async () => {
      const a = await billing.createAccount({ credits: 100, agreements: ['lines'] });
      expect(await billing.claimIdempotencyKey(a.account, 'k-settle', 'fp')).toEqual({ state: 'claimed' });
      const r = await billing.reserve(a.account, 'lines', 1);
      const rid = newRequestId();
      const render = (balance: number | string) => ({ status: 200, contentType: 'application/json; charset=UTF-8', body: `{"availablecredits":"${balance}"}` });
      const template = answerTemplate(200, render);
      await billing.settle(r, [{ id: lid(a.account, 'lines', rid, 0), requestid: rid }], { answer: { key: 'k-settle', template } });
      // a retry (after a crash of the server that answered) is answered from the store
      expect(await second.claimIdempotencyKey(a.account, 'k-settle', 'fp')).toEqual({ state: 'done', fingerprint: 'fp', answer: render(80) });
      // against a reservation that is gone, settle refuses and the key stays pending
      expect(await billing.claimIdempotencyKey(a.account, 'k-fail', 'fp')).toEqual({ state: 'claimed' });
      const rid2 = newRequestId();
      await expect(billing.settle({ ...r, id: newRequestId() }, [{ id: lid(a.account, 'lines', rid2, 0), requestid: rid2 }], { answer: { key: 'k-fail', template } }))
        .rejects.toThrow(/unknown or already settled/);
      expect(await second.claimIdempotencyKey(a.account, 'k-fail', 'fp')).toEqual({ state: 'pending', fingerprint: 'fp' });
      expect(await billing.balance(a.account)).toBe(80);
    });

    it('of concurrent claims of one key exactly one wins', async () => {
      const a = await billing.createAccount({ credits: 1 });
      const claims = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? billing : second).claimIdempotencyKey(a.account, 'same', 'fp')));
      expect(claims.filter((c) => c.state === 'claimed')).toHaveLength(1);
    });
  });

  describe('concurrency (two instances sharing one store)', () => {
    it('200 concurrent one-record requests against a balance for 100: exactly 100 charged, balance 0', async () => {
      const c = await billing.createAccount({ credits: 100 * 20, agreements: ['lines'] });
      const instances = [billing, second];
      const results = await Promise.all(Array.from({ length: 200 }, async (_, i) => {
        const b = instances[i % 2]!;
        let r;
        try {
          r = await b.reserve(c.account, 'lines', 1);
        } catch (err) {
          if (err instanceof ServiceError && err.status === 402) return 402;
          throw err;
        }
        await new Promise((res) => setTimeout(res, Math.random() * 5));
        const rid = newRequestId();
        await b.settle(r, [{ id: lid(c.account, 'lines', rid, 0), requestid: rid }]);
        return 200;
      }));
      expect(results.filter((s) => s === 200)).toHaveLength(100);
      expect(results.filter((s) => s === 402)).toHaveLength(100);
      expect(await billing.balance(c.account)).toBe(0);
      expect(await billing.store.ledgerCount(c.account)).toBe(100);
      expect((await billing.store.findAccount({ id: c.account }))!.reserved).toBe(0);
    });
  });

  describe('charge (reserve and settle in one step)', () => {
    it('charges what ran, or refuses with 402 writing nothing, exactly as a reserve would decide', async () => {
      const c = await billing.createAccount({ credits: 2 * 20 + 5, agreements: ['lines'] });
      const rid = newRequestId();
      const one = (i: number) => [{ id: lid(c.account, 'lines', rid, i), requestid: rid }];
      expect(sum(await billing.charge(c.account, 'lines', 1, one(0)))).toEqual({ written: 1, charged: 20, credits: 25 });
      // a record that is not chargeable holds the price for the check and charges nothing
      expect(sum(await billing.charge(c.account, 'lines', 1, []))).toEqual({ written: 0, charged: 0, credits: 25 });
      // another holder's reservation counts: 25 - 20 held leaves too little for 20
      const held = await second.reserve(c.account, 'lines', 1);
      expect(await status(billing.charge(c.account, 'lines', 1, one(1)))).toBe(402);
      expect(await status(billing.charge(c.account, 'lines', 1, []))).toBe(402);
      await second.release(held);
      expect(sum(await billing.charge(c.account, 'lines', 1, one(1)))).toEqual({ written: 1, charged: 20, credits: 5 });
      expect(await status(billing.charge(c.account, 'lines', 1, one(2)))).toBe(402);
      expect(await billing.store.ledgerCount(c.account)).toBe(2);
      expect((await billing.store.findAccount({ id: c.account }))!.reserved).toBe(0);
      await expect(billing.charge(c.account, 'lines', 1, [...one(3), ...one(4)])).rejects.toThrow(/2 charges for a reservation of 1 records/);
    });

    it('charges an unlimited account nothing and keeps it unlimited; a replayed ledger id is written and charged once', async () => {
      const u = await billing.createAccount({ unlimited: true, agreements: ['lines'] });
      const rid = newRequestId();
      const e = [{ id: lid(u.account, 'lines', rid, 0), requestid: rid }];
      expect(sum(await billing.charge(u.account, 'lines', 1, e))).toEqual({ written: 1, charged: 0, credits: -1 });
      expect(await billing.store.ledgerCount(u.account)).toBe(1);
      const c = await billing.createAccount({ credits: 3 * 20, agreements: ['lines'] });
      const rid2 = newRequestId();
      const e2 = [{ id: lid(c.account, 'lines', rid2, 0), requestid: rid2 }];
      expect(sum(await billing.charge(c.account, 'lines', 1, e2))).toEqual({ written: 1, charged: 20, credits: 40 });
      expect(sum(await second.charge(c.account, 'lines', 1, e2))).toEqual({ written: 0, charged: 0, credits: 40 });
      expect(await billing.store.ledgerCount(c.account)).toBe(1);
      expect((await billing.store.findAccount({ id: c.account }))!.reserved).toBe(0);
    });

    it('stores the answer of its key in the same transaction; a refused charge stores nothing', async () => {
      const a = await billing.createAccount({ credits: 20, agreements: ['lines'] });
      const render = (balance: number | string) => ({ status: 200, contentType: 'application/json; charset=UTF-8', body: `{"availablecredits":"${balance}"}` });
      const template = answerTemplate(200, render);
      const rid = newRequestId();
      expect(await billing.claimIdempotencyKey(a.account, 'k-charge', 'fp')).toEqual({ state: 'claimed' });
      await billing.charge(a.account, 'lines', 1, [{ id: lid(a.account, 'lines', rid, 0), requestid: rid }], { answer: { key: 'k-charge', template } });
      expect(await second.claimIdempotencyKey(a.account, 'k-charge', 'fp')).toEqual({ state: 'done', fingerprint: 'fp', answer: render(0) });
      expect(await billing.claimIdempotencyKey(a.account, 'k-402', 'fp')).toEqual({ state: 'claimed' });
      const rid2 = newRequestId();
      expect(await status(billing.charge(a.account, 'lines', 1, [{ id: lid(a.account, 'lines', rid2, 0), requestid: rid2 }], { answer: { key: 'k-402', template } }))).toBe(402);
      expect(await second.claimIdempotencyKey(a.account, 'k-402', 'fp')).toEqual({ state: 'pending', fingerprint: 'fp' });
    });

    it('200 concurrent charges from two instances against a balance for 100: exactly 100 charged, balance 0', async () => {
      const c = await billing.createAccount({ credits: 100 * 20, agreements: ['lines'] });
      const instances = [billing, second];
      const results = await Promise.all(Array.from({ length: 200 }, async (_, i) => {
        const rid = newRequestId();
        return status(instances[i % 2]!.charge(c.account, 'lines', 1, [{ id: lid(c.account, 'lines', rid, 0), requestid: rid }]));
      }));
      expect(results.filter((s) => s === 'ok')).toHaveLength(100);
      expect(results.filter((s) => s === 402)).toHaveLength(100);
      expect(await billing.balance(c.account)).toBe(0);
      expect(await billing.store.ledgerCount(c.account)).toBe(100);
      expect((await billing.store.findAccount({ id: c.account }))!.reserved).toBe(0);
    });
  });

  describe('group commit (BillingStore.batch through Billing)', () => {
    it('steps in one transaction answer as alone, in order: a reserve sees the reserves before it in its batch', async () => {
      const c = await billing.createAccount({ credits: 2 * 20, agreements: ['lines'] });
      const now = new Date();
      const row = (id: string) => ({ id, accountId: c.account, amount: 20, createdAt: now.toISOString(), expiresAt: new Date(now.getTime() + 60_000).toISOString() });
      const [r1, r2, r3] = [newRequestId(), newRequestId(), newRequestId()];
      const out = await billing.store.batch([
        { kind: 'reserve', reservation: row(r1) }, { kind: 'reserve', reservation: row(r2) }, { kind: 'reserve', reservation: row(r3) },
      ]);
      expect(out).toEqual([true, true, false]);
      const rid = newRequestId();
      const e = { id: lid(c.account, 'lines', rid, 0), account: c.account, function: 'lines' as const, credits: 20, requestid: rid, time: now.toISOString() };
      const settled = await billing.store.batch([
        { kind: 'settle', reservationId: r1, accountId: c.account, entries: [e] }, { kind: 'release', reservationId: r2 },
      ]);
      expect(sum(settled[0] as { written: number; charged: number; credits: number })).toEqual({ written: 1, charged: 20, credits: 20 });
      expect(settled[1]).toBeUndefined();
      expect((await billing.store.findAccount({ id: c.account }))!.reserved).toBe(0);
      expect(await billing.store.ledgerCount(c.account)).toBe(1);
    });

    it('a batch with a failing step writes nothing; a replay settle and an exportLater settle answer as alone', async () => {
      const c = await billing.createAccount({ credits: 5 * 20, agreements: ['lines'] });
      const now = new Date().toISOString();
      const later = new Date(Date.now() + 60_000).toISOString();
      const row = (id: string) => ({ id, accountId: c.account, amount: 20, createdAt: now, expiresAt: later });
      const entry = (rid: string) => ({ id: lid(c.account, 'lines', rid, 0), account: c.account, function: 'lines' as const, credits: 20, requestid: rid, time: now });
      const [r1, r2, r3] = [newRequestId(), newRequestId(), newRequestId()];
      await billing.store.batch([{ kind: 'reserve', reservation: row(r1) }, { kind: 'reserve', reservation: row(r2) }]);
      const [e1, e2, eBad] = [entry(newRequestId()), entry(newRequestId()), entry(newRequestId())];
      // the third step settles a reservation that does not exist: the whole batch rolls back
      await expect(billing.store.batch([
        { kind: 'settle', reservationId: r1, accountId: c.account, entries: [e1] },
        { kind: 'reserve', reservation: row(r3) },
        { kind: 'settle', reservationId: newRequestId(), accountId: c.account, entries: [eBad] },
      ])).rejects.toThrow(/unknown or already settled/);
      expect(await billing.store.ledgerCount(c.account)).toBe(0);
      expect((await billing.store.findAccount({ id: c.account }))!.reserved).toBe(40);
      const out = await billing.store.batch([
        { kind: 'settle', reservationId: r1, accountId: c.account, entries: [e1] },
        { kind: 'settle', reservationId: newRequestId(), accountId: c.account, entries: [e1] }, // a replay: no reservation, id known
        { kind: 'settle', reservationId: r2, accountId: c.account, entries: [e2], opts: { exportLater: true } },
      ]);
      expect(out.map((r) => sum(r as { written: number; charged: number; credits: number }))).toEqual([
        { written: 1, charged: 20, credits: 80 }, { written: 0, charged: 0, credits: 80 }, { written: 1, charged: 20, credits: 60 },
      ]);
      expect((out[0] as { writtenIds: string[] }).writtenIds).toEqual([e1.id]);
      expect((await billing.store.unexported(c.account, [e1.id, e2.id])).map((e) => e.id)).toEqual([e2.id]);
      expect((await billing.store.findAccount({ id: c.account }))!.reserved).toBe(0);
    });

    it('concurrent requests share transactions; a failing step fails alone, the others commit', async () => {
      const c = await billing.createAccount({ credits: 1000 * 20, agreements: ['lines'] });
      const before = { ...billing.commits.totals };
      const good = Array.from({ length: 50 }, async () => {
        const r = await billing.reserve(c.account, 'lines', 1);
        const rid = newRequestId();
        return (await billing.settle(r, [{ id: lid(c.account, 'lines', rid, 0), requestid: rid }])).written;
      });
      // a settle of new charges against a reservation that does not exist is refused
      const rid = newRequestId();
      const bad = billing.settle({ id: newRequestId(), accountId: c.account, op: 'lines', records: 1, amount: 20 }, [{ id: lid(c.account, 'lines', rid, 0), requestid: rid }]);
      const [results, badStatus] = await Promise.all([Promise.all(good), bad.then(() => 'ok', (e: Error) => e.message)]);
      expect(results.every((w) => w === 1)).toBe(true);
      expect(badStatus).toMatch(/unknown or already settled/);
      expect(await billing.store.ledgerCount(c.account)).toBe(50);
      expect(await billing.balance(c.account)).toBe(1000 * 20 - 50 * 20);
      const batches = billing.commits.totals.batches - before.batches;
      const steps = billing.commits.totals.steps - before.steps;
      expect(steps).toBe(101);
      expect(batches).toBeLessThan(steps); // some steps shared a transaction
    });
  });

  describe('mirrored ranges (the Kafka ledger topic)', () => {
    const job = { kind: 'kafka', topicId: '0b4b6d0e-3c4f-4a43-9a7b-3f1b2c7d9e10', group: 'g' } as const;
    const kid = (account: string, op: 'search' | 'lines', partition: number, offset: number | string) => ledgerId(account, op, job, `${partition}/${offset}`);
    const scope = (partition: number) => `kafka:${job.topicId}:${job.group}/${partition}`;

    it('a row settled with exportLater stays unexported until a range of its scope holds it, whatever its function', async () => {
      const c = await billing.createAccount({ credits: -1, agreements: ['lines', 'search'] });
      const rid = newRequestId();
      const ids = [kid(c.account, 'lines', 0, 5), kid(c.account, 'search', 0, 6), kid(c.account, 'lines', 0, 7), kid(c.account, 'lines', 1, 5)];
      for (const id of ids) {
        const op = id.includes('/search/') ? 'search' : 'lines';
        await billing.charge(c.account, op, 1, [{ id, requestid: rid }], { exportLater: true });
      }
      const http = lid(c.account, 'lines', rid, 0);
      await billing.charge(c.account, 'lines', 1, [{ id: http, requestid: rid }]); // not exportLater: exported at once
      const unexported = async () => (await billing.unexported(c.account, [...ids, http])).map((e) => e.id).sort();
      expect(await unexported()).toEqual([...ids].sort());
      await billing.markMirrored(c.account, scope(0), 0n, 7n); // offsets 0…6 of partition 0
      expect(await unexported()).toEqual([ids[2], ids[3]].sort());
      // the other instance sees it; another account's range marks nothing of this one
      expect((await second.unexported(c.account, ids)).map((e) => e.id).sort()).toEqual([ids[2], ids[3]].sort());
      const other = await billing.createAccount({ credits: -1 });
      await billing.markMirrored(other.account, scope(1), 0n, 100n);
      expect(await unexported()).toEqual([ids[2], ids[3]].sort());
      await billing.markMirrored(c.account, scope(1), 5n, 6n);
      expect(await unexported()).toEqual([ids[2]]);
      await billing.markMirrored(c.account, scope(0), 7n, 8n);
      expect(await unexported()).toEqual([]);
    });

    it('a range that follows on from one grows it; a gap or an offset reset leaves the others as they were', async () => {
      const c = await billing.createAccount({ credits: -1, agreements: ['lines'] });
      const rid = newRequestId();
      const offsets = [0, 1999, 2000, 5000, 6000, 9_007_199_254_740_993n];
      const ids = offsets.map((o) => kid(c.account, 'lines', 3, o.toString()));
      for (const id of ids) await billing.charge(c.account, 'lines', 1, [{ id, requestid: rid }], { exportLater: true });
      const left = async () => (await billing.unexported(c.account, ids)).map((e) => offsets[ids.indexOf(e.id)]!.toString()).sort();
      await billing.markMirrored(c.account, scope(3), 0n, 2000n);
      await billing.markMirrored(c.account, scope(3), 2000n, 4000n); // grows the first
      await billing.markMirrored(c.account, scope(3), 100n, 200n); // an offset reset: already held
      await billing.markMirrored(c.account, scope(3), 3000n, 3000n); // empty: nothing
      expect(await left()).toEqual(['5000', '6000', '9007199254740993']);
      await billing.markMirrored(c.account, scope(3), 5500n, 6001n); // after a gap: a range of its own
      expect(await left()).toEqual(['5000', '9007199254740993']);
      await billing.markMirrored(c.account, scope(3), 9_007_199_254_740_993n, 9_007_199_254_740_994n); // beyond 2^53, exact
      expect(await left()).toEqual(['5000']);
    });
  });

  describe('maintenance flag', () => {
    it('is off by default and switches on and off, seen by the other instance', async () => {
      expect(await billing.getMaintenance()).toBe(false);
      await billing.setMaintenance(true);
      expect(await second.getMaintenance()).toBe(true);
      await second.setMaintenance(false);
      expect(await billing.getMaintenance()).toBe(false);
    });
  });
}
