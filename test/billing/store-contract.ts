/**
 * The billing contract, run against every store (sqlite-store.test.ts, postgres-store.test.ts).
 * `open()` must return a fresh, empty store; `openSecond()` a second connection to the SAME data
 * (a second server instance or process).
 */
import { beforeAll, afterAll, describe, expect, it } from 'vitest';
import { ServiceError } from '../../src/contract/errors.ts';
import { Billing } from '../../src/billing/billing.ts';
import { isRequestId, newRequestId } from '../../src/billing/request-id.ts';
import type { BillingStore } from '../../src/billing/store.ts';

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
      await billing.settle(s, [0, 1].map((i) => ({ id: `${rid}/s${i}`, requestid: rid })));
      await billing.settle(l, [0, 1].map((i) => ({ id: `${rid}/l${i}`, requestid: rid })));
      expect(await billing.balance(c.account)).toBe(1000 - 54 - 40);
    });

    it('settle writes one ledger entry per charge, debits them, releases the rest', async () => {
      const c = await billing.createAccount({ credits: 100 });
      const r = await billing.reserve(c.account, 'lines', 5);
      const rid = newRequestId();
      const s = await billing.settle(r, [0, 2, 4].map((i) => ({ id: `${rid}/${i}`, requestid: rid })));
      expect(s).toEqual({ written: 3, charged: 60, credits: 40 });
      const row = await billing.store.findAccount({ id: c.account });
      expect(row!.credits).toBe(40);
      expect(row!.reserved).toBe(0);
      const ledger = await billing.ledger(c.account);
      expect(ledger.map((e) => e.id).sort()).toEqual([`${rid}/0`, `${rid}/2`, `${rid}/4`]);
      for (const e of ledger) {
        expect(e).toMatchObject({ account: c.account, function: 'lines', credits: 20, requestid: rid });
        expect(Number.isNaN(Date.parse(e.time))).toBe(false);
        expect(Math.abs(Date.parse(e.time) - Date.now())).toBeLessThan(60_000);
      }
      expect(isRequestId(rid)).toBe(true);
    });

    it('is idempotent on ledger ids: a replay never charges twice', async () => {
      const c = await billing.createAccount({ credits: 100 });
      const ids = ['topic-a/0/17', 'topic-a/0/18'];
      const r1 = await billing.reserve(c.account, 'lines', 2);
      const s1 = await billing.settle(r1, ids.map((id) => ({ id, requestid: 'req-1' })));
      expect(s1.charged).toBe(40);
      // The same records again (a consumer restarted before committing its offsets).
      const r2 = await billing.reserve(c.account, 'lines', 2);
      const s2 = await billing.settle(r2, ids.map((id) => ({ id, requestid: 'req-2' })));
      expect(s2).toEqual({ written: 0, charged: 0, credits: 60 });
      // One old, one new.
      const r3 = await billing.reserve(c.account, 'lines', 2);
      const s3 = await billing.settle(r3, [{ id: 'topic-a/0/18', requestid: 'x' }, { id: 'topic-a/0/19', requestid: 'x' }]);
      expect(s3).toEqual({ written: 1, charged: 20, credits: 40 });
      // Settling the same reservation again (a retried call) is a no-op.
      const s4 = await billing.settle(r3, [{ id: 'topic-a/0/18', requestid: 'x' }, { id: 'topic-a/0/19', requestid: 'x' }]);
      expect(s4).toEqual({ written: 0, charged: 0, credits: 40 });
      expect(await billing.store.ledgerCount(c.account)).toBe(3);
      expect((await billing.store.findAccount({ id: c.account }))!.reserved).toBe(0);
      expect((await billing.store.ledgerEntry('topic-a/0/17'))!.requestid).toBe('req-1');
    });

    it('refuses to settle new charges against an unknown reservation, writing nothing', async () => {
      const c = await billing.createAccount({ credits: 100 });
      const r = await billing.reserve(c.account, 'lines', 1);
      await billing.release(r);
      await expect(billing.settle(r, [{ id: 'orphan/1', requestid: 'x' }])).rejects.toThrow(/unknown or already settled/);
      expect(await billing.store.ledgerEntry('orphan/1')).toBeUndefined();
      expect(await billing.balance(c.account)).toBe(100);
    });

    it('refuses more charges than reserved records', async () => {
      const c = await billing.createAccount({ credits: 100 });
      const r = await billing.reserve(c.account, 'lines', 1);
      await expect(billing.settle(r, [{ id: 'a', requestid: 'x' }, { id: 'b', requestid: 'x' }])).rejects.toThrow(/2 charges/);
      await billing.release(r);
    });

    it('unlimited accounts (-1) are never refused, never debited, and still get ledger entries', async () => {
      const c = await billing.createAccount({ unlimited: true, agreements: ['search'] });
      const r = await billing.reserve(c.account, 'search', 5000);
      const rid = newRequestId();
      const s = await billing.settle(r, Array.from({ length: 5000 }, (_, i) => ({ id: `${rid}/${i}`, requestid: rid })));
      expect(s).toEqual({ written: 5000, charged: 0, credits: -1 });
      expect(await billing.balance(c.account)).toBe(-1);
      expect(await billing.store.ledgerCount(c.account)).toBe(5000);
      expect((await billing.ledger(c.account, 1))[0]!.credits).toBe(27);
    });

    it('zero records reserve nothing and settle nothing', async () => {
      const c = await billing.createAccount({ credits: 0 });
      const r = await billing.reserve(c.account, 'search', 0);
      expect(r.amount).toBe(0);
      expect(await billing.settle(r, [])).toEqual({ written: 0, charged: 0, credits: 0 });
    });

    it('releases stale reservations left by a crashed process', async () => {
      const c = await billing.createAccount({ credits: 20 });
      await billing.reserve(c.account, 'lines', 1);
      expect(await status(billing.reserve(c.account, 'lines', 1))).toBe(402);
      expect(await billing.releaseStale(-1000)).toBeGreaterThanOrEqual(1); // "older than 1 s in the future" = all
      expect((await billing.store.findAccount({ id: c.account }))!.reserved).toBe(0);
      expect(await status(billing.reserve(c.account, 'lines', 1))).toBe('ok');
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
        await b.settle(r, [{ id: `${rid}/0`, requestid: rid }]);
        return 200;
      }));
      expect(results.filter((s) => s === 200)).toHaveLength(100);
      expect(results.filter((s) => s === 402)).toHaveLength(100);
      expect(await billing.balance(c.account)).toBe(0);
      expect(await billing.store.ledgerCount(c.account)).toBe(100);
      expect((await billing.store.findAccount({ id: c.account }))!.reserved).toBe(0);
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
