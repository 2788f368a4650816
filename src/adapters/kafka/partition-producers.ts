/**
 * One transactional producer per assigned input partition, transactional id
 * `${prefix}-${topic}-${partition}`.
 *
 * kafkajs 2.2.4 has no KIP-447 (its TxnOffsetCommit carries no group generation), so zombie
 * fencing works only this way: whoever owns input partition p next initialises the same
 * transactional id, which fences the previous owner's producer and aborts its open transaction.
 * Producers are created on first use and disconnected when their partition is revoked.
 */
import { keyHashPartitioner, type Kafka, type Producer } from './client/kafkajs.ts';

export class PartitionProducers {
  private readonly kafka: Kafka;
  private readonly prefix: string;
  private readonly topic: string;
  private readonly transactionTimeoutMs: number;
  private readonly producers = new Map<number, Promise<Producer>>();

  constructor(kafka: Kafka, opts: { prefix: string; topic: string; transactionTimeoutMs: number }) {
    this.kafka = kafka;
    this.prefix = opts.prefix;
    this.topic = opts.topic;
    this.transactionTimeoutMs = opts.transactionTimeoutMs;
  }

  transactionalId(partition: number): string {
    return `${this.prefix}-${this.topic}-${partition}`;
  }

  get(partition: number): Promise<Producer> {
    let p = this.producers.get(partition);
    if (!p) {
      const producer = this.kafka.producer({
        transactionalId: this.transactionalId(partition),
        idempotent: true,
        maxInFlightRequests: 1,
        transactionTimeout: this.transactionTimeoutMs,
        createPartitioner: keyHashPartitioner,
      });
      p = producer.connect().then(() => producer);
      p.catch(() => this.producers.delete(partition));
      this.producers.set(partition, p);
    }
    return p;
  }

  /** Disconnects the producer of a partition (revoked, or fenced by a newer owner). */
  async drop(partition: number): Promise<void> {
    const p = this.producers.get(partition);
    this.producers.delete(partition);
    if (p) await p.then((producer) => producer.disconnect()).catch(() => {});
  }

  /** Keeps the producers of `partitions`, disconnects the others. */
  async retain(partitions: ReadonlySet<number>): Promise<void> {
    await Promise.all([...this.producers.keys()].filter((p) => !partitions.has(p)).map((p) => this.drop(p)));
  }

  async closeAll(): Promise<void> {
    await this.retain(new Set());
  }
}
