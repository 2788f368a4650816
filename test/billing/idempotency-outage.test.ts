/**
 * An Idempotency-Key claimed by a request that an outage of the store failed (a PostgreSQL cluster
 * of the test's own, really stopped): its abandon cannot reach the store, so Billing remembers it
 * and gives it back once the store is back — on the next claim of that key by the same server, or
 * by `retryAbandons` (the server's poll), which frees it for the retries another server gets too.
 * Without this the key stayed claimed for IDEMPOTENCY_PENDING_MS (5 min) and every retry waited,
 * then got 409. The HTTP end to end: test/cli/serve-postgres-kill.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Billing, IDEMPOTENCY_PENDING_MS } from '../../src/billing/billing.ts';
import { PostgresStore } from '../../src/billing/postgres/store.ts';
import { StoreUnavailableError } from '../../src/billing/store.ts';
import { PG_CLUSTER_AVAILABLE, PG_CLUSTER_SKIP_REASON, PgCluster } from '../helpers/pg-cluster.ts';

const title = PG_CLUSTER_AVAILABLE
  ? 'Idempotency-Keys of requests failed by a store outage are given back once it is back [own cluster]'
  : `Idempotency-Keys across a store outage — SKIPPED: ${PG_CLUSTER_SKIP_REASON}`;

/**
 * `cluster.stop` blocks the event loop while the database goes down, so the pools of the other
 * instances have not yet seen their idle connections closed, as a server's pools would have during
 * a real outage: one turn of I/O lets them drop those (else the next query may run on one).
 */
const closedConnectionsSeen = () => new Promise((r) => setTimeout(r, 100));

describe.skipIf(!PG_CLUSTER_AVAILABLE)(title, () => {
  let cluster: PgCluster;
  let one: Billing;
  let other: Billing;
  let account: string;
  let db: string;

  beforeAll(async () => {
    cluster = await PgCluster.create();
    db = cluster.url({ schema: 'abandon_outage' });
    one = await Billing.open(db);
    other = await Billing.open(db); // a second server on the same store
    account = (await one.createAccount({ credits: 1000, agreements: ['lines'] })).account;
  }, 60_000);

  afterAll(async () => {
    await one?.close().catch(() => {});
    await other?.close().catch(() => {});
    await cluster?.destroy();
  });

  it('an abandon that failed in the outage is done by retryAbandons and by the next claim of the key; only once', async () => {
    expect(await one.claimIdempotencyKey(account, 'k-poll', 'fp')).toEqual({ state: 'claimed' });
    expect(await one.claimIdempotencyKey(account, 'k-claim', 'fp')).toEqual({ state: 'claimed' });
    expect(await one.claimIdempotencyKey(account, 'k-done', 'fp')).toEqual({ state: 'claimed' });
    await one.completeIdempotencyKey(account, 'k-done', { status: 200, contentType: 'application/json', body: '{}' });

    cluster.stop('immediate');
    for (const key of ['k-poll', 'k-claim']) {
      await expect(one.abandonIdempotencyKey(account, key)).rejects.toBeInstanceOf(StoreUnavailableError);
    }
    // a store still down: nothing given back, the keys stay owed
    await expect(one.retryAbandons()).rejects.toBeInstanceOf(StoreUnavailableError);
    await cluster.start();
    await closedConnectionsSeen();

    // still claimed for everyone until this server gives them back
    expect(await other.claimIdempotencyKey(account, 'k-poll', 'fp')).toEqual({ state: 'pending', fingerprint: 'fp' });
    // the same server's next claim of a key gives it back first, then claims it
    expect(await one.claimIdempotencyKey(account, 'k-claim', 'fp')).toEqual({ state: 'claimed' });
    // the poll gives back the rest (once), and another server may claim it
    expect(await one.retryAbandons()).toBe(1);
    expect(await one.retryAbandons()).toBe(0);
    expect(await other.claimIdempotencyKey(account, 'k-poll', 'fp')).toEqual({ state: 'claimed' });
    // the new claims stand: nothing owed is given back twice
    expect(await one.claimIdempotencyKey(account, 'k-claim', 'fp')).toEqual({ state: 'pending', fingerprint: 'fp' });
    expect(await other.claimIdempotencyKey(account, 'k-poll', 'fp')).toEqual({ state: 'pending', fingerprint: 'fp' });
    // an answered key is never touched
    expect(await other.claimIdempotencyKey(account, 'k-done', 'fp')).toMatchObject({ state: 'done' });
  }, 60_000);

  it('an owed abandon is dropped once another server may have taken the key over (half the pending time after it failed)', async () => {
    let clock = Date.now();
    const late = await Billing.fromStore(new PostgresStore(db), { now: () => new Date(clock) });
    try {
      expect(await late.claimIdempotencyKey(account, 'k-late', 'fp')).toEqual({ state: 'claimed' });
      cluster.stop('immediate');
      await expect(late.abandonIdempotencyKey(account, 'k-late')).rejects.toBeInstanceOf(StoreUnavailableError);
      await cluster.start();
      await closedConnectionsSeen();
      clock += IDEMPOTENCY_PENDING_MS / 2 + 1000;
      expect(await late.retryAbandons()).toBe(0);
      // not given back: it waits to turn stale like the key of a server that died
      expect(await other.claimIdempotencyKey(account, 'k-late', 'fp')).toEqual({ state: 'pending', fingerprint: 'fp' });
    } finally {
      await late.close();
    }
  }, 60_000);
});
