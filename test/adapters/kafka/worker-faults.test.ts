/**
 * Faults survived by `addrflow consume` (issue 12), with real processes and signals. Each test
 * starts its OWN broker (another port and state dir, test/helpers/kafka-instance.ts), because it
 * kills it; the run's shared broker is never touched.
 *
 *  - the broker killed with -9 mid-stream and started again: the worker waits, reconnects, and
 *    every record ends with exactly one result and at most one charge;
 *  - SIGTERM while the broker is down: the worker exits within STOP_BOUND_MS; the next worker
 *    (same group) takes over and every record still ends with exactly one result;
 *  - SIGTERM after the broker came back: exits within the bound, code 0;
 *  - an error that is not a decode error and keeps repeating (results bigger than the results
 *    topic accepts): retried with back-off, reported (error log with the count, metric, /healthz
 *    503), nothing skipped; processing resumes once the cause is fixed.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { ChildProcess } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConfigResourceTypes } from '../../../src/adapters/kafka/client/kafkajs.ts';
import { ownBrokerUnavailable, startOwnBroker, type OwnBroker } from '../../helpers/kafka-instance.ts';
import { consumeArgs, launchConsume } from './consume-process.ts';
import {
  checkInvariants, committedCount, createAccount, createTopics, mixedRecord, openHarness, produce, waitForCommitted,
  type Harness, type InputRecord,
} from './worker-harness.ts';

/** The stated bound: a worker exits at most this long after SIGTERM, whatever the broker does. */
const STOP_BOUND_MS = 30_000;

const unavailable = ownBrokerUnavailable();
if (unavailable && process.env.ADDRFLOW_REQUIRE_KAFKA === '1') throw new Error(`Kafka required (ADDRFLOW_REQUIRE_KAFKA=1): ${unavailable}`);
const suite = unavailable ? describe.skip : describe;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The SIGTERM-under-broker-faults cases test the worker's bounded stop, which is the one worker's
 * own code whichever client it uses; the kafkajs project (vitest.config.ts) runs the issue's
 * conformance list (results, ledger, DLQ, kill -9, rebalance, broker restart, credit pause) and
 * leaves these two to the default client, to keep CI under its time budget.
 */
const onKafkajs = process.env.ADDRFLOW_KAFKA_CLIENT === 'kafkajs';
const sigtermCase = onKafkajs ? it.skip : it;
const SIGTERM_SKIP = onKafkajs ? ' — SKIPPED on kafkajs: the stop is the shared worker\'s, run on the default client' : '';

suite(`addrflow consume survives broker faults (own broker per test)${unavailable ? ` — SKIPPED: ${unavailable}` : ''}`, () => {
  let broker: OwnBroker | undefined;
  let h: Harness | undefined;
  let dir: string | undefined;
  const children: ChildProcess[] = [];

  async function setup(name: string): Promise<{ broker: OwnBroker; h: Harness; dir: string }> {
    dir = mkdtempSync(join(tmpdir(), `addrflow-faults-${name}-`));
    broker = await startOwnBroker({ name });
    h = await openHarness(broker.brokers);
    return { broker, h, dir };
  }

  afterEach(async () => {
    for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await h?.close().catch(() => {});
    await broker?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
    broker = undefined;
    h = undefined;
    dir = undefined;
  }, 60_000);

  /** Waits until `cond` holds, polling (errors while the broker is down count as "not yet"). */
  async function until(cond: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (await cond().catch(() => false)) return;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await sleep(100);
    }
  }

  /** After a restart: until the test's own clients are served again (leaders elected, offsets answered). */
  async function serving(h: Harness, topic: string): Promise<void> {
    await until(async () => (await h.admin.fetchTopicOffsets(topic)).length > 0, 60_000, 'the restarted broker to serve');
  }

  it('broker killed with -9 mid-stream and started again: the worker waits, reconnects; exactly one result, at most one charge', async () => {
    const { broker, h, dir } = await setup('kill9');
    const topics = await createTopics(h, 'kill9', 2);
    const db = `sqlite:${join(dir, 'billing.sqlite')}`;
    const account = await createAccount(db, 10_000_000);
    const records: InputRecord[] = Array.from({ length: 3000 }, (_, i) => mixedRecord(i, 'k9'));
    await produce(h, topics.input, records);
    const group = `g-${h.run}-kill9`;
    const w = await launchConsume(consumeArgs(broker.brokers, topics, group, db, account), {}, children);
    await until(async () => (await committedCount(h, group, topics.input)) >= 300, 120_000, 'the first commits');
    await broker.kill9();
    await sleep(3000); // the worker sees the broker gone
    expect(w.child.exitCode).toBeNull(); // it waits
    await broker.start();
    await serving(h, topics.input);
    await waitForCommitted(h, group, topics.input, 180_000);
    const t0 = Date.now();
    w.child.kill('SIGTERM');
    const r = await w.done;
    expect(Date.now() - t0).toBeLessThan(STOP_BOUND_MS);
    expect(r.code, `exit ${r.code}/${r.signal}; stderr:\n${r.stderr.slice(-4000)}`).toBe(0);
    await checkInvariants(h, topics, records, db, account);
  }, 420_000);

  sigtermCase(`SIGTERM while the broker is down: exits within the bound; the next worker takes over; exactly one result each${SIGTERM_SKIP}`, async () => {
    const { broker, h, dir } = await setup('term-down');
    const topics = await createTopics(h, 'term-down', 2);
    const db = `sqlite:${join(dir, 'billing.sqlite')}`;
    const account = await createAccount(db, 10_000_000);
    const records: InputRecord[] = Array.from({ length: 3000 }, (_, i) => mixedRecord(i, 'td'));
    await produce(h, topics.input, records);
    const group = `g-${h.run}-term-down`;
    const first = await launchConsume(consumeArgs(broker.brokers, topics, group, db, account), { ADDRFLOW_LOG_LEVEL: 'info' }, children);
    await until(async () => (await committedCount(h, group, topics.input)) >= 300, 120_000, 'the first commits');
    await broker.kill9();
    await sleep(1000);
    const t0 = Date.now();
    first.child.kill('SIGTERM');
    const stopped = await first.done;
    const took = Date.now() - t0;
    expect(took, `exited after ${took} ms`).toBeLessThan(STOP_BOUND_MS);
    expect(stopped.code, stopped.stderr.slice(-4000)).toBe(0);
    expect(stopped.stderr).toMatch(/"msg":"stopped"/);

    await broker.start();
    await serving(h, topics.input);
    const second = await launchConsume(consumeArgs(broker.brokers, topics, group, db, account), {}, children);
    await waitForCommitted(h, group, topics.input, 180_000);
    second.child.kill('SIGTERM');
    expect((await second.done).code).toBe(0);
    await checkInvariants(h, topics, records, db, account, { killed: true }); // the first may leave a reservation until stale
  }, 420_000);

  sigtermCase(`SIGTERM after the broker was killed and came back: exits within the bound, code 0${SIGTERM_SKIP}`, async () => {
    const { broker, h, dir } = await setup('term-back');
    const topics = await createTopics(h, 'term-back', 2);
    const db = `sqlite:${join(dir, 'billing.sqlite')}`;
    const account = await createAccount(db, 10_000_000);
    const records: InputRecord[] = Array.from({ length: 2000 }, (_, i) => mixedRecord(i, 'tb'));
    await produce(h, topics.input, records.slice(0, 1000));
    const group = `g-${h.run}-term-back`;
    const w = await launchConsume(consumeArgs(broker.brokers, topics, group, db, account), {}, children);
    await waitForCommitted(h, group, topics.input, 120_000);
    await broker.kill9();
    await sleep(3000);
    await broker.start();
    await serving(h, topics.input);
    await produce(h, topics.input, records.slice(1000)); // the worker is back when these are committed
    await until(async () => (await committedCount(h, group, topics.input)) >= 1500, 180_000, 'commits after the restart');
    const t0 = Date.now();
    w.child.kill('SIGTERM');
    const r = await w.done;
    const took = Date.now() - t0;
    expect(took, `exited after ${took} ms`).toBeLessThan(STOP_BOUND_MS);
    expect(r.code, `exit ${r.code}/${r.signal}; stderr:\n${r.stderr.slice(-4000)}`).toBe(0);

    const next = await launchConsume(consumeArgs(broker.brokers, topics, group, db, account), {}, children);
    await waitForCommitted(h, group, topics.input, 120_000);
    next.child.kill('SIGTERM');
    expect((await next.done).code).toBe(0);
    await checkInvariants(h, topics, records, db, account);
  }, 420_000);

  it('an error that is not a decode error and keeps repeating: retried with back-off, reported (log, metric, /healthz 503), nothing skipped; resumes once fixed', async () => {
    const { broker, h, dir } = await setup('poison');
    const topics = await createTopics(h, 'poison', 1);
    // the results topic refuses every result batch: each transaction fails at its first send
    const setMaxMessageBytes = (value: string) => h.admin.alterConfigs({
      validateOnly: false,
      resources: [{ type: 2 as ConfigResourceTypes /* TOPIC (a TS enum kafkajs's CommonJS build does not export by name) */, name: topics.results, configEntries: [{ name: 'max.message.bytes', value }] }],
    });
    await setMaxMessageBytes('1024'); // above a transaction marker (a smaller limit blocks the abort itself), below a batch of results
    const db = `sqlite:${join(dir, 'billing.sqlite')}`;
    const account = await createAccount(db, 10_000_000);
    const records: InputRecord[] = Array.from({ length: 200 }, (_, i) => mixedRecord(i, 'px'));
    await produce(h, topics.input, records);
    const group = `g-${h.run}-poison`;
    const w = await launchConsume(consumeArgs(broker.brokers, topics, group, db, account), { ADDRFLOW_LOG_LEVEL: 'info' }, children);
    await until(async () => (await fetch(`${w.metrics}/healthz`)).status === 503, 120_000, '/healthz to report the failing batch');
    const metrics = await (await fetch(`${w.metrics}/metrics`)).text();
    const attempts = Number(metrics.match(/addrflow_kafka_partition_failed_attempts\{[^}]*partition="0"[^}]*\} (\d+)/)?.[1]);
    expect(attempts).toBeGreaterThanOrEqual(3);
    await until(async () => w.stderr().includes('a batch keeps failing'), 10_000, 'the error log line');
    expect(await committedCount(h, group, topics.input)).toBe(0); // nothing skipped, nothing committed
    const line = w.stderr().split('\n').find((l) => l.includes('a batch keeps failing'))!;
    expect(JSON.parse(line)).toMatchObject({ level: 50, partition: 0, failures: expect.any(Number), retryInMs: expect.any(Number) });

    await setMaxMessageBytes('1048588'); // the cause goes away
    await waitForCommitted(h, group, topics.input, 120_000).catch((e: Error) => {
      if (process.env.ADDRFLOW_DEBUG_STDERR) writeFileSync(process.env.ADDRFLOW_DEBUG_STDERR, w.stderr());
      throw new Error(`${e.message}\n--- worker stderr (tail) ---\n${w.stderr().slice(-6000)}`);
    });
    await until(async () => (await fetch(`${w.metrics}/healthz`)).status === 200, 30_000, '/healthz to recover');
    w.child.kill('SIGTERM');
    expect((await w.done).code).toBe(0);
    await checkInvariants(h, topics, records, db, account);
  }, 300_000);
});
