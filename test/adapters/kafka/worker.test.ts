/**
 * The stream worker end to end against the real broker (in-process workers; the crash test with
 * the real CLI is worker-crash.test.ts). Every test has its own topics, group and account.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Billing } from '../../../src/billing/billing.ts';
import { PRICES } from '../../../src/billing/prices.ts';
import { HEADERS, headerString } from '../../../src/adapters/kafka/headers.ts';
import { describeWithKafka } from '../../helpers/kafka.ts';
import {
  checkInvariants, codec, committedCount, createAccount, createTopics, encodeWithVersion, mixedRecord, openHarness,
  produce, readAll, startWorker, waitForCommitted, decodeResult, type Harness, type InputRecord, type RunningWorker,
} from './worker-harness.ts';

await describeWithKafka('Kafka stream worker', (brokers) => {
  let h: Harness;
  let dir: string;
  const running: RunningWorker[] = [];

  beforeAll(async () => {
    h = await openHarness(brokers());
    dir = mkdtempSync(join(tmpdir(), 'addrflow-worker-'));
  });

  afterAll(async () => {
    for (const w of running) await w.stop().catch(() => {});
    await h?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function start(opts: Omit<Parameters<typeof startWorker>[0], 'brokers'>): Promise<RunningWorker> {
    const w = await startWorker({ brokers: brokers(), ...opts });
    running.push(w);
    return w;
  }

  async function stop(w: RunningWorker): Promise<void> {
    running.splice(running.indexOf(w), 1);
    await w.stop();
  }

  it('mixed search and lines records, Avro and JSON, with undecodable ones: exactly one result each, DLQ, ledger, balance', async () => {
    const topics = await createTopics(h, 'e2e', 2);
    const db = `sqlite:${join(dir, 'e2e.sqlite')}`;
    const account = await createAccount(db, 1_000_000);
    const records: InputRecord[] = Array.from({ length: 1200 }, (_, i) => mixedRecord(i, 'e2e'));
    await produce(h, topics.input, records);
    const group = `g-${h.run}-e2e`;
    const w = await start({ topics, group, db, account });
    await waitForCommitted(h, group, topics.input);
    const inv = await checkInvariants(h, topics, records, db, account);

    expect(inv.results).toHaveLength(1080);
    expect(inv.dlq).toHaveLength(120);
    // real engine output, not placeholders: recipient blocks name the city, lookups find it
    const berlinLines = inv.results.find((r) => r.key === 'k-e2e-0')!;
    expect(berlinLines.result).toMatchObject({ addressline1: 'Person 0', addressline2: 'Hauptstrasse 1', addressline3: '10117 Berlin', addresslinestatuscode: 0 });
    const invalid = inv.results.find((r) => r.key === 'k-e2e-7')!; // lines without countrycode
    expect(invalid.result).toMatchObject({ errorcode: 428 });
    expect(invalid.charged).toBe(false);
    const searched = inv.results.find((r) => r.key === 'k-e2e-6')!; // requestproof + returnavailablecredits
    expect(searched.result.requestid).toMatch(/\S/);
    expect(Number(searched.result.availablecredits)).toBeLessThan(1_000_000);
    // every search record (4 of 10) is charged; lines: kinds 0-2 (3 of 10) except the Madrid ones
    // (status 30, ES needs more fields), never the invalid country (status 10) or the 428 ones
    expect(inv.charged).toEqual({ search: 480, lines: 240 });
    expect(inv.results.find((r) => r.key === 'k-e2e-2')!.result).toMatchObject({ addresslinestatuscode: 30 });
    expect(inv.results.find((r) => r.key === 'k-e2e-3')!.result).toMatchObject({ addresslinestatuscode: 10 });

    // metrics agree with what was committed
    const text = await w.metrics.registry.metrics();
    expect(text).toMatch(new RegExp(`addrflow_kafka_dlq_records_total 120`));
    const processed = [...text.matchAll(/addrflow_kafka_records_processed_total\{op="(\w+)"\} (\d+)/g)].reduce((s, m) => s + Number(m[2]), 0);
    expect(processed).toBe(1080);
    expect(text).toMatch(/addrflow_kafka_consumer_lag\{topic="[^"]+",partition="0"\} 0/);
    await stop(w);
  });

  it('DLQ: reason headers on the original record, and the partition keeps flowing past it (JSON values, --op lines)', async () => {
    const topics = await createTopics(h, 'dlq', 1);
    const db = `sqlite:${join(dir, 'dlq.sqlite')}`;
    const account = await createAccount(db, 1_000_000, ['lines']);
    const records: InputRecord[] = Array.from({ length: 40 }, (_, i) => {
      const key = `k-dlq-${i}`;
      const headers = { [HEADERS.correlationId]: `c-dlq-${i}` };
      if (i % 4 === 1) return { key, headers, expect: 'dlq' as const, value: i % 8 === 1 ? Buffer.from([0xff, 0xfe, 0x00, 0x01]) : codec.encode('search-request', { city: 'Berlin' }) };
      return { key, headers, op: 'lines' as const, expect: 'result' as const, value: Buffer.from(JSON.stringify({ countrycode: 'FR', sendercountrycode: 'DE', city: 'Paris', zip: '75001', street: 'Rue de Rivoli', housenumber: String(i) })) };
    });
    await produce(h, topics.input, records);
    const group = `g-${h.run}-dlq`;
    const w = await start({ topics, group, db, account, op: 'lines', valueFormat: 'json' });
    await waitForCommitted(h, group, topics.input);
    const inv = await checkInvariants(h, topics, records, db, account);
    expect(inv.dlq).toHaveLength(10);
    const byKey = new Map(inv.dlq.map((m) => [m.key, m]));
    const garbage = byKey.get('k-dlq-1')!;
    expect(headerString(garbage.headers, HEADERS.errorCode)).toBe('ADDR_DECODE_UNKNOWN_FORMAT');
    expect(garbage.value).toEqual(Buffer.from([0xff, 0xfe, 0x00, 0x01])); // the original value, unchanged
    expect(headerString(garbage.headers, HEADERS.sourceOffset)).toBe('1');
    const wrongSchema = byKey.get('k-dlq-5')!;
    expect(headerString(wrongSchema.headers, HEADERS.errorCode)).toBe('ADDR_DECODE_UNEXPECTED_SCHEMA');
    expect(headerString(wrongSchema.headers, HEADERS.errorReason)).toContain('search-request');
    // the records after the last bad one were processed: results are JSON spec objects
    const last = inv.results.find((r) => r.key === 'k-dlq-39')!;
    expect(last.result.addressline1).toBeDefined();
    expect(Object.values(last.result).join('|')).toMatch(/75001 PARIS/i);
    expect(inv.charged.lines).toBe(30);
    await stop(w);
  });

  it('schema evolution: records written with the v1 request schemas are read by the v2 reader', async () => {
    const topics = await createTopics(h, 'evolution', 1);
    const db = `sqlite:${join(dir, 'evolution.sqlite')}`;
    const account = await createAccount(db, 1_000_000);
    const records: InputRecord[] = Array.from({ length: 20 }, (_, i) => {
      const key = `k-evo-${i}`;
      const headers = { [HEADERS.correlationId]: `c-evo-${i}` };
      return i % 2 === 0
        ? { key, headers, op: 'lines' as const, expect: 'result' as const, value: encodeWithVersion('lines-request', 1, { countrycode: 'AT', sendercountrycode: 'DE', city: 'Wien', zip: '1010', street: 'Graben', housenumber: String(i + 1), requestproof: '1' }) }
        : { key, headers, op: 'search' as const, expect: 'result' as const, value: encodeWithVersion('search-request', 1, { city: 'Wien', country: 'AT' }) };
    });
    // really v1: the single-object fingerprint is the v1 schema's, which differs from v2's
    expect(records[0]!.value!.subarray(2, 10)).not.toEqual(codec.encode('lines-request', { countrycode: 'AT', sendercountrycode: 'DE' }).subarray(2, 10));
    await produce(h, topics.input, records);
    const group = `g-${h.run}-evo`;
    const w = await start({ topics, group, db, account });
    await waitForCommitted(h, group, topics.input);
    const inv = await checkInvariants(h, topics, records, db, account);
    expect(inv.dlq).toHaveLength(0);
    for (const r of inv.results) {
      expect(r.result.errorcode, r.key).toBeUndefined();
      expect(r.charged).toBe(true);
    }
    const lines = inv.results.find((r) => r.key === 'k-evo-0')!;
    expect(Object.values(lines.result).join('|')).toMatch(/1010 WIEN/i);
    expect(lines.result.requestid).toMatch(/\S/);
    const search = inv.results.find((r) => r.key === 'k-evo-1')!;
    expect(String(search.result.city ?? '')).toMatch(/wien|vienna/i);
    await stop(w);
  });

  it('pauses when the balance runs out, skips nothing, and resumes by itself after a top-up', async () => {
    const topics = await createTopics(h, 'credits', 1);
    const db = `sqlite:${join(dir, 'credits.sqlite')}`;
    const covered = 30;
    const account = await createAccount(db, covered * PRICES.lines, ['lines']);
    const records: InputRecord[] = Array.from({ length: 100 }, (_, i) => ({
      key: `k-cr-${i}`, headers: { [HEADERS.correlationId]: `c-cr-${i}` }, op: 'lines' as const, expect: 'result' as const,
      value: codec.encode('lines-request', { countrycode: 'DE', sendercountrycode: 'DE', city: 'Berlin', zip: '10117', street: 'Unter den Linden', housenumber: String(i + 1) }),
    }));
    await produce(h, topics.input, records);
    const group = `g-${h.run}-credits`;
    const w = await start({ topics, group, db, account, op: 'lines' });

    // it stops exactly where the credits end, and stays there
    const deadline = Date.now() + 30_000;
    while (w.worker.paused.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(w.worker.paused).toEqual([0]);
    expect(await committedCount(h, group, topics.input)).toBe(covered);
    await new Promise((r) => setTimeout(r, 1500));
    expect(await committedCount(h, group, topics.input)).toBe(covered);
    expect(await w.metrics.registry.metrics()).toMatch(/addrflow_kafka_partition_paused\{topic="[^"]+",partition="0"\} 1/);
    const partial = await readAll(h, topics.results, { minCount: covered, idleMs: 500 });
    expect(partial.map((m) => decodeResult(m).key).sort()).toEqual(records.slice(0, covered).map((r) => r.key).sort());

    // top up (as `addrflow accounts topup` does): the worker notices by itself
    const billing = await Billing.open(db);
    await billing.topup({ id: account.account }, (100 - covered) * PRICES.lines);
    await billing.close();
    await waitForCommitted(h, group, topics.input, 30_000);
    expect(w.worker.paused).toEqual([]);
    const inv = await checkInvariants(h, topics, records, db, { ...account, start: 100 * PRICES.lines });
    expect(inv.charged.lines).toBe(100);
    await stop(w);
  });

  it('rebalance: a second worker joins mid-stream; nothing lost, nothing twice', async () => {
    const topics = await createTopics(h, 'rebalance', 4);
    const db = `sqlite:${join(dir, 'rebalance.sqlite')}`;
    const account = await createAccount(db, 10_000_000);
    const records: InputRecord[] = Array.from({ length: 3000 }, (_, i) => mixedRecord(i, 'rb'));
    const group = `g-${h.run}-rb`;
    // the stream keeps arriving while the group changes
    const a = await start({ topics, group, db, account, clientId: 'worker-a' });
    let bJoined = false;
    let producedAfterJoin = 0;
    const producing = (async () => {
      for (let i = 0; i < records.length; i += 50) {
        // the second half waits for worker b, however slowly a loaded machine lets a start: the
        // stream really goes on after the group changed
        while (i >= records.length / 2 && !bJoined) await new Promise((r) => setTimeout(r, 50));
        await produce(h, topics.input, records.slice(i, i + 50));
        if (bJoined) producedAfterJoin += 50;
        await new Promise((r) => setTimeout(r, 60));
      }
    })();
    while ((await committedCount(h, group, topics.input)) < 200) await new Promise((r) => setTimeout(r, 50));
    const b = await start({ topics, group, db, account, clientId: 'worker-b' });
    bJoined = true;
    await producing;
    expect(producedAfterJoin).toBeGreaterThanOrEqual(records.length / 2); // really mid-stream
    await waitForCommitted(h, group, topics.input);
    await checkInvariants(h, topics, records, db, account);
    const processedBy = async (w: RunningWorker) => {
      const text = await w.metrics.registry.metrics();
      return [...text.matchAll(/addrflow_kafka_records_processed_total\{op="\w+"\} (\d+)/g)].reduce((s, m) => s + Number(m[1]), 0);
    };
    const [pa, pb] = [await processedBy(a), await processedBy(b)];
    expect(pa).toBeGreaterThan(0);
    expect(pb).toBeGreaterThan(0); // the second instance really took partitions
    await stop(b);
    await stop(a);
  });
});
