/**
 * The Kafka stream worker on a PostgreSQL outage (issue 12), with real components: the shared
 * broker, a PostgreSQL cluster of the test's own (stopped with `pg_ctl stop -m immediate` in the
 * middle of the stream; the shared cluster on 5432 is never touched), the in-process worker with
 * the real pool and PostgresStore.
 *
 * While the billing store is down the worker processes nothing (no record runs unpaid, the group's
 * committed offsets stand still) and loses nothing; once the store is back it resumes by itself,
 * and every record ends with exactly one result, every charged record with exactly one ledger
 * entry (topic and store) and one debit.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Billing } from '../../../src/billing/billing.ts';
import { describeWithKafka } from '../../helpers/kafka.ts';
import { PG_CLUSTER_AVAILABLE, PG_CLUSTER_SKIP_REASON, PgCluster } from '../../helpers/pg-cluster.ts';
import {
  checkInvariants, committedCount, createAccount, createTopics, mixedRecord, openHarness, produce, startWorker,
  waitForCommitted, type Harness, type InputRecord, type RunningWorker,
} from './worker-harness.ts';

const title = PG_CLUSTER_AVAILABLE
  ? 'Kafka worker on a PostgreSQL outage [own cluster]'
  : `Kafka worker on a PostgreSQL outage — SKIPPED: ${PG_CLUSTER_SKIP_REASON}`;

await describeWithKafka(title, (brokers) => {
  let h: Harness;
  let cluster: PgCluster | undefined;
  let w: RunningWorker | undefined;

  beforeAll(async () => {
    h = await openHarness(brokers());
    if (PG_CLUSTER_AVAILABLE) cluster = await PgCluster.create();
  });
  afterAll(async () => {
    await w?.stop().catch(() => {});
    await h?.close();
    await cluster?.destroy();
  });

  for (const how of ['pg_ctl stop -m immediate', 'SIGSTOP (a server that answers nothing)'] as const) {
  it.skipIf(!PG_CLUSTER_AVAILABLE)(`${how}: pauses while the store is down (nothing processed unpaid, nothing lost) and resumes by itself; one result and at most one charge per record`, async () => {
    const c = cluster!;
    const frozen = how.startsWith('SIGSTOP');
    const tag = frozen ? 'pgfrozen' : 'pgdown';
    const topics = await createTopics(h, tag, 2);
    const db = c.url({ schema: `worker_${tag}` });
    const account = await createAccount(db, 1_000_000);
    const first: InputRecord[] = Array.from({ length: 400 }, (_, i) => mixedRecord(i, tag));
    const second: InputRecord[] = Array.from({ length: 400 }, (_, i) => mixedRecord(400 + i, tag));
    const group = `g-${h.run}-${tag}`;
    w = await startWorker({ brokers: brokers(), topics, group, db, account });
    await produce(h, topics.input, first);
    await waitForCommitted(h, group, topics.input);

    if (frozen) c.freeze();
    else c.stop('immediate');
    // records arriving during the outage wait in Kafka
    await produce(h, topics.input, second);
    await sleep(1500);
    const during = await committedCount(h, group, topics.input);
    await sleep(frozen ? 7000 : 4000);
    expect(await committedCount(h, group, topics.input), 'no offset committed while the store is down').toBe(during);
    expect(during).toBeLessThan(first.length + second.length);
    expect(w.worker.healthy, 'the worker keeps running through the outage').toBe(true);

    if (frozen) c.thaw();
    else await c.start();
    await waitForCommitted(h, group, topics.input, 90_000);
    await w.stop();
    w = undefined;

    // reservations of batches cut by the outage are swept like those of a stopped process
    const billing = await Billing.open(db);
    try {
      await billing.store.releaseExpired(new Date(Date.now() + 10 * billing.leaseMs).toISOString());
      expect((await billing.findAccount({ id: account.account }))?.reserved).toBe(0);
    } finally {
      await billing.close();
    }
    const inv = await checkInvariants(h, topics, [...first, ...second], db, account, { killed: true });
    expect(inv.results).toHaveLength(720);
    expect(inv.dlq).toHaveLength(80);
  }, 180_000);
  }
});
