/**
 * Test harness of the stream worker against the real broker: topics, generated input records
 * (mixed ops and formats, with undecodable ones), an in-process worker, a reader of what the
 * topics hold committed (committed-log.ts) and the exactly-once invariants.
 */
import { randomBytes } from 'node:crypto';
import { Kafka, logLevel, Partitioners, type Admin, type IHeaders, type Producer } from '../../../src/adapters/kafka/client/kafkajs.ts';
import { expect } from 'vitest';
import type { Op } from '../../../src/contract/params.ts';
import { isChargeableLinesStatus } from '../../../src/contract/records.ts';
import { Billing } from '../../../src/billing/billing.ts';
import { PRICES } from '../../../src/billing/prices.ts';
import { createValueCodec, resultFromAvro, type AvroResult, type ValueCodec } from '../../../src/adapters/kafka/avro/index.ts';
import { singleObjectHeader } from '../../../src/adapters/kafka/avro/framing.ts';
import { HEADERS, headerString } from '../../../src/adapters/kafka/headers.ts';
import { Meter } from '../../../src/billing/meter.ts';
import { createStreamWorker, kafkaClientFrom, type KafkaClientName } from '../../../src/adapters/kafka/worker-client.ts';
import type { StreamWorker } from '../../../src/adapters/kafka/worker.ts';
import { fetchTopicIds } from '../../../src/adapters/kafka/client/topic-ids.ts';
import { CommittedLogReader } from './committed-log.ts';
import { createWorkerMetrics, type WorkerMetrics } from '../../../src/adapters/kafka/worker-metrics.ts';
import { EnginePool } from '../../../src/pool/engine-pool.ts';
import { loadDefaultIndex } from '../../../src/data/index-file.ts';
import { createLogger } from '../../../src/log.ts';

export const codec: ValueCodec = createValueCodec();

export interface Topics {
  input: string;
  results: string;
  ledger: string;
  dlq: string;
}

export interface Harness {
  brokers: string[];
  kafka: Kafka;
  admin: Admin;
  producer: Producer;
  run: string;
  close(): Promise<void>;
}

export async function openHarness(brokers: string[]): Promise<Harness> {
  const run = randomBytes(4).toString('hex');
  const kafka = new Kafka({ clientId: `worker-test-${run}`, brokers, logLevel: logLevel.NOTHING });
  const admin = kafka.admin();
  await admin.connect();
  // idempotent: a send retried after a timeout (a loaded CI machine, a just-started broker) must not
  // write its batch twice, or the input topic holds more records than the test produced
  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1, createPartitioner: Partitioners.DefaultPartitioner });
  await producer.connect();
  return {
    brokers, kafka, admin, producer, run,
    async close() {
      await producer.disconnect();
      await admin.disconnect();
    },
  };
}

export async function createTopics(h: Harness, name: string, partitions: number): Promise<Topics> {
  const base = `wt-${h.run}-${name}`;
  const t: Topics = { input: `${base}-in`, results: `${base}-results`, ledger: `${base}-ledger`, dlq: `${base}-dlq` };
  await h.admin.createTopics({
    topics: Object.values(t).map((topic) => ({ topic, numPartitions: topic === t.input ? partitions : 2 })),
    waitForLeaders: true,
  });
  return t;
}

export interface InputRecord {
  key: string;
  value: Buffer | null;
  headers?: IHeaders;
  expect: 'result' | 'dlq';
  op?: Op;
}

const CITIES = [
  { city: 'Berlin', country: 'DE', zip: '10117' },
  { city: 'Paris', country: 'FR', zip: '75001' },
  { city: 'Madrid', country: 'ES', zip: '28013' },
  { city: 'Wien', country: 'AT', zip: '1010' },
];

/** Avro single-object value of an OLD schema version (v1), as an older producer writes it. */
export function encodeWithVersion(subject: string, version: number, value: unknown): Buffer {
  const v = codec.schemas.version(subject, version)!;
  return Buffer.concat([singleObjectHeader(v.fingerprint), v.type.toBuffer(value)]);
}

/**
 * Record i of a mixed stream: lines and search, Avro v2 / Avro v1 / JSON, a few invalid elements
 * (error results) and every tenth record undecodable (DLQ). Keys are unique: `k-<tag>-<i>`.
 */
export function mixedRecord(i: number, tag: string): InputRecord {
  const c = CITIES[i % CITIES.length]!;
  const key = `k-${tag}-${i}`;
  const cid = { [HEADERS.correlationId]: `c-${tag}-${i}` };
  const lines = { countrycode: c.country, sendercountrycode: 'DE', city: c.city, zip: c.zip, street: 'Hauptstrasse', housenumber: String(1 + (i % 90)), additionaldata: `Person ${i}` };
  switch (i % 10) {
    case 0: case 1:
      return { key, headers: cid, op: 'lines', expect: 'result', value: codec.encode('lines-request', lines) };
    case 2:
      return { key, headers: cid, op: 'lines', expect: 'result', value: encodeWithVersion('lines-request', 1, lines) };
    case 3:
      return { key, headers: cid, op: 'lines', expect: 'result', value: Buffer.from(JSON.stringify({ op: 'lines', ...lines, countrycode: 'XX' })) };
    case 4:
      return { key, op: 'search', expect: 'result', value: codec.encode('search-request', { city: c.city, country: c.country, correlationid: `c-${tag}-${i}` }) };
    case 5:
      return { key, headers: cid, op: 'search', expect: 'result', value: encodeWithVersion('search-request', 1, { address: `${c.city}, ${c.country}` }) };
    case 6:
      return { key, headers: cid, op: 'search', expect: 'result', value: Buffer.from(JSON.stringify({ op: 'search', city: c.city, zip: c.zip, requestproof: '1', returnavailablecredits: '1' })) };
    case 7:
      return { key, headers: cid, op: 'lines', expect: 'result', value: Buffer.from(JSON.stringify({ op: 'lines', sendercountrycode: 'DE', city: c.city })) };
    case 8:
      return { key, headers: cid, op: 'search', expect: 'result', value: Buffer.from(JSON.stringify({ op: 'search', address: `${c.zip} ${c.city}` })) };
    default: {
      const bad = [
        Buffer.from([0xde, 0xad, 0xbe, 0xef]),
        Buffer.from('[1,2,3]'),
        Buffer.from(JSON.stringify({ city: 'no op field' })),
        Buffer.concat([Buffer.from([0xc3, 0x01]), randomBytes(8), Buffer.from('x')]),
        null,
        Buffer.from('{"op": "lines", "countrycode": '),
      ];
      return { key, headers: cid, expect: 'dlq', value: bad[Math.floor(i / 10) % bad.length]! };
    }
  }
}

export async function produce(h: Harness, topic: string, records: InputRecord[], chunk = 500): Promise<void> {
  for (let i = 0; i < records.length; i += chunk) {
    await h.producer.send({
      topic,
      messages: records.slice(i, i + chunk).map((r) => ({ key: r.key, value: r.value, ...(r.headers ? { headers: r.headers } : {}) })),
    });
  }
}

export interface ReadMessage {
  topic: string;
  partition: number;
  offset: string;
  key: string;
  value: Buffer | null;
  headers: IHeaders;
}

/**
 * Every committed record of `topic`, read until nothing new arrives for `idleMs` after
 * `minCount`. Decided from the log's own commit and abort markers (committed-log.ts), not by a
 * read_committed consumer: kafkajs 2.2.4 lets records of an aborted transaction through when two
 * producers' aborted transactions interleave in a partition (as around a rebalance).
 */
export async function readAll(h: Harness, topic: string, opts: { minCount?: number; idleMs?: number; timeoutMs?: number } = {}): Promise<ReadMessage[]> {
  const out: ReadMessage[] = [];
  const reader = new CommittedLogReader(h.brokers, topic, `reader-${h.run}-${randomBytes(4).toString('hex')}`);
  try {
    const started = Date.now();
    let last = started;
    const idle = opts.idleMs ?? 1500;
    while (true) {
      const got = await reader.poll();
      if (got.length) last = Date.now();
      for (const r of got) out.push({ topic, ...r });
      if (out.length >= (opts.minCount ?? 0) && Date.now() - last > idle && Date.now() - started > idle) break;
      if (Date.now() - started > (opts.timeoutMs ?? 60_000)) break;
      await new Promise((r) => setTimeout(r, 100));
    }
  } finally {
    await reader.close();
  }
  return out;
}

/** Waits until the group's committed offsets reach the end of every input partition. */
export async function waitForCommitted(h: Harness, group: string, topic: string, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const ends = await h.admin.fetchTopicOffsets(topic);
  while (true) {
    const committed = await h.admin.fetchOffsets({ groupId: group, topics: [topic] });
    const parts = committed[0]?.partitions ?? [];
    const behind = ends.filter((e) => BigInt(parts.find((p) => p.partition === e.partition)?.offset ?? '-1') < BigInt(e.high));
    if (behind.length === 0) return;
    if (Date.now() > deadline) {
      throw new Error(`group ${group} did not reach the end of ${topic}: committed ${JSON.stringify(parts)} vs ends ${JSON.stringify(ends)}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Committed offsets of the group summed over the input partitions. */
export async function committedCount(h: Harness, group: string, topic: string): Promise<number> {
  const committed = await h.admin.fetchOffsets({ groupId: group, topics: [topic] });
  return (committed[0]?.partitions ?? []).reduce((s, p) => s + Math.max(0, Number(p.offset)), 0);
}

export interface Account {
  license: string;
  guid: string;
  account: string;
  start: number;
}

export async function createAccount(db: string, credits: number, agreements: Op[] = ['search', 'lines']): Promise<Account> {
  const billing = await Billing.open(db);
  try {
    const a = await billing.createAccount({ credits, agreements });
    return { ...a, start: credits };
  } finally {
    await billing.close();
  }
}

/** The client the worker tests run on: ADDRFLOW_KAFKA_CLIENT (the worker's default otherwise), so the same tests judge both. */
export const testClient: KafkaClientName = kafkaClientFrom(undefined);

export interface RunningWorker {
  worker: StreamWorker;
  metrics: WorkerMetrics;
  stop(): Promise<void>;
}

let indexBuffer: Promise<SharedArrayBuffer> | undefined;

/** An in-process worker (its own Kafka clients, pool and billing connection), started and joined. */
export async function startWorker(opts: {
  brokers: string[]; topics: Topics; group: string; db: string; account: Account; op?: Op;
  valueFormat?: 'avro' | 'json'; threads?: number; clientId?: string; maxBatchRecords?: number;
  /** Another engine pool (tests of engine failures). */
  pool?: EnginePool;
}): Promise<RunningWorker> {
  const billing = await Billing.open(opts.db);
  const meter = await Meter.open(billing, { license: opts.account.license, guid: opts.account.guid }, opts.op ? [opts.op] : ['search', 'lines'], { sweep: true });
  const pool = opts.pool ?? await EnginePool.create({ threads: opts.threads ?? 1, ...(opts.op !== 'lines' ? { indexBuffer: await (indexBuffer ??= loadDefaultIndex()) } : {}) });
  const metrics = createWorkerMetrics(false);
  const worker = createStreamWorker(testClient, {
    brokers: opts.brokers, group: opts.group, inputTopic: opts.topics.input, resultsTopic: opts.topics.results,
    ledgerTopic: opts.topics.ledger, dlqTopic: opts.topics.dlq, valueFormat: opts.valueFormat ?? 'avro',
    ...(opts.op ? { op: opts.op } : {}),
    transactionalIdPrefix: `tx-${opts.group}`, pool, meter, codec, metrics,
    log: createLogger({ level: process.env.ADDRFLOW_TEST_LOG ?? 'silent' }),
    clientId: opts.clientId ?? 'worker-test', sessionTimeoutMs: 6000, creditCheckIntervalMs: 300,
    ...(opts.maxBatchRecords ? { maxBatchRecords: opts.maxBatchRecords } : {}),
  });
  await worker.start();
  return {
    worker, metrics,
    async stop() {
      await worker.stop();
      await meter.close();
      await pool.destroy();
      await billing.close();
    },
  };
}

export interface DecodedResult {
  key: string;
  op: Op;
  correlationId: string | undefined;
  result: Record<string, unknown>;
  charged: boolean;
}

export function decodeResult(m: ReadMessage): DecodedResult {
  const op = headerString(m.headers, HEADERS.op) as Op;
  const d = codec.decode(m.value);
  const result = d.format === 'json' ? d.value : resultFromAvro(op, d.value as unknown as AvroResult);
  const ok = result.errorcode === undefined;
  const charged = ok && (op === 'search' || isChargeableLinesStatus(Number(result.addresslinestatuscode)));
  return { key: m.key, op, correlationId: headerString(m.headers, HEADERS.correlationId), result, charged };
}

export interface Invariants {
  results: DecodedResult[];
  dlq: ReadMessage[];
  charged: { search: number; lines: number };
  ledgerIds: string[];
}

/**
 * Nothing lost, nothing twice: exactly one committed result per decodable input record (key and
 * correlation id carried over), exactly the undecodable ones in the DLQ, one ledger entry (topic
 * and store) per charged record with id topic/partition/offset, balance = start − price × charged.
 */
export async function checkInvariants(
  h: Harness, topics: Topics, records: InputRecord[], db: string, account: Account, opts: { killed?: boolean } = {},
): Promise<Invariants> {
  const wantResults = records.filter((r) => r.expect === 'result');
  const wantDlq = records.filter((r) => r.expect === 'dlq');
  const [input, resultMsgs, dlq, ledgerMsgs] = await Promise.all([
    readAll(h, topics.input, { minCount: records.length }),
    readAll(h, topics.results, { minCount: wantResults.length }),
    readAll(h, topics.dlq, { minCount: wantDlq.length }),
    readAll(h, topics.ledger),
  ]);
  expect(input).toHaveLength(records.length);
  const sourceOf = new Map(input.map((m) => [m.key, `${topics.input}/${m.partition}/${m.offset}`]));

  const results = resultMsgs.map(decodeResult);
  expect(results.map((r) => r.key).sort()).toEqual(wantResults.map((r) => r.key).sort()); // each exactly once
  for (const r of results) {
    const tag = r.key.slice(2);
    expect(r.correlationId, r.key).toBe(`c-${tag}`);
    expect(r.op, r.key).toBe(records.find((x) => x.key === r.key)!.op);
  }
  expect(dlq.map((m) => m.key).sort()).toEqual(wantDlq.map((r) => r.key).sort());
  for (const m of dlq) {
    expect(headerString(m.headers, HEADERS.errorCode), m.key).toMatch(/^ADDR_DECODE_/);
    expect(headerString(m.headers, HEADERS.errorReason)?.length, m.key).toBeGreaterThan(0);
    expect(`${headerString(m.headers, HEADERS.sourceTopic)}/${headerString(m.headers, HEADERS.sourcePartition)}/${headerString(m.headers, HEADERS.sourceOffset)}`).toBe(sourceOf.get(m.key));
    expect(headerString(m.headers, HEADERS.correlationId)).toBe(`c-${m.key.slice(2)}`);
  }

  const chargedResults = results.filter((r) => r.charged);
  const expectedIds = chargedResults.map((r) => sourceOf.get(r.key)!).sort();
  // ledger ids: <account>/<op>/kafka:<topic id>:<group>/<partition>/<offset> (compared here by topic/partition/offset)
  const topicId = (await fetchTopicIds({ brokers: [...h.brokers] }, [topics.input])).get(topics.input)!;
  const idShape = new RegExp(`^${account.account}/(search|lines)/kafka:${topicId}:[^/]+/(\\d+)/(\\d+)$`);
  const source = (id: string): string => {
    const m = idShape.exec(id);
    expect(m, id).not.toBeNull();
    return `${topics.input}/${m![2]}/${m![3]}`;
  };
  const ledgerIds = ledgerMsgs.map((m) => source(m.key)).sort();
  expect(ledgerIds).toEqual(expectedIds); // one ledger entry per charged record, none twice
  for (const m of ledgerMsgs) {
    const d = codec.decode(m.value);
    expect((d.value as { id: string }).id).toBe(m.key);
    expect((d.value as { account: string }).account).toBe(account.account);
  }

  const billing = await Billing.open(db);
  try {
    const store = await billing.ledger(account.account, 1_000_000);
    expect(store.map((e) => source(e.id)).sort()).toEqual(expectedIds);
    const charged = {
      search: chargedResults.filter((r) => r.op === 'search').length,
      lines: chargedResults.filter((r) => r.op === 'lines').length,
    };
    const balance = await billing.balance(account.account);
    expect(balance).toBe(account.start - PRICES.search * charged.search - PRICES.lines * charged.lines);
    // a killed worker leaves its batch's reservation until its lease ends (billing's DEFAULT_LEASE_MS)
    if (!opts.killed) expect((await billing.findAccount({ id: account.account }))?.reserved).toBe(0);
    return { results, dlq, charged, ledgerIds };
  } finally {
    await billing.close();
  }
}
