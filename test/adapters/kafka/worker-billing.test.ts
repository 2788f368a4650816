/**
 * Billing of the stream worker against the real broker (issue 12): the metering job is the
 * consumer group on the topic's id; validation before credits; invalid UTF-8 answered 412;
 * engine failures to the DLQ; ledger-topic entries only for ledger rows written.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Billing } from '../../../src/billing/billing.ts';
import { PRICES } from '../../../src/billing/prices.ts';
import { HEADERS, headerString } from '../../../src/adapters/kafka/headers.ts';
import { fetchTopicIds } from '../../../src/adapters/kafka/client/topic-ids.ts';
import type { Op } from '../../../src/contract/params.ts';
import type { AddressIndex } from '../../../src/engine/index/index.ts';
import type { EnginePool } from '../../../src/pool/engine-pool.ts';
import { runValidatedTask } from '../../../src/pool/run-validated.ts';
import { runResultsTask, type ResultsTask } from '../../../src/adapters/kafka/results-task.ts';
import type { ValidElement } from '../../../src/contract/validate.ts';
import { describeWithKafka } from '../../helpers/kafka.ts';
import {
  committedCount, createAccount, createTopics, decodeResult, openHarness, produce, readAll, startWorker, waitForCommitted,
  type Harness, type InputRecord, type RunningWorker, type Topics,
} from './worker-harness.ts';

const LINES = { op: 'lines', countrycode: 'DE', sendercountrycode: 'DE', city: 'Berlin', zip: '10117', street: 'Unter den Linden' };

function linesRecords(tag: string, n: number): InputRecord[] {
  return Array.from({ length: n }, (_, i) => ({
    key: `k-${tag}-${i}`, headers: { [HEADERS.correlationId]: `c-${tag}-${i}` }, op: 'lines' as const, expect: 'result' as const,
    value: Buffer.from(JSON.stringify({ ...LINES, housenumber: String(i + 1) })),
  }));
}

/** The real engine code over an index that is not one: every lookup throws, as a defect would. */
function brokenPool(): EnginePool {
  const state = { ctx: { index: {} as AddressIndex } };
  return {
    threads: 1,
    runValidated: async (op: Op, elements: ValidElement[]) => runValidatedTask(state, { kind: 'validated', op, elements }).outcomes,
    // the worker's results task (results encoded where the engine ran), on the same broken engine
    run: async (task: ResultsTask) => runResultsTask(state, task),
    destroy: async () => {},
  } as unknown as EnginePool;
}

await describeWithKafka('Kafka stream worker: billing', (brokers) => {
  let h: Harness;
  let dir: string;
  const running: RunningWorker[] = [];

  beforeAll(async () => {
    h = await openHarness(brokers());
    dir = mkdtempSync(join(tmpdir(), 'addrflow-wbill-'));
  });
  afterAll(async () => {
    for (const w of running) await w.stop().catch(() => {});
    await h?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function runGroup(topics: Topics, group: string, db: string, account: Awaited<ReturnType<typeof createAccount>>, extra: Partial<Parameters<typeof startWorker>[0]> = {}) {
    const w = await startWorker({ brokers: brokers(), topics, group, db, account, op: 'lines', valueFormat: 'json', ...extra });
    running.push(w);
    await waitForCommitted(h, group, topics.input, 60_000);
    running.splice(running.indexOf(w), 1);
    await w.stop();
  }

  async function ledgerRows(db: string, account: string) {
    const b = await Billing.open(db);
    try {
      return { rows: await b.ledger(account, 100_000), balance: await b.balance(account) };
    } finally {
      await b.close();
    }
  }

  it('the job is the consumer group on the topic id: the same group again (offset reset) is free, a second group and a recreated topic are charged', async () => {
    const topics = await createTopics(h, 'job', 1);
    const db = `sqlite:${join(dir, 'job.sqlite')}`;
    const start = 1_000_000;
    const account = await createAccount(db, start, ['lines']);
    const n = 40;
    await produce(h, topics.input, linesRecords('job', n));
    const topicId = (await fetchTopicIds({ brokers: brokers() }, [topics.input])).get(topics.input);
    expect(topicId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);

    const g1 = `g-${h.run}-job-1`;
    await runGroup(topics, g1, db, account);
    let st = await ledgerRows(db, account.account);
    expect(st.balance).toBe(start - n * PRICES.lines);
    expect(st.rows.every((e) => e.id.startsWith(`${account.account}/lines/kafka:${topicId}:${encodeURIComponent(g1)}/0/`))).toBe(true);
    expect(await readAll(h, topics.ledger, { minCount: n })).toHaveLength(n);

    // the same group reads the same offsets again (offset reset): results again, no charge, no ledger-topic entry
    await h.admin.resetOffsets({ groupId: g1, topic: topics.input, earliest: true });
    await runGroup(topics, g1, db, account);
    expect((await readAll(h, topics.results, { minCount: 2 * n })).length).toBe(2 * n);
    st = await ledgerRows(db, account.account);
    expect(st.balance).toBe(start - n * PRICES.lines);
    expect(await readAll(h, topics.ledger, { minCount: n, idleMs: 1000 })).toHaveLength(n);

    // a second consumer group is another job: charged
    await runGroup(topics, `g-${h.run}-job-2`, db, account);
    st = await ledgerRows(db, account.account);
    expect(st.balance).toBe(start - 2 * n * PRICES.lines);
    expect(await readAll(h, topics.ledger, { minCount: 2 * n, idleMs: 1000 })).toHaveLength(2 * n);

    // the topic deleted and created again under the same name: a new topic id, a new job, charged
    await h.admin.deleteTopics({ topics: [topics.input] });
    for (let i = 0; i < 100 && (await h.admin.listTopics()).includes(topics.input); i++) await new Promise((r) => setTimeout(r, 200));
    for (let i = 0; ; i++) {
      try {
        await h.admin.createTopics({ topics: [{ topic: topics.input, numPartitions: 1 }], waitForLeaders: true });
        break;
      } catch (err) {
        if (i > 50) throw err; // deletion still in progress on the broker
        await new Promise((r) => setTimeout(r, 200));
      }
    }
    expect((await fetchTopicIds({ brokers: brokers() }, [topics.input])).get(topics.input)).not.toBe(topicId);
    await produce(h, topics.input, linesRecords('job', n));
    await runGroup(topics, g1, db, account);
    st = await ledgerRows(db, account.account);
    expect(st.balance).toBe(start - 3 * n * PRICES.lines);
    expect(st.rows).toHaveLength(3 * n);
  }, 180_000);

  it('records validation rejects and JSON values that are not UTF-8 (412) hold no credits and never pause the partition', async () => {
    const topics = await createTopics(h, 'free', 1);
    const db = `sqlite:${join(dir, 'free.sqlite')}`;
    const account = await createAccount(db, 0, ['lines']);
    const notUtf8 = (i: number): InputRecord => ({
      key: `k-free-u${i}`, headers: { [HEADERS.correlationId]: `c-free-u${i}` }, op: 'lines', expect: 'result',
      value: Buffer.concat([Buffer.from('{"op":"lines","countrycode":"DE","sendercountrycode":"DE","city":"K'), Buffer.from([0xf6]), Buffer.from('ln"}')]),
    });
    const invalid = (i: number): InputRecord => ({
      key: `k-free-v${i}`, headers: { [HEADERS.correlationId]: `c-free-v${i}` }, op: 'lines', expect: 'result',
      value: Buffer.from(JSON.stringify({ op: 'lines', sendercountrycode: 'DE', city: 'Berlin' })),
    });
    const records = [...Array.from({ length: 5 }, (_, i) => notUtf8(i)), ...Array.from({ length: 5 }, (_, i) => invalid(i)), ...linesRecords('free', 3)];
    await produce(h, topics.input, records);
    const group = `g-${h.run}-free`;
    const w = await startWorker({ brokers: brokers(), topics, group, db, account, op: 'lines', valueFormat: 'json' });
    running.push(w);
    const deadline = Date.now() + 30_000;
    while (w.worker.paused.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    // the ten free records went through on an empty balance; it paused at the first one that costs
    expect(w.worker.paused).toEqual([0]);
    expect(await committedCount(h, group, topics.input)).toBe(10);
    const results = (await readAll(h, topics.results, { minCount: 10, idleMs: 500 })).map(decodeResult);
    const byKey = new Map(results.map((r) => [r.key, r.result]));
    for (let i = 0; i < 5; i++) expect(byKey.get(`k-free-u${i}`)).toEqual({ errorcode: 412, errormessage: 'The value is not valid UTF-8.' });
    for (let i = 0; i < 5; i++) expect(byKey.get(`k-free-v${i}`)).toMatchObject({ errorcode: 428 });
    const st = await ledgerRows(db, account.account);
    expect([st.balance, st.rows.length]).toEqual([0, 0]);
    running.splice(running.indexOf(w), 1);
    await w.stop();
  }, 60_000);

  it('an engine failure is a DLQ record (ADDR_ERR_INTERNAL), never charged', async () => {
    const topics = await createTopics(h, 'fail', 1);
    const db = `sqlite:${join(dir, 'fail.sqlite')}`;
    const account = await createAccount(db, 10_000, ['search']);
    const records: InputRecord[] = Array.from({ length: 5 }, (_, i) => ({
      key: `k-fail-${i}`, headers: { [HEADERS.correlationId]: `c-fail-${i}` }, op: 'search', expect: 'dlq',
      value: Buffer.from(JSON.stringify({ op: 'search', city: 'Berlin', street: 'Unter den Linden' })),
    }));
    await produce(h, topics.input, records);
    await runGroup(topics, `g-${h.run}-fail`, db, account, { op: 'search', pool: brokenPool() });
    const dlq = await readAll(h, topics.dlq, { minCount: 5 });
    expect(dlq.map((m) => m.key).sort()).toEqual(records.map((r) => r.key).sort());
    for (const m of dlq) expect(headerString(m.headers, HEADERS.errorCode)).toBe('ADDR_ERR_INTERNAL');
    expect(await readAll(h, topics.results, { idleMs: 500 })).toHaveLength(0);
    expect(await readAll(h, topics.ledger, { idleMs: 500 })).toHaveLength(0);
    const st = await ledgerRows(db, account.account);
    expect([st.balance, st.rows.length]).toEqual([10_000, 0]);
  }, 60_000);
});
