/**
 * The Kafka stream worker (`addrflow consume`): consumer group → engine pool → results, ledger and
 * DLQ topics, exactly once. ONE worker over a small client port (client-port.ts) with two
 * implementations: @platformatic/kafka (port-platformatic.ts, the default since the issue-12
 * evaluation, docs/kafka-values.md) and kafkajs (port-kafkajs.ts, `--kafka-client kafkajs`).
 * The queues, flow control, fencing order, retries, credit pauses and stopping are here, once; the
 * adapters hold only protocol calls.
 *
 * The consumer feeds per-partition in-memory queues, and:
 *  - a slice (slice.ts: decode → validate → engine → encode in the pool, the next slice's started
 *    early (engine-ahead.ts) → hold + settle → one transaction with results, ledger, DLQ and the
 *    group's offset) is taken from the head of its partition's queue and
 *    removed only after its transaction committed: an aborted slice is re-run from memory (no seek);
 *  - a partition paused for credits or held back after a failure is simply not drained; fetching
 *    pauses while the queues hold more than maxQueued records, so memory stays bounded;
 *  - after a rebalance the consumer starts again from the committed offsets: records already
 *    queued are not queued twice (each queue remembers the next offset it expects).
 * Fencing: one transactional producer per input partition (`${prefix}-${topic}-${partition}`);
 * its first transaction after an assignment fences the previous owner and completes its pending
 * transaction, and only THEN is the group's committed offset read and the records below it
 * dropped. Settle (ledger rows + debit, idempotent on the ledger id) happens BEFORE the Kafka
 * commit, so a crash in between replays without charging twice.
 */
import { StoreUnavailableError } from '../../billing/store.ts';
import type { Op } from '../../contract/params.ts';
import type { ElementDefaults } from '../../contract/validate.ts';
import type { EnginePool } from '../../pool/engine-pool.ts';
import type { Logger } from '../../log.ts';
import type { ValueCodec } from './avro/codec.ts';
import { BatchFailures } from './batch-failures.ts';
import type { KafkaConnection } from './client/connection.ts';
import { fetchTopicIds } from './client/topic-ids.ts';
import type { KafkaClientPort, PortMessage, PortTransaction } from './client-port.ts';
import type { OutputFormat } from './output-messages.ts';
import { DEFAULT_MAX_BATCH_RECORDS, NoCredits, runSlice, type SlicePhases } from './slice.ts';
import { EngineAhead } from './engine-ahead.ts';
import type { Meter } from '../../billing/meter.ts';
import { requireTopics } from './topics/ensure.ts';
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
  /** Values for records that do not give their own (`--prefer-country`), checked by the caller. */
  defaults?: ElementDefaults;
  valueFormat: OutputFormat;
  /** --explain: search results carry their explanation, written as search-result v2 (default: none, v1). */
  explain?: boolean;
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
  /** Time per phase of each slice (the benchmark's profile); off when absent. */
  phases?: SlicePhases;
}

/** How long `stop()` waits for the batch in flight and the disconnects before it gives up (the CLI's bound is 30 s in all). */
export const DEFAULT_STOP_TIMEOUT_MS = 20_000;
/** Delay before a slice aborted by fencing or a rebalance is tried again. */
const TRANSIENT_RETRY_MS = 200;

interface PartitionQueue {
  messages: PortMessage[];
  /** The offset after the last queued message: a message below it is already queued or done. */
  next: bigint | undefined;
  /** The partition's high watermark when the client reports one (for the lag gauge). */
  high: bigint | undefined;
  /** The group's committed offset as this worker knows it: read after the fence, then each commit's next offset. */
  committed: bigint | undefined;
}

export class StreamWorker {
  private readonly o: StreamWorkerOptions;
  private readonly port: KafkaClientPort;
  private readonly log: Logger;
  private readonly queues = new Map<number, PartitionQueue>();
  private assigned = new Set<number>();
  /** Partitions whose committed offset was checked after the producer fenced the previous owner. */
  private readonly verified = new Set<number>();
  private readonly busy = new Map<number, Promise<void>>();
  private readonly pausedPartitions = new Set<number>();
  /** Partitions held back after a failure, with the timer that releases them. */
  private readonly heldUntil = new Map<number, NodeJS.Timeout>();
  /** Failed attempts per input partition, their back-off and reporting (batch-failures.ts). */
  private readonly failures: BatchFailures;
  private creditTimer: NodeJS.Timeout | undefined;
  /** The drain that enqueue starts after the current delivery. */
  private drainSoon: NodeJS.Immediate | undefined;
  private checking = false;
  private queued = 0;
  private fetchPaused = false;
  private running = false;
  private stopping = false;
  private inputTopicIdValue: string | undefined;
  private crashed: ((e: Error) => void) | undefined;
  /** Resolves (with the error) if the consumer fails beyond the client's own restarts. */
  readonly failed: Promise<Error>;
  private readonly maxQueued: number;
  private readonly sliceSize: number;

  constructor(opts: StreamWorkerOptions, port: KafkaClientPort) {
    this.o = opts;
    this.port = port;
    this.log = opts.log;
    this.failures = new BatchFailures(opts.log, opts.metrics, opts.inputTopic);
    this.sliceSize = opts.maxBatchRecords ?? DEFAULT_MAX_BATCH_RECORDS;
    this.maxQueued = Math.max(4 * this.sliceSize, this.sliceSize * (opts.partitionsConcurrently ?? 4) * 2);
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
    const connection = o.connection ?? { brokers: o.brokers };
    // brokers reachable (bounded wait), credentials accepted, the four topics there: else one coded StartError (topics/ensure.ts)
    try {
      await requireTopics(connection, { input: o.inputTopic, results: o.resultsTopic, ledger: o.ledgerTopic, dlq: o.dlqTopic }, {
        clientId: `${o.clientId ?? 'addrflow-worker'}-start`, ...(o.startWaitMs !== undefined ? { waitMs: o.startWaitMs } : {}),
      });
      await this.port.connect();
    } catch (err) {
      await this.port.closeAdmin().catch(() => {});
      await this.port.closeConsumer().catch(() => {});
      throw err;
    }
    // the metering job: this consumer group on this topic, by the topic's id (a recreated topic is new)
    const topicId = o.topicId ? await o.topicId(o.inputTopic) : (await fetchTopicIds(connection, [o.inputTopic])).get(o.inputTopic)!;
    this.inputTopicIdValue = topicId;
    o.meter.bindJob({ kind: 'kafka', topicId, group: o.group });
    this.log.info({ topic: o.inputTopic, topicId, group: o.group, client: this.port.name }, 'metering job: consumer group on topic id');
    await this.port.consume({
      message: (p, m, high) => this.enqueue(p, m, high),
      assigned: (partitions) => this.onAssignment(partitions),
      failed: (err) => {
        if (this.stopping) return;
        this.running = false;
        this.log.error({ err }, 'consumer failed');
        this.crashed?.(err);
      },
      warn: (err, what) => {
        if (!this.stopping) this.log.warn({ err }, what);
      },
    });
    this.running = true;
  }

  private onAssignment(now: ReadonlySet<number>): void {
    this.verified.clear(); // another member may have owned any of them since
    for (const p of [...this.queues.keys()]) {
      if (now.has(p)) continue;
      this.queued -= this.queues.get(p)!.messages.length;
      this.queues.delete(p);
      void this.port.dropProducer(p);
    }
    for (const p of this.pausedPartitions) if (!now.has(p)) this.setPaused(p, false);
    this.assigned = new Set(now);
    this.log.info({ group: this.o.group, partitions: [...now] }, 'partitions assigned');
    this.flowControl();
    this.schedule();
  }

  private enqueue(partition: number, m: PortMessage, high: bigint | undefined): void {
    if (!this.assigned.has(partition)) return;
    let q = this.queues.get(partition);
    if (!q) this.queues.set(partition, (q = { messages: [], next: undefined, high: undefined, committed: undefined }));
    if (high !== undefined && (q.high === undefined || high > q.high)) q.high = high;
    if (q.next !== undefined && m.offsetValue < q.next) return; // queued already (the consumer restarted from the committed offset)
    q.messages.push(m);
    q.next = m.offsetValue + 1n;
    this.queued++;
    this.flowControl();
    // drained once the records of this delivery are all queued: started at its first record, a
    // slice took that record alone (one transaction for one record, per fetch and partition)
    if (this.drainSoon) return;
    this.drainSoon = setImmediate(() => {
      this.drainSoon = undefined;
      this.schedule();
    });
  }

  /** Bounded memory: fetching pauses while the queues are full and resumes at half. */
  private flowControl(): void {
    if (this.stopping) return;
    if (!this.fetchPaused && this.queued >= this.maxQueued) {
      this.fetchPaused = true;
      this.port.pauseFetching();
    } else if (this.fetchPaused && this.queued <= this.maxQueued / 2) {
      this.fetchPaused = false;
      this.port.resumeFetching();
    }
  }

  /** Starts draining every partition that has records and may run (not paused, held or busy). */
  private schedule(): void {
    if (this.stopping) return;
    const limit = this.o.partitionsConcurrently ?? 4;
    for (const [p, q] of this.queues) {
      if (this.busy.size >= limit) return;
      if (q.messages.length === 0 || this.busy.has(p) || this.pausedPartitions.has(p) || this.heldUntil.has(p)) continue;
      const run = this.drain(p).finally(() => {
        this.busy.delete(p);
        this.flowControl();
        this.schedule();
      });
      this.busy.set(p, run);
    }
  }

  /** After the fence: drops what the previous owner committed (and what the consumer delivers below it later). */
  private async verify(partition: number, q: PartitionQueue): Promise<void> {
    // the first transaction of this producer (InitProducerId) fences the previous owner and
    // completes its pending transaction; only then is the committed offset final
    await this.port.fence(partition);
    const committed = (q.committed = await this.port.committedOffset(partition));
    if (committed !== undefined) {
      const before = q.messages.length;
      q.messages = q.messages.filter((m) => m.offsetValue >= committed);
      this.queued -= before - q.messages.length;
      if (q.next === undefined || q.next < committed) q.next = committed;
    }
    this.verified.add(partition);
  }

  /** Processes a partition's queue slice by slice until it is empty, paused, held or stopping. */
  private async drain(partition: number): Promise<void> {
    const ahead = new EngineAhead(this.o, this.sliceSize);
    while (!this.stopping && this.assigned.has(partition) && !this.pausedPartitions.has(partition) && !this.heldUntil.has(partition)) {
      const q = this.queues.get(partition);
      if (!q || q.messages.length === 0) return;
      let tx: PortTransaction | undefined;
      try {
        if (!this.verified.has(partition)) {
          await this.verify(partition, q);
          if (q.messages.length === 0) return;
        }
        const started = performance.now();
        const { part, results } = ahead.take(() => this.queues.get(partition)?.messages);
        tx = await this.port.begin(partition);
        // the lag gauge: the client's high watermark, else what is fetched and queued but not yet committed (a lower bound)
        const highWatermark = (q.high ?? q.next ?? part[part.length - 1]!.offsetValue + 1n).toString();
        const n = await runSlice(this.o, this.log, tx, partition, part, highWatermark, results, q.committed);
        tx = undefined;
        q.committed = part[n - 1]!.offsetValue + 1n;
        q.messages.splice(0, n);
        this.queued -= n;
        this.failures.succeeded(partition);
        this.o.metrics.batchSeconds.observe((performance.now() - started) / 1000);
        if (n < part.length) {
          this.pauseForCredits(partition, q.messages[0]!.offset);
          return;
        }
      } catch (err) {
        if (err instanceof NoCredits) {
          this.pauseForCredits(partition, q.messages[0]!.offset);
          return;
        }
        await this.recover(err, partition, q.messages[0]?.offset ?? '0', tx);
        return;
      }
    }
  }

  private setPaused(partition: number, paused: boolean): void {
    if (paused) this.pausedPartitions.add(partition);
    else this.pausedPartitions.delete(partition);
    this.o.metrics.paused.set({ topic: this.o.inputTopic, partition: String(partition) }, paused ? 1 : 0);
  }

  /** The balance ran out at `offset`: the partition waits; a timer resumes it after a top-up. */
  private pauseForCredits(partition: number, offset: string): void {
    if (!this.pausedPartitions.has(partition)) {
      this.log.warn({ partition, offset }, 'balance ran out: partition paused until the account is topped up');
    }
    this.setPaused(partition, true);
    if (this.creditTimer || this.stopping) return;
    this.creditTimer = setInterval(() => void this.checkCredits(), this.o.creditCheckIntervalMs ?? 5000);
  }

  private async checkCredits(): Promise<void> {
    if (this.checking || this.stopping) return;
    this.checking = true;
    try {
      if (!(await this.o.meter.canAffordOne())) return;
      this.log.info({ partitions: this.paused }, 'credits available again: resuming');
      for (const p of [...this.pausedPartitions]) this.setPaused(p, false);
      clearInterval(this.creditTimer);
      this.creditTimer = undefined;
      this.schedule();
    } catch (err) {
      this.log.warn({ err }, 'balance check failed; trying again');
    } finally {
      this.checking = false;
    }
  }

  private async recover(err: unknown, partition: number, firstOffset: string, tx: PortTransaction | undefined): Promise<void> {
    this.o.metrics.aborts.inc();
    const failure = this.port.classify(err);
    const abortFailed = tx ? !(await tx.abandon()) : false;
    // a failed produce leaves an idempotent producer's sequence numbers behind the broker's (the
    // retry would answer OUT_OF_ORDER_SEQUENCE_NUMBER forever): a Kafka error means a new producer
    // (InitProducerId again, which also completes the aborted transaction) and a new fence
    if (!(err instanceof StoreUnavailableError) || failure !== undefined || abortFailed || tx === undefined) {
      await this.port.dropProducer(partition);
      this.verified.delete(partition);
    }
    // nothing is skipped: the slice stays queued and is re-run after the delay (batch-failures.ts)
    const delay = this.failures.failed(err, partition, firstOffset, { is: failure !== undefined, delayMs: TRANSIENT_RETRY_MS });
    this.hold(partition, delay);
  }

  /** Keeps a partition's queue from being drained for `ms`; the slice stays queued and is re-run. */
  private hold(partition: number, ms: number): void {
    if (this.stopping) return;
    clearTimeout(this.heldUntil.get(partition));
    this.heldUntil.set(partition, setTimeout(() => {
      this.heldUntil.delete(partition);
      this.schedule();
    }, ms));
  }

  /**
   * Graceful stop: no new slices, the slices in flight finish their transactions, then everything
   * disconnects — within `timeoutMs`, broker reachable or not. Answers whether it finished cleanly;
   * when it did not (broker unreachable), the slice in flight is not committed: its transaction is
   * aborted by the next owner of the partition (it fences this producer) and the slice processed
   * again there, charged at most once (settle is idempotent on the ledger id).
   */
  async stop(timeoutMs = DEFAULT_STOP_TIMEOUT_MS): Promise<boolean> {
    if (this.stopping) return false;
    this.stopping = true;
    if (this.creditTimer) clearInterval(this.creditTimer);
    this.creditTimer = undefined;
    for (const t of this.heldUntil.values()) clearTimeout(t);
    this.heldUntil.clear();
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
    let clean = await within(Promise.all(this.busy.values()), 6000);
    clean = (await within(this.o.meter.exportsDone(), 4000)) && clean; // the committed slices' rows marked exported
    clean = (await within(this.port.closeConsumer(), 3000)) && clean;
    clean = (await within(this.port.closeProducers(), 1000)) && clean;
    clean = (await within(this.port.closeAdmin(), 0)) && clean;
    this.running = false;
    return clean;
  }
}
