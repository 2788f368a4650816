/**
 * The client port (client-port.ts) on kafkajs (`--kafka-client kafkajs`): protocol calls only.
 *
 * kafkajs's `eachBatch` only hands each batch to the worker's queues and resolves it (kafkajs's
 * in-memory fetch position: with autoCommit off nothing is committed by kafkajs); the worker
 * commits offsets in its transactions (sendOffsets, retried: send-offsets.ts). After a rejoin
 * kafkajs fetches again from the committed offsets, and the worker's queues drop what they hold
 * already. kafkajs 2.2.4 has no KIP-447, so fencing is by the transactional id alone
 * (partition-producers.ts).
 */
import { createKafka, type Admin, type Consumer, type Kafka, type Transaction } from './client/kafkajs.ts';
import { PartitionProducers } from './partition-producers.ts';
import { sendOffsetsRetrying } from './send-offsets.ts';
import { FENCED } from './slice.ts';
import type { ConsumeHandlers, KafkaClientPort, KafkaFailure, PortOptions, PortTransaction } from './client-port.ts';

const STALE_MEMBER = new Set(['ILLEGAL_GENERATION', 'UNKNOWN_MEMBER_ID', 'FENCED_INSTANCE_ID', 'REBALANCE_IN_PROGRESS']);

function kafkaErrorType(e: unknown): string {
  return (typeof e === 'object' && e !== null ? (e as { type?: string }).type : undefined) ?? '';
}

/** The consumer's fetch wait (see the constructor). */
const FETCH_WAIT_MS = 100;

export class KafkajsPort implements KafkaClientPort {
  readonly name = 'kafkajs';
  private readonly o: PortOptions;
  private readonly kafka: Kafka;
  private readonly consumer: Consumer;
  private readonly admin: Admin;
  private readonly producers: PartitionProducers;
  private closing = false;

  constructor(o: PortOptions) {
    this.o = o;
    this.kafka = createKafka(o.connection, { clientId: o.clientId, log: o.log });
    // maxWaitTimeInMs is also how long kafkajs's fetch loop sleeps when every partition it would
    // fetch is paused (consumerGroup.fetch), and the worker pauses fetching whenever its queues are
    // full (worker.ts flowControl): at kafkajs's usual 1 s the queues ran dry behind that sleep and
    // the worker made 20.8k records/s in every round; at 100 ms, 26–28k (docs/performance.md).
    // An idle consumer's long poll is 100 ms (ten fetch requests a second).
    this.consumer = this.kafka.consumer({
      groupId: o.group, sessionTimeout: o.sessionTimeoutMs, heartbeatInterval: Math.min(3000, Math.floor(o.sessionTimeoutMs / 3)),
      readUncommitted: false, maxWaitTimeInMs: FETCH_WAIT_MS,
    });
    this.admin = this.kafka.admin();
    this.producers = new PartitionProducers(this.kafka, {
      prefix: o.transactionalIdPrefix, topic: o.inputTopic, transactionTimeoutMs: o.transactionTimeoutMs,
    });
  }

  async connect(): Promise<void> {
    await this.admin.connect();
  }

  async consume(h: ConsumeHandlers): Promise<void> {
    const topic = this.o.inputTopic;
    const { GROUP_JOIN, CRASH } = this.consumer.events;
    this.consumer.on(GROUP_JOIN, (e) => {
      const assigned = new Set<number>(e.payload.memberAssignment[topic] ?? []);
      void this.producers.retain(assigned);
      h.assigned(assigned);
    });
    this.consumer.on(CRASH, (e) => {
      if (this.closing) return;
      if (e.payload.restart) h.warn(e.payload.error, 'consumer crashed; kafkajs restarts it');
      else h.failed(e.payload.error);
    });
    await this.consumer.connect();
    await this.consumer.subscribe({ topic, fromBeginning: true });
    await this.consumer.run({
      autoCommit: false,
      eachBatchAutoResolve: false,
      eachBatch: async ({ batch, resolveOffset, isRunning, isStale }) => {
        if (!isRunning() || isStale() || batch.messages.length === 0) return; // kafkajs resolves batches emptied by filtering itself
        const high = BigInt(batch.highWatermark);
        for (const m of batch.messages) {
          h.message(batch.partition, { offset: m.offset, offsetValue: BigInt(m.offset), key: m.key, value: m.value, headers: m.headers ?? {} }, high);
        }
        resolveOffset(batch.lastOffset());
      },
    });
  }

  pauseFetching(): void {
    this.consumer.pause([{ topic: this.o.inputTopic }]);
  }

  resumeFetching(): void {
    this.consumer.resume([{ topic: this.o.inputTopic }]);
  }

  async fence(partition: number): Promise<void> {
    const producer = await this.producers.get(partition); // connect = InitProducerId: the fence
    const tx = await producer.transaction();
    await tx.abort(); // nothing was sent: ends locally
  }

  async begin(partition: number): Promise<PortTransaction> {
    return this.transaction(await (await this.producers.get(partition)).transaction());
  }

  private transaction(tx: Transaction): PortTransaction {
    const o = this.o;
    return {
      send: async (parts) => void (await tx.sendBatch({ topicMessages: parts.map(({ topic, messages }) => ({ topic, messages })), acks: -1 })),
      commitOffset: (partition, next) => sendOffsetsRetrying(tx, {
        consumerGroupId: o.group, topics: [{ topic: o.inputTopic, partitions: [{ partition, offset: next }] }],
      }),
      commit: () => tx.commit(),
      abort: () => tx.abort(),
      abandon: () => tx.abort().then(() => true, () => false),
    };
  }

  dropProducer(partition: number): Promise<void> {
    return this.producers.drop(partition);
  }

  async committedOffset(partition: number): Promise<bigint | undefined> {
    const res = await this.admin.fetchOffsets({ groupId: this.o.group, topics: [this.o.inputTopic] });
    const off = res[0]?.partitions.find((p) => p.partition === partition)?.offset;
    return off === undefined || BigInt(off) < 0n ? undefined : BigInt(off);
  }

  classify(err: unknown): KafkaFailure {
    const type = kafkaErrorType(err);
    return FENCED.has(type) ? 'fenced' : STALE_MEMBER.has(type) ? 'stale-member' : undefined;
  }

  async closeConsumer(): Promise<void> {
    this.closing = true;
    await this.consumer.disconnect();
  }

  closeProducers(): Promise<void> {
    return this.producers.closeAll();
  }

  async closeAdmin(): Promise<void> {
    await this.admin.disconnect();
  }
}
