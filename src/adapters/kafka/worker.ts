/**
 * The Kafka stream worker (`addrflow consume`) on kafkajs: consumer group → engine pool → results,
 * ledger and DLQ topics, exactly once. Since issue 12 the default transport is
 * @platformatic/kafka (worker-platformatic.ts); this one stays selectable (`--kafka-client
 * kafkajs`). Steps 2–6 below are the shared slice (slice.ts); this file is the kafkajs transport:
 * eachBatch, pause/seek per partition, the per-partition producers, recovery.
 *
 * Per batch of one input partition (kafkajs `eachBatch`, offsets resolved by hand):
 *  1. open a transaction on the partition's own transactional producer (partition-producers.ts);
 *     on the first batch after a (re)assignment its InitProducerId fences the previous owner and
 *     finishes its pending transaction, and only THEN the group's committed offset is read: records
 *     below it were committed by the previous owner and are dropped from the batch;
 *  2. decode each message (stream-record.ts); undecodable → DLQ record with the reason; then
 *     validate each element once (412/428 error results, free, like HTTP and file jobs);
 *  3. hold credits through the one metering path (src/billing/meter.ts) for the
 *     records that would be charged; only the prefix the balance covers runs; the partition is
 *     paused at the first record it cannot pay for (never for a free one) and resumes by itself
 *     after a top-up;
 *  4. run the validated elements through the pool, one task per op (split across the threads);
 *     an engine failure is a DLQ record (ADDR_ERR_INTERNAL), logged, never charged;
 *  5. settle: ledger rows + debit in the billing store, idempotent on the ledger id
 *     `<account>/<op>/kafka:<topic id>:<group>/<partition>/<offset>` — BEFORE the Kafka commit,
 *     so a crash in between replays without charging twice;
 *  6. one transaction: results (key, correlation id), a ledger-topic entry for each ledger row
 *     settle wrote, DLQ records, then sendOffsets (retried, send-offsets.ts), commit. Any error
 *     aborts it; the batch is redelivered.
 * While the billing store is unreachable (StoreUnavailableError, within its 5 s timeout) the
 * hold or the settle fails: the batch is aborted and tried again every second, so nothing runs
 * unpaid and nothing is lost, and the worker carries on by itself once the store is back (logged
 * once each way).
 */
import type { Admin, Consumer, EachBatchPayload, Kafka, Transaction } from './client/kafkajs.ts';
import { createKafka } from './client/kafkajs.ts';
import type { KafkaConnection } from './client/connection.ts';
import { fetchTopicIds } from './client/topic-ids.ts';
import { requireTopics } from './topics/ensure.ts';
import { BatchFailures } from './batch-failures.ts';
import type { Op } from '../../contract/params.ts';
import type { EnginePool } from '../../pool/engine-pool.ts';
import type { Logger } from '../../log.ts';
import type { ValueCodec } from './avro/codec.ts';
import type { OutputFormat } from './output-messages.ts';
import { PartitionProducers } from './partition-producers.ts';
import { sendOffsetsRetrying } from './send-offsets.ts';
import { DEFAULT_MAX_BATCH_RECORDS, FENCED, NoCredits, runSlice, type SliceTransaction } from './slice.ts';
import type { InputMessage } from './stream-record.ts';
import type { Hold as BatchPlan, Meter } from '../../billing/meter.ts';
import type { WorkerMetrics } from './worker-metrics.ts';

export { DEFAULT_MAX_BATCH_RECORDS } from './slice.ts';

export interface StreamWorkerOptions {
  brokers: string[];
  /** TLS / SASL to the cluster (src/adapters/kafka/client/connection.ts); `brokers` alone = PLAINTEXT. */
  connection?: KafkaConnection;
  group: string;
  inputTopic: string;
  resultsTopic: string;
  ledgerTopic: string;
  dlqTopic: string;
  /** Fixes the op of every record; otherwise the value names it. */
  op?: Op;
  valueFormat: OutputFormat;
  transactionalIdPrefix: string;
  pool: EnginePool;
  meter: Meter;
  codec: ValueCodec;
  log: Logger;
  metrics: WorkerMetrics;
  clientId?: string;
  /** Consumer group session timeout (default 30 s); a killed member is noticed after it. */
  sessionTimeoutMs?: number;
  /** How often a paused worker looks at the balance (default 5 s). */
  creditCheckIntervalMs?: number;
  /** Input partitions processed at the same time (default 4). */
  partitionsConcurrently?: number;
  transactionTimeoutMs?: number;
  /** Records per transaction (default DEFAULT_MAX_BATCH_RECORDS). */
  maxBatchRecords?: number;
  /** Looks up the input topic's id (default: the cluster metadata, client/topic-ids.ts). */
  topicId?: (topic: string) => Promise<string>;
  /** How long start() waits for unreachable brokers before ADDR_ERR_KAFKA_UNREACHABLE (default START_WAIT_MS, 30 s). */
  startWaitMs?: number;
}

/** How long `stop()` waits for the batch in flight and the disconnects before it gives up (the CLI's bound is 30 s in all). */
export const DEFAULT_STOP_TIMEOUT_MS = 20_000;


function kafkaErrorType(e: unknown): string | undefined {
  return typeof e === 'object' && e !== null ? (e as { type?: string }).type : undefined;
}

export class StreamWorker {
  private readonly o: StreamWorkerOptions;
  private readonly connection: KafkaConnection;
  private readonly kafka: Kafka;
  private inputTopicIdValue: string | undefined;
  private readonly consumer: Consumer;
  private readonly admin: Admin;
  private readonly producers: PartitionProducers;
  private readonly log: Logger;
  /** Partitions whose committed offset was checked after the producer fenced the previous owner. */
  private readonly verified = new Set<number>();
  private readonly pausedPartitions = new Set<number>();
  private creditTimer: NodeJS.Timeout | undefined;
  /** Failed attempts per input partition, their back-off and reporting (batch-failures.ts). */
  private readonly failures: BatchFailures;
  /** Partitions held back after a failure, with the timer that resumes them. */
  private readonly retryTimers = new Map<number, NodeJS.Timeout>();
  private running = false;
  private stopping = false;
  private crashed: ((e: Error) => void) | undefined;
  /** Resolves (with the error) if the consumer crashes beyond kafkajs's own restarts. */
  readonly failed: Promise<Error>;

  constructor(opts: StreamWorkerOptions) {
    this.o = opts;
    this.log = opts.log;
    this.failures = new BatchFailures(opts.log, opts.metrics, opts.inputTopic);
    this.connection = opts.connection ?? { brokers: opts.brokers };
    this.kafka = createKafka(this.connection, { clientId: opts.clientId ?? 'addrflow-worker', log: opts.log });
    const sessionTimeout = opts.sessionTimeoutMs ?? 30_000;
    this.consumer = this.kafka.consumer({
      groupId: opts.group,
      sessionTimeout,
      heartbeatInterval: Math.min(3000, Math.floor(sessionTimeout / 3)),
      readUncommitted: false,
      maxWaitTimeInMs: 1000,
    });
    this.admin = this.kafka.admin();
    this.producers = new PartitionProducers(this.kafka, {
      prefix: opts.transactionalIdPrefix, topic: opts.inputTopic, transactionTimeoutMs: opts.transactionTimeoutMs ?? 60_000,
    });
    this.failed = new Promise((resolve) => (this.crashed = resolve));
  }

  /** Running, and no partition's batch has failed FAILING_THRESHOLD times in a row. */
  get healthy(): boolean {
    return this.running && !this.stopping && this.failingPartitions.length === 0;
  }

  /** Partitions whose head batch keeps failing (FAILING_THRESHOLD or more attempts in a row). */
  get failingPartitions(): readonly number[] {
    return this.failures.failing;
  }

  /** The input topic's id (UUID, from the cluster metadata; a recreated topic has a new one). Known after start(). */
  get inputTopicId(): string {
    if (this.inputTopicIdValue === undefined) throw new Error('the input topic id is known once the worker has started');
    return this.inputTopicIdValue;
  }

  get paused(): readonly number[] {
    return [...this.pausedPartitions];
  }

  async start(): Promise<void> {
    const o = this.o;
    // brokers reachable (bounded wait), credentials accepted, the four topics there: else one coded
    // StartError, the same as the platformatic worker's (topics/ensure.ts)
    await requireTopics(this.connection, { input: o.inputTopic, results: o.resultsTopic, ledger: o.ledgerTopic, dlq: o.dlqTopic }, {
      clientId: `${o.clientId ?? 'addrflow-worker'}-start`, ...(o.startWaitMs !== undefined ? { waitMs: o.startWaitMs } : {}),
    });
    await this.admin.connect();
    // the metering job: this consumer group on this topic, by the topic's id (a recreated topic is new)
    const topicId = o.topicId
      ? await o.topicId(o.inputTopic)
      : (await fetchTopicIds(this.connection, [o.inputTopic])).get(o.inputTopic)!;
    this.inputTopicIdValue = topicId;
    o.meter.bindJob({ kind: 'kafka', topicId, group: o.group });
    this.log.info({ topic: o.inputTopic, topicId, group: o.group }, 'metering job: consumer group on topic id');
    const { GROUP_JOIN, CRASH } = this.consumer.events;
    this.consumer.on(GROUP_JOIN, (e) => {
      const assigned = new Set<number>(e.payload.memberAssignment[o.inputTopic] ?? []);
      this.verified.clear(); // another member may have owned any of them since
      for (const p of this.pausedPartitions) if (!assigned.has(p)) this.setPaused(p, false);
      this.log.info({ group: o.group, partitions: [...assigned] }, 'partitions assigned');
      void this.producers.retain(assigned);
    });
    this.consumer.on(CRASH, (e) => {
      if (this.stopping) return;
      if (e.payload.restart) {
        this.log.warn({ err: e.payload.error }, 'consumer crashed; kafkajs restarts it');
        return;
      }
      this.running = false;
      this.log.error({ err: e.payload.error }, 'consumer crashed');
      this.crashed?.(e.payload.error);
    });
    await this.consumer.connect();
    await this.consumer.subscribe({ topic: o.inputTopic, fromBeginning: true });
    await this.consumer.run({
      autoCommit: false,
      eachBatchAutoResolve: false,
      partitionsConsumedConcurrently: o.partitionsConcurrently ?? 4,
      eachBatch: (payload) => this.onBatch(payload),
    });
    this.running = true;
  }

  /**
   * Graceful stop: no new fetches, the batch in flight finishes its transaction, then everything
   * disconnects — within `timeoutMs`, broker reachable or not. Answers whether it finished cleanly;
   * when it did not (broker unreachable), the batch in flight is not committed: its transaction is
   * aborted by the next owner of the partition (it fences this producer) and the batch processed
   * again there, charged at most once (settle is idempotent on the ledger id).
   */
  async stop(timeoutMs = DEFAULT_STOP_TIMEOUT_MS): Promise<boolean> {
    if (this.stopping) return false;
    this.stopping = true;
    if (this.creditTimer) clearInterval(this.creditTimer);
    this.creditTimer = undefined;
    for (const t of this.retryTimers.values()) clearTimeout(t);
    this.retryTimers.clear();
    const deadline = Date.now() + timeoutMs;
    const within = async (p: Promise<unknown>, reserveMs: number): Promise<boolean> => {
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), Math.max(0, deadline - reserveMs - Date.now()))));
      try {
        return await Promise.race([p.then(() => true, (err: unknown) => (this.log.warn({ err }, 'error while stopping'), false)), timedOut]);
      } finally {
        clearTimeout(timer);
      }
    };
    let clean = await within(this.consumer.disconnect(), 4000);
    clean = (await within(this.producers.closeAll(), 1000)) && clean;
    clean = (await within(this.admin.disconnect(), 0)) && clean;
    this.running = false;
    return clean;
  }

  private async committedOffset(partition: number): Promise<bigint | undefined> {
    const res = await this.admin.fetchOffsets({ groupId: this.o.group, topics: [this.o.inputTopic] });
    const off = res[0]?.partitions.find((p) => p.partition === partition)?.offset;
    return off === undefined || BigInt(off) < 0n ? undefined : BigInt(off);
  }

  private setPaused(partition: number, paused: boolean): void {
    const labels = { topic: this.o.inputTopic, partition: String(partition) };
    if (paused) {
      this.pausedPartitions.add(partition);
      this.consumer.pause([{ topic: this.o.inputTopic, partitions: [partition] }]);
    } else {
      this.pausedPartitions.delete(partition);
      this.consumer.resume([{ topic: this.o.inputTopic, partitions: [partition] }]);
    }
    this.o.metrics.paused.set(labels, paused ? 1 : 0);
  }

  /** The balance ran out at `offset`: pause there; a timer resumes after a top-up. */
  private pauseForCredits(partition: number, offset: string): void {
    this.consumer.seek({ topic: this.o.inputTopic, partition, offset });
    if (!this.pausedPartitions.has(partition)) {
      this.log.warn({ partition, offset }, 'balance ran out: partition paused until the account is topped up');
    }
    this.setPaused(partition, true);
    if (this.creditTimer || this.stopping) return;
    this.creditTimer = setInterval(() => void this.checkCredits(), this.o.creditCheckIntervalMs ?? 5000);
  }

  private checking = false;
  private async checkCredits(): Promise<void> {
    if (this.checking || this.stopping) return;
    this.checking = true;
    try {
      if (!(await this.o.meter.canAffordOne())) return;
      this.log.info({ partitions: this.paused }, 'credits available again: resuming');
      for (const p of [...this.pausedPartitions]) this.setPaused(p, false);
      clearInterval(this.creditTimer);
      this.creditTimer = undefined;
    } catch (err) {
      this.log.warn({ err }, 'balance check failed; trying again');
    } finally {
      this.checking = false;
    }
  }

  private async onBatch(payload: EachBatchPayload): Promise<void> {
    const { batch, resolveOffset, isRunning, isStale } = payload;
    if (!isRunning() || isStale() || batch.messages.length === 0) return; // unresolved: fetched again
    const { partition } = batch;
    const sliceSize = this.o.maxBatchRecords ?? DEFAULT_MAX_BATCH_RECORDS;
    let tx: Transaction | undefined;
    let plan: BatchPlan | undefined;
    let messages = batch.messages as unknown as InputMessage[];
    let start = 0;
    try {
      const producer = await this.producers.get(partition);
      if (!this.verified.has(partition)) {
        // the first transaction of this producer (InitProducerId) fences the previous owner of the
        // partition and completes its pending transaction; only then is the committed offset final
        tx = await producer.transaction();
        const committed = await this.committedOffset(partition);
        await tx.abort(); // nothing was sent: ends locally
        tx = undefined;
        if (committed !== undefined) messages = messages.filter((m) => BigInt(m.offset) >= committed);
        this.verified.add(partition);
        if (messages.length === 0) {
          resolveOffset(batch.lastOffset());
          return;
        }
      }
      // slices of at most `sliceSize` records, one transaction each: bounded produce requests,
      // reservations and redelivery, and a prompt stop on SIGTERM
      while (start < messages.length) {
        if (start > 0 && (!isRunning() || isStale())) return;
        const started = performance.now();
        const part = messages.slice(start, start + sliceSize);
        plan = undefined;
        tx = await producer.transaction();
        const n = await runSlice(this.o, this.log, kafkajsSlice(tx, this.o), partition, part, batch.highWatermark, (p) => (plan = p));
        tx = undefined;
        resolveOffset(part[n - 1]!.offset);
        this.failures.succeeded(partition);
        this.o.metrics.batchSeconds.observe((performance.now() - started) / 1000);
        start += n;
        if (n < part.length) {
          this.pauseForCredits(partition, messages[start]!.offset);
          return;
        }
      }
    } catch (err) {
      if (err instanceof NoCredits) {
        this.pauseForCredits(partition, messages[start]!.offset);
        return;
      }
      await this.recover(err, partition, messages[start]?.offset ?? batch.firstOffset() ?? '0', tx, plan);
    }
  }

  private async recover(err: unknown, partition: number, firstOffset: string, tx: Transaction | undefined, plan: BatchPlan | undefined): Promise<void> {
    this.o.metrics.aborts.inc();
    const fenced = FENCED.has(kafkaErrorType(err) ?? '');
    let abortFailed = false;
    if (tx) await tx.abort().catch(() => (abortFailed = true));
    if (plan) await this.o.meter.release(plan).catch(() => {});
    if (fenced || abortFailed || tx === undefined) {
      // another owner took the partition (or the producer never came up): start afresh next time
      await this.producers.drop(partition);
      this.verified.delete(partition);
    }
    // nothing is skipped: the batch is tried again after the delay (batch-failures.ts)
    const delay = this.failures.failed(err, partition, firstOffset, { is: fenced, delayMs: 0 });
    try {
      this.consumer.seek({ topic: this.o.inputTopic, partition, offset: firstOffset });
    } catch {
      // not assigned any more: the next owner starts from the committed offset
    }
    this.holdPartition(partition, delay);
  }

  /**
   * Keeps a partition from being fetched for `ms` (the back-off of a failing batch). Paused, not
   * slept on: the consumer keeps heartbeating and the other partitions keep flowing.
   */
  private holdPartition(partition: number, ms: number): void {
    if (ms <= 0 || this.stopping) return;
    const tp = [{ topic: this.o.inputTopic, partitions: [partition] }];
    this.consumer.pause(tp);
    clearTimeout(this.retryTimers.get(partition));
    this.retryTimers.set(partition, setTimeout(() => {
      this.retryTimers.delete(partition);
      if (!this.stopping && !this.pausedPartitions.has(partition)) this.consumer.resume(tp);
    }, ms));
  }

}

/** A kafkajs transaction as the slice sees it. */
function kafkajsSlice(tx: Transaction, o: StreamWorkerOptions): SliceTransaction {
  return {
    send: async (topic, messages) => void (await tx.send({ topic, messages, acks: -1 })),
    commitOffset: (partition, next) => sendOffsetsRetrying(tx, { consumerGroupId: o.group, topics: [{ topic: o.inputTopic, partitions: [{ partition, offset: next }] }] }),
    commit: () => tx.commit(),
    abort: () => tx.abort(),
  };
}
