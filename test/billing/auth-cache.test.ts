/**
 * The authentication cache (src/billing/auth-cache.ts) on its own: how long an account read is
 * kept, what is never kept, and the memoised digests. The end-to-end promise (a CLI `accounts
 * disable` reaches a running server within 1 s) is tested with real processes in
 * test/cli/serve.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { AuthCache } from '../../src/billing/auth-cache.ts';
import type { AccountRow } from '../../src/billing/store.ts';

const row = (disabled: boolean): AccountRow => ({
  id: 'a', licenseHash: 'l', guidHash: 'g', credits: 0, reserved: 0, agreements: ['lines'], disabled, createdAt: '2026-01-01T00:00:00.000Z',
});

describe('AuthCache', () => {
  it('keeps an account for less than its ttl, and concurrent requests share one read', async () => {
    const cache = new AuthCache(100);
    let reads = 0;
    let current = row(false);
    const read = async () => (reads++, current);
    const [a, b] = await Promise.all([cache.account('l', read), cache.account('l', read)]);
    expect(reads).toBe(1);
    expect(a).toBe(b);
    current = row(true); // another process disables it
    expect((await cache.account('l', read))!.disabled).toBe(false); // kept
    await new Promise((r) => setTimeout(r, 110));
    expect((await cache.account('l', read))!.disabled).toBe(true); // read again after the ttl
    expect(reads).toBe(2);
  });

  it('never keeps an unknown license nor a failed read; ttl 0 reads every time; clear() forgets', async () => {
    const cache = new AuthCache(10_000);
    let reads = 0;
    expect(await cache.account('x', async () => (reads++, undefined))).toBeUndefined();
    expect(await cache.account('x', async () => (reads++, row(false)))).toBeDefined(); // a new account works at once
    await expect(cache.account('y', async () => { reads++; throw new Error('store down'); })).rejects.toThrow('store down');
    expect(await cache.account('y', async () => (reads++, row(false)))).toBeDefined();
    expect(reads).toBe(4);
    cache.clear();
    expect(await cache.account('x', async () => (reads++, row(true)))).toMatchObject({ disabled: true });
    const none = new AuthCache(0);
    await none.account('l', async () => (reads++, row(false)));
    await none.account('l', async () => (reads++, row(false)));
    expect(reads).toBe(7);
  });

  it('computes a digest once per credential', () => {
    const cache = new AuthCache(0);
    let n = 0;
    const d = () => cache.digest('license', 'AAAAA-BBBBB-CCCCC-DDDDD-EEEEE', () => `h${++n}`);
    expect([d(), d(), d()]).toEqual(['h1', 'h1', 'h1']);
    expect(cache.digest('guid', 'AAAAA-BBBBB-CCCCC-DDDDD-EEEEE', () => 'other')).toBe('other'); // the kind is part of the key
  });
});
