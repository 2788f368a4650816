/**
 * The stream worker on @platformatic/kafka (`addrflow consume --kafka-client platformatic`): the
 * same slices (slice.ts), the same metering, the same exactly-once protocol as worker.ts, on
 * another client. Chosen by the issue-12 evaluation only if it keeps every guarantee and is as
 * fast (docs/kafka-values.md).
 *
 * The client's consumer is ONE message stream for all assigned partitions: it has no
 * per-partition pause and no seek. So the stream feeds per-partition in-memory queues, and:
 *  - a slice is taken from the head of its partition's queue and removed only after its
 *    transaction committed: an aborted slice is re-run from memory (no seek);
 *  - a partition paused for credits or held back after a failure is simply not drained (no
 *    per-partition pause); the whole stream is paused while the queues hold more than
 *    MAX_QUEUED records, so memory stays bounded;
 *  - after a rebalance the stream starts again from the committed offsets: records already
 *    queued are not queued twice (each queue remembers the next offset it expects).
 * Fencing is the one of worker.ts: one transactional producer per input partition
 * (`${prefix}-${topic}-${partition}`); its first transaction after an assignment fences the
 * previous owner and completes its pending transaction, and only THEN is the group's committed
 * offset read (OffsetFetch with require_stable) and the records below it dropped. The offsets go
 * into the transaction with TxnOffsetCommit carrying the group's generation and member id
 * (KIP-447), a second fence: a member that lost the partition in a rebalance cannot commit.
 */
import { Admin, Consumer, FetchIsolationLevels, Producer, type Message, type MessagesStream } from '@platformatic/kafka';
import { StoreUnavailableError } from '../../billing/store.ts';
import type { Logger } from '../../log.ts';
import { hasKafkaError, platformaticOptions } from './client/platformatic.ts';
import { fetchTopicIds } from './client/topic-ids.ts';
import { requireTopics } from './topics/ensure.ts';
import type { OutMessage } from './output-messages.ts';
import { DEFAULT_MAX_BATCH_RECORDS, FENCED, NoCredits, runSlice, type SliceTransaction } from './slice.ts';
import type { InputMessage } from './stream-record.ts';
import type { Hold as BatchPlan } from '../../billing/meter.ts';
import { DEFAULT_STOP_TIMEOUT_MS, type StreamWorkerOptions } from './worker.ts';
import { BatchFailures } from './batch-failures.ts';

type Transaction = Awaited<ReturnType<Producer['beginTransaction']>>;

/** A member that is not the partition's owner any more (KIP-447's check of TxnOffsetCommit). */
const STALE_MEMBER = new Set(['ILLEGAL_GENERATION', 'UNKNOWN_MEMBER_ID', 'FENCED_INSTANCE_ID', 'REBALANCE_IN_PROGRESS']);
/**
 * InitProducerId as a NEW producer of the transactional id (producer id -1, epoch -1). The
 * library sends 0 / 0 by default, which the broker (KIP-360) reads as "I am producer 0, epoch 0"
 * and answers PRODUCER_FENCED once the id has been used by anyone else: a restarted worker (kill
 * -9) or a new owner after a rebalance could then never take the partition's transactional id over.
 * Only the first beginTransaction of a producer sends InitProducerId; later ones ignore this.
 */
const TAKE_OVER = { producerId: -1n, producerEpoch: -1 };

interface QueuedMessage extends InputMessage {
  offsetValue: bigint;
}

interface PartitionQueue {
  messages: QueuedMessage[];
  /** The offset after the last queued message: a message below it is already queued or done. */
  next: bigint | undefined;
}

function headersOf(m: Message): Record<string, Buffer> {
  const out: Record<string, Buffer> = {};
  for (const [k, v] of m.headers) out[Buffer.isBuffer(k) ? k.toString('utf8') : String(k)] = v;
  return out;
}

function toBuffer(v: Buffer | string | null | undefined): Buffer | undefined {
  return v === null || v === undefined ? undefined : Buffer.isBuffer(v) ? v : Buffer.from(v);
}

/** Header keys and values as Buffers (the producer has no serializers: it writes bytes). */
function producedHeaders(h: OutMessage['headers']): Map<Buffer, Buffer> | undefined {
  if (!h) return undefined;
  const out = new Map<Buffer, Buffer>();
  for (const [k, v] of Object.entries(h)) {
    const b = toBuffer(Array.isArray(v) ? v[0] : v);
    if (b) out.set(Buffer.from(k), b);
  }
  return out;
}

export class PlatformaticStreamWorker {
  private readonly o: StreamWorkerOptions;
  private readonly log: Logger;
  private readonly consumer: Consumer;
  private readonly admin: Admin;
  private stream: MessagesStream<Buffer, Buffer, Buffer, Buffer> | undefined;
  private readonly producers = new Map<number, Promise<Producer>>();
  private readonly queues = new Map<number, PartitionQueue>();
  private assigned = new Set<number>();
  private readonly verified = new Set<number>();
  private readonly busy = new Map<number, Promise<void>>();
  private readonly pausedPartitions = new Set<number>();
  private readonly heldUntil = new Map<number, NodeJS.Timeout>();
  /** Failed attempts per input partition, their back-off and reporting (batch-failures.ts). */
  private readonly failures: BatchFailures;
  private creditTimer: NodeJS.Timeout | undefined;
  private queued = 0;
  private streamPaused = false;
  private running = false;
  private stopping = false;
  private inputTopicIdValue: string | undefined;
  private crashed: ((e: Error) => void) | undefined;
  readonly failed: Promise<Error>;
  private readonly maxQueued: number;

  constructor(opts: StreamWorkerOptions) {
    this.o = opts;
    this.log = opts.log;
    this.failures = new BatchFailures(opts.log, opts.metrics, opts.inputTopic);
    const connection = opts.connection ?? { brokers: opts.brokers };
    const base = platformaticOptions(connection, opts.clientId ?? 'addrflow-worker');
    const sessionTimeout = opts.sessionTimeoutMs ?? 30_000;
    this.consumer = new Consumer({
      ...base, groupId: opts.group, sessionTimeout, heartbeatInterval: Math.min(3000, Math.floor(sessionTimeout / 3)),
      isolationLevel: FetchIsolationLevels.READ_COMMITTED, maxWaitTime: 1000, autocommit: false,
    });
    // After a heartbeat error (the broker killed and back) the client rejoins the group, and a
    // rejoin that fails is emitted as 'error' on the consumer: with no listener, Node ends the
    // process. The client keeps retrying; a rejoin that never completes surfaces as the stream's
    // error (start()), which fails the worker the orderly way.
    this.consumer.on('error', (err: Error) => {
      if (!this.stopping) this.log.warn({ err }, 'rejoining the consumer group failed; the client retries');
    });
    this.admin = new Admin({ ...base, clientId: `${base.clientId}-admin` });
    const slice = opts.maxBatchRecords ?? DEFAULT_MAX_BATCH_RECORDS;
    this.maxQueued = Math.max(4 * slice, slice * (opts.partitionsConcurrently ?? 4) * 2);
    this.failed = new Promise((resolve) => (this.crashed = resolve));
  }

  get healthy(): boolean {
    return this.running && !this.stopping && this.failingPartitions.length === 0;
  }

  get failingPartitions(): readonly number[] {
    return this.failures.failing;
  }

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
    // StartError, the same as the kafkajs worker's (topics/ensure.ts)
    try {
      await requireTopics(o.connection ?? { brokers: o.brokers }, { input: o.inputTopic, results: o.resultsTopic, ledger: o.ledgerTopic, dlq: o.dlqTopic }, {
        clientId: `${o.clientId ?? 'addrflow-worker'}-start`, ...(o.startWaitMs !== undefined ? { waitMs: o.startWaitMs } : {}),
      });
    } catch (err) {
      await this.admin.close().catch(() => {});
      await this.consumer.close(true).catch(() => {});
      throw err;
    }
    const topicId = o.topicId
      ? await o.topicId(o.inputTopic)
      : (await fetchTopicIds(o.connection ?? { brokers: o.brokers }, [o.inputTopic])).get(o.inputTopic)!;
    this.inputTopicIdValue = topicId;
    o.meter.bindJob({ kind: 'kafka', topicId, group: o.group });
    this.log.info({ topic: o.inputTopic, topicId, group: o.group, client: 'platformatic' }, 'metering job: consumer group on topic id');
    this.consumer.on('consumer:group:join', () => this.onAssignment());
    const stream = await this.consumer.consume({
      topics: [o.inputTopic], mode: 'committed', fallbackMode: 'earliest', autocommit: false,
      isolationLevel: FetchIsolationLevels.READ_COMMITTED, maxWaitTime: 1000,
    });
    this.stream = stream;
    this.onAssignment();
    stream.on('data', (m: Message) => this.enqueue(m));
    stream.on('error', (err: Error) => {
      if (this.stopping) return;
      this.running = false;
      this.log.error({ err }, 'consumer stream failed');
      this.crashed?.(err);
    });
    this.running = true;
  }

  private onAssignment(): void {
    const now = new Set<number>();
    for (const a of this.consumer.assignments ?? []) if (a.topic === this.o.inputTopic) for (const p of a.partitions) now.add(p);
    this.verified.clear(); // another member may have owned any of them since
    for (const p of [...this.queues.keys()]) {
      if (now.has(p)) continue;
      this.queued -= this.queues.get(p)!.messages.length;
      this.queues.delete(p);
      void this.dropProducer(p);
    }
    for (const p of this.pausedPartitions) if (!now.has(p)) this.setPaused(p, false);
    this.assigned = now;
    this.log.info({ group: this.o.group, partitions: [...now] }, 'partitions assigned');
    this.flowControl();
    this.schedule();
  }

  private enqueue(m: Message): void {
    if (m.topic !== this.o.inputTopic || !this.assigned.has(m.partition)) return;
    let q = this.queues.get(m.partition);
    if (!q) this.queues.set(m.partition, (q = { messages: [], next: undefined }));
    if (q.next !== undefined && m.offset < q.next) return; // queued already (the stream restarted from the committed offset)
    q.messages.push({ offset: m.offset.toString(), offsetValue: m.offset, key: m.key ?? null, value: m.value ?? null, headers: headersOf(m) });
    q.next = m.offset + 1n;
    this.queued++;
    this.flowControl();
    this.schedule();
  }

  /** Bounded memory: the stream pauses while the queues are full and resumes at half. */
  private flowControl(): void {
    if (!this.stream || this.stopping) return;
    if (!this.streamPaused && this.queued >= this.maxQueued) {
      this.streamPaused = true;
      this.stream.pause();
    } else if (this.streamPaused && this.queued <= this.maxQueued / 2) {
      this.streamPaused = false;
      this.stream.resume();
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

  private producer(partition: number): Promise<Producer> {
    let p = this.producers.get(partition);
    if (!p) {
      const connection = this.o.connection ?? { brokers: this.o.brokers };
      const producer = new Producer({
        ...platformaticOptions(connection, `${this.o.clientId ?? 'addrflow-worker'}-p${partition}`),
        transactionalId: `${this.o.transactionalIdPrefix}-${this.o.inputTopic}-${partition}`,
        idempotent: true, acks: -1,
      });
      p = Promise.resolve(producer);
      this.producers.set(partition, p);
    }
    return p;
  }

  private async dropProducer(partition: number): Promise<void> {
    const p = this.producers.get(partition);
    this.producers.delete(partition);
    if (p) await p.then((producer) => producer.close(true)).catch(() => {});
  }

  private async committedOffset(partition: number): Promise<bigint | undefined> {
    const groups = await this.admin.listConsumerGroupOffsets({
      groups: [{ groupId: this.o.group, topics: [{ name: this.o.inputTopic, partitionIndexes: [partition] }] }],
      requireStable: true,
    });
    const off = groups[0]?.topics.find((t) => t.name === this.o.inputTopic)?.partitions.find((x) => x.partitionIndex === partition)?.committedOffset;
    return off === undefined || off < 0n ? undefined : off;
  }

  private sliceTransaction(tx: Transaction): SliceTransaction {
    const consumer = this.consumer;
    const topic = this.o.inputTopic;
    return {
      send: async (t, messages) => {
        await tx.send({
          messages: messages.map((m) => {
            const key = toBuffer(m.key);
            const headers = producedHeaders(m.headers);
            return { topic: t, ...(key ? { key } : {}), value: m.value ?? undefined, ...(headers ? { headers } : {}) } as never;
          }),
          acks: -1,
        });
      },
      commitOffset: async (partition, next) => {
        await tx.addConsumer(consumer);
        // TxnOffsetCommit commits offset + 1, with the group's generation and member id NOW
        const last = { topic, partition, offset: BigInt(next) - 1n, metadata: { consumer: {
          groupId: consumer.groupId, generationId: consumer.generationId, memberId: consumer.memberId, coordinatorId: consumer.coordinatorId,
        } } };
        await tx.addOffset(last as unknown as Message);
      },
      commit: () => tx.commit(),
      abort: () => tx.abort(),
    };
  }

  /** Processes a partition's queue slice by slice until it is empty, paused, held or stopping. */
  private async drain(partition: number): Promise<void> {
    const sliceSize = this.o.maxBatchRecords ?? DEFAULT_MAX_BATCH_RECORDS;
    while (!this.stopping && this.assigned.has(partition) && !this.pausedPartitions.has(partition) && !this.heldUntil.has(partition)) {
      const q = this.queues.get(partition);
      if (!q || q.messages.length === 0) return;
      let tx: Transaction | undefined;
      let plan: BatchPlan | undefined;
      try {
        const producer = await this.producer(partition);
        if (!this.verified.has(partition)) {
          // the first transaction of this producer (InitProducerId) fences the previous owner and
          // completes its pending transaction; only then is the committed offset final
          tx = await producer.beginTransaction(TAKE_OVER);
          const committed = await this.committedOffset(partition);
          await tx.cancel(); // nothing was sent: the broker has no transaction to end (EndTxn would answer INVALID_TXN_STATE)
          tx = undefined;
          if (committed !== undefined) {
            const before = q.messages.length;
            q.messages = q.messages.filter((m) => m.offsetValue >= committed);
            this.queued -= before - q.messages.length;
            // and what the stream delivers later below it (it may have started fetching below the
            // committed offset, see the class comment) is not queued again: done by the previous owner
            if (q.next === undefined || q.next < committed) q.next = committed;
          }
          this.verified.add(partition);
          if (q.messages.length === 0) return;
        }
        const started = performance.now();
        const part = q.messages.slice(0, sliceSize);
        tx = await producer.beginTransaction(TAKE_OVER);
        // the stream's messages carry no high watermark: the lag gauge counts what is fetched and
        // queued but not yet committed (a lower bound of the true lag)
        const highWatermark = (q.next ?? part[part.length - 1]!.offsetValue + 1n).toString();
        const n = await runSlice(this.o, this.log, this.sliceTransaction(tx), partition, part, highWatermark, (p) => (plan = p));
        tx = undefined;
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
        await this.recover(err, partition, q.messages[0]?.offset ?? '0', tx, plan);
        return;
      }
    }
  }

  private setPaused(partition: number, paused: boolean): void {
    if (paused) this.pausedPartitions.add(partition);
    else this.pausedPartitions.delete(partition);
    this.o.metrics.paused.set({ topic: this.o.inputTopic, partition: String(partition) }, paused ? 1 : 0);
  }

  private pauseForCredits(partition: number, offset: string): void {
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
      this.schedule();
    } catch (err) {
      this.log.warn({ err }, 'balance check failed; trying again');
    } finally {
      this.checking = false;
    }
  }

  private async recover(err: unknown, partition: number, firstOffset: string, tx: Transaction | undefined, plan: BatchPlan | undefined): Promise<void> {
    this.o.metrics.aborts.inc();
    const fenced = hasKafkaError(err, FENCED);
    const stale = hasKafkaError(err, STALE_MEMBER);
    let abortFailed = false;
    if (tx && !tx.completed) await tx.abort().catch(() => tx!.cancel().catch(() => {}).then(() => (abortFailed = true)));
    if (plan) await this.o.meter.release(plan).catch(() => {});
    const storeDown = err instanceof StoreUnavailableError;
    // a failed produce leaves the idempotent producer's sequence numbers behind the broker's
    // (the retry would answer OUT_OF_ORDER_SEQUENCE_NUMBER forever): a Kafka error means a new
    // producer (InitProducerId again, which also completes the aborted transaction)
    if (!storeDown || fenced || stale || abortFailed || tx === undefined) {
      await this.dropProducer(partition);
      this.verified.delete(partition);
    }
    // nothing is skipped: the slice stays queued and is re-run after the delay (batch-failures.ts)
    const delay = this.failures.failed(err, partition, firstOffset, { is: fenced || stale, delayMs: 200 });
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
    clean = (await within((async () => {
      if (this.stream) await this.stream.close();
      await this.consumer.close(true);
    })(), 3000)) && clean;
    clean = (await within(Promise.all([...this.producers.keys()].map((p) => this.dropProducer(p))), 1000)) && clean;
    clean = (await within(this.admin.close(), 0)) && clean;
    this.running = false;
    return clean;
  }
}
