/**
 * The stream worker on a PostgreSQL billing store (`consume --db postgres://…`), against the real
 * broker and the real database: one ledger-topic entry per charged record; after each commit the
 * partition's mirrored range grows (one `ledger_mirrored` row per partition, whatever the number
 * of slices); an offset reset of the same group runs the records again without a charge and
 * without a second ledger-topic entry (the range holds them).
 */
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Billing } from '../../../src/billing/billing.ts';
import { PRICES } from '../../../src/billing/prices.ts';
import { HEADERS } from '../../../src/adapters/kafka/headers.ts';
import { describeWithKafka } from '../../helpers/kafka.ts';
import { PG_SKIP_REASON, PG_URL, dropSchema, pgUrlWithSchema, postgresReachable, uniqueSchema } from '../../helpers/postgres.ts';
import {
  createAccount, createTopics, openHarness, produce, readAll, startWorker, waitForCommitted, type Harness, type InputRecord,
} from './worker-harness.ts';

const pgUp = await postgresReachable();
const LINES = { op: 'lines', countrycode: 'DE', sendercountrycode: 'DE', city: 'Berlin', zip: '10117', street: 'Unter den Linden' };

await describeWithKafka('Kafka stream worker on a PostgreSQL store', (brokers) => {
  const schema = uniqueSchema('kafka_pg');
  const db = pgUrlWithSchema(schema);
  let h: Harness;

  beforeAll(async () => {
    h = await openHarness(brokers());
  });
  afterAll(async () => {
    await h?.close();
    if (pgUp) await dropSchema(schema);
  });

  (pgUp ? it : it.skip)(`ledger entries once, one mirrored range per partition, an offset reset charges and mirrors nothing${pgUp ? '' : ` — SKIPPED: ${PG_SKIP_REASON}`}`, async () => {
    const topics = await createTopics(h, 'pg', 2);
    const start = 1_000_000;
    const account = await createAccount(db, start, ['lines']);
    const n = 300;
    const records: InputRecord[] = Array.from({ length: n }, (_, i) => ({
      key: `k-pg-${i}`, headers: { [HEADERS.correlationId]: `c-pg-${i}` }, op: 'lines', expect: 'result',
      value: Buffer.from(JSON.stringify({ ...LINES, housenumber: String(i + 1) })),
    }));
    await produce(h, topics.input, records);
    const group = `g-${h.run}-pg`;
    const run = async () => {
      // slices of at most 40 records: several commits, so several marks, per partition
      const w = await startWorker({ brokers: brokers(), topics, group, db, account, op: 'lines', valueFormat: 'json', maxBatchRecords: 40 });
      try {
        await waitForCommitted(h, group, topics.input, 60_000);
      } finally {
        await w.stop();
      }
    };
    const balance = async () => {
      const b = await Billing.open(db);
      try {
        return { balance: await b.balance(account.account), rows: await b.store.ledgerCount(account.account) };
      } finally {
        await b.close();
      }
    };

    await run();
    expect(await balance()).toEqual({ balance: start - n * PRICES.lines, rows: n });
    expect(await readAll(h, topics.ledger, { minCount: n })).toHaveLength(n);
    const c = new pg.Client({ connectionString: PG_URL });
    await c.connect();
    try {
      const ranges = (await c.query<{ scope: string; from_pos: string; to_pos: string }>(
        `SELECT scope, from_pos, to_pos FROM ${schema}.ledger_mirrored WHERE account_id = $1 ORDER BY scope`, [account.account])).rows;
      const ends = await h.admin.fetchTopicOffsets(topics.input);
      expect(ranges.map((r) => [r.scope.split('/').pop(), r.from_pos, r.to_pos])).toEqual(
        ends.sort((a, b) => a.partition - b.partition).map((e) => [String(e.partition), '0', e.high]));
    } finally {
      await c.end();
    }

    // the same group reads every offset again: results again, no charge, no second ledger-topic entry
    await h.admin.resetOffsets({ groupId: group, topic: topics.input, earliest: true });
    await run();
    expect((await readAll(h, topics.results, { minCount: 2 * n })).length).toBe(2 * n);
    expect(await balance()).toEqual({ balance: start - n * PRICES.lines, rows: n });
    expect(await readAll(h, topics.ledger, { minCount: n, idleMs: 1000 })).toHaveLength(n);
  }, 180_000);
});
