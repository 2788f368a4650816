/**
 * The client port (client-port.ts) on @platformatic/kafka, the worker's default client: protocol
 * calls only.
 *
 * The client's consumer is ONE message stream for all assigned partitions (no per-partition pause,
 * no seek): pauseFetching / resumeFetching pause the whole stream, which is all the worker asks.
 * The offsets go into a transaction with TxnOffsetCommit carrying the group's generation and
 * member id (KIP-447): a member that lost the partition in a rebalance cannot commit.
 */
import { Admin, Consumer, FetchIsolationLevels, Producer, type Message, type MessagesStream } from '@platformatic/kafka';
import { hasKafkaError, keyPartitioner, platformaticOptions } from './client/platformatic.ts';
import { HEADERS } from './headers.ts';
import type { OutMessage } from './output-messages.ts';
import { FENCED } from './slice.ts';
import type { ConsumeHandlers, KafkaClientPort, KafkaFailure, PortOptions, PortTransaction } from './client-port.ts';

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
/**
 * Bytes of one partition in one fetch response. The client emits a response's records partition
 * by partition, and the worker pauses the stream once its queues are full: with the library's
 * default (the whole 50 MB response size) one partition could fill the queues alone and the
 * others starve, so the slices ran about one partition at a time (issue 20). A small share per
 * partition interleaves them; a larger record batch still comes whole (the broker sends at least one).
 */
export const FETCH_BYTES_PER_PARTITION = 256 * 1024;

function headersOf(m: Message): Record<string, Buffer> {
  const out: Record<string, Buffer> = {};
  for (const [k, v] of m.headers) out[Buffer.isBuffer(k) ? k.toString('utf8') : String(k)] = v;
  return out;
}

function toBuffer(v: Buffer | string | null | undefined): Buffer | undefined {
  return v === null || v === undefined ? undefined : Buffer.isBuffer(v) ? v : Buffer.from(v);
}

/** The contract's header names as bytes, encoded once (every result message carries one or two). */
const HEADER_KEYS = new Map(Object.values(HEADERS).map((k) => [k as string, Buffer.from(k)]));

/** Header keys and values as Buffers (the producer has no serializers: it writes bytes). */
function producedHeaders(h: OutMessage['headers']): Map<Buffer, Buffer> | undefined {
  if (!h) return undefined;
  const out = new Map<Buffer, Buffer>();
  for (const [k, v] of Object.entries(h)) {
    const b = toBuffer(Array.isArray(v) ? v[0] : v);
    if (b) out.set(HEADER_KEYS.get(k) ?? Buffer.from(k), b);
  }
  return out;
}

export class PlatformaticPort implements KafkaClientPort {
  readonly name = 'platformatic';
  private readonly o: PortOptions;
  private readonly consumer: Consumer;
  private readonly admin: Admin;
  private stream: MessagesStream<Buffer, Buffer, Buffer, Buffer> | undefined;
  private readonly producers = new Map<number, Producer>();
  private closing = false;

  constructor(o: PortOptions) {
    this.o = o;
    const base = platformaticOptions(o.connection, o.clientId);
    this.consumer = new Consumer({
      // the consumer keeps retrying while the brokers are gone: a fetch (or its metadata call) that
      // used up its retries would destroy the library's message stream, and the worker with it. So
      // the worker waits and reconnects, as kafkajs's consumer restarts itself; the slices'
      // producers keep the bounded retries and report their failures
      ...base, retries: true, groupId: o.group, sessionTimeout: o.sessionTimeoutMs, heartbeatInterval: Math.min(3000, Math.floor(o.sessionTimeoutMs / 3)),
      isolationLevel: FetchIsolationLevels.READ_COMMITTED, maxWaitTime: 1000, autocommit: false,
    });
    this.admin = new Admin({ ...base, clientId: `${base.clientId}-admin` });
  }

  async connect(): Promise<void> {
    // the clients connect on first use
  }

  async consume(h: ConsumeHandlers): Promise<void> {
    // After a heartbeat error (the broker killed and back) the client rejoins the group, and a
    // rejoin that fails is emitted as 'error' on the consumer: with no listener, Node ends the
    // process. The client keeps retrying; a rejoin that never completes surfaces as the stream's
    // error, which fails the worker the orderly way.
    this.consumer.on('error', (err: Error) => {
      if (!this.closing) h.warn(err, 'rejoining the consumer group failed; the client retries');
    });
    const assigned = (): void => {
      const now = new Set<number>();
      for (const a of this.consumer.assignments ?? []) if (a.topic === this.o.inputTopic) for (const p of a.partitions) now.add(p);
      h.assigned(now);
    };
    this.consumer.on('consumer:group:join', assigned);
    const stream = await this.consumer.consume({
      topics: [this.o.inputTopic], mode: 'committed', fallbackMode: 'earliest', autocommit: false,
      isolationLevel: FetchIsolationLevels.READ_COMMITTED, maxWaitTime: 1000, maxBytesPerPartition: FETCH_BYTES_PER_PARTITION,
    });
    this.stream = stream;
    assigned();
    stream.on('data', (m: Message) => {
      if (m.topic !== this.o.inputTopic) return;
      h.message(m.partition, { offset: m.offset.toString(), offsetValue: m.offset, key: m.key ?? null, value: m.value ?? null, headers: headersOf(m) });
    });
    stream.on('error', (err: Error) => {
      if (!this.closing) h.failed(err);
    });
  }

  pauseFetching(): void {
    this.stream?.pause();
  }

  resumeFetching(): void {
    this.stream?.resume();
  }

  private producer(partition: number): Producer {
    let p = this.producers.get(partition);
    if (!p) {
      p = new Producer({
        ...platformaticOptions(this.o.connection, `${this.o.clientId}-p${partition}`),
        transactionalId: `${this.o.transactionalIdPrefix}-${this.o.inputTopic}-${partition}`,
        idempotent: true, acks: -1,
        // the library's partition choice for a keyed message, without its BigInt hash (murmur2.ts)
        partitioner: keyPartitioner,
      });
      this.producers.set(partition, p);
    }
    return p;
  }

  async fence(partition: number): Promise<void> {
    const tx = await this.producer(partition).beginTransaction(TAKE_OVER);
    await tx.cancel(); // nothing was sent: the broker has no transaction to end (EndTxn would answer INVALID_TXN_STATE)
  }

  async begin(partition: number): Promise<PortTransaction> {
    return this.transaction(await this.producer(partition).beginTransaction(TAKE_OVER));
  }

  private transaction(tx: Transaction): PortTransaction {
    const consumer = this.consumer;
    const topic = this.o.inputTopic;
    return {
      send: async (parts) => {
        await tx.send({
          messages: parts.flatMap(({ topic: t, messages }) => messages.map((m) => {
            const key = toBuffer(m.key);
            const headers = producedHeaders(m.headers);
            return { topic: t, ...(key ? { key } : {}), value: m.value ?? undefined, ...(headers ? { headers } : {}) } as never;
          })),
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
      abandon: async () => {
        if (tx.completed) return true;
        return tx.abort().then(() => true, () => tx.cancel().catch(() => {}).then(() => false));
      },
    };
  }

  async dropProducer(partition: number): Promise<void> {
    const p = this.producers.get(partition);
    this.producers.delete(partition);
    if (p) await p.close(true).catch(() => {});
  }

  async committedOffset(partition: number): Promise<bigint | undefined> {
    const groups = await this.admin.listConsumerGroupOffsets({
      groups: [{ groupId: this.o.group, topics: [{ name: this.o.inputTopic, partitionIndexes: [partition] }] }],
      requireStable: true,
    });
    const off = groups[0]?.topics.find((t) => t.name === this.o.inputTopic)?.partitions.find((x) => x.partitionIndex === partition)?.committedOffset;
    return off === undefined || off < 0n ? undefined : off;
  }

  classify(err: unknown): KafkaFailure {
    return hasKafkaError(err, FENCED) ? 'fenced' : hasKafkaError(err, STALE_MEMBER) ? 'stale-member' : undefined;
  }

  async closeConsumer(): Promise<void> {
    this.closing = true;
    if (this.stream) await this.stream.close();
    await this.consumer.close(true);
  }

  async closeProducers(): Promise<void> {
    await Promise.all([...this.producers.keys()].map((p) => this.dropProducer(p)));
  }

  async closeAdmin(): Promise<void> {
    await this.admin.close();
  }
}
