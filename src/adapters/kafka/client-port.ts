/**
 * The small client port of the stream worker (worker.ts): the protocol calls it makes of a Kafka
 * client, and nothing else. Two implementations: @platformatic/kafka (port-platformatic.ts, the
 * default) and kafkajs (port-kafkajs.ts). Queues, flow control, fencing order, retries, credit
 * pauses and stopping are the worker's, written once; an adapter only translates.
 */
import type { Logger } from '../../log.ts';
import type { KafkaConnection } from './client/connection.ts';
import type { SliceTransaction } from './slice.ts';
import type { InputMessage } from './stream-record.ts';

/** What an adapter needs to make its clients. */
export interface PortOptions {
  connection: KafkaConnection;
  group: string;
  inputTopic: string;
  transactionalIdPrefix: string;
  clientId: string;
  /** Consumer group session timeout; a killed member is noticed after it. */
  sessionTimeoutMs: number;
  transactionTimeoutMs: number;
  log: Logger;
}

/** One input message with its offset as a number too (the queues compare offsets). */
export interface PortMessage extends InputMessage {
  offsetValue: bigint;
}

/** What the consumer reports to the worker. */
export interface ConsumeHandlers {
  /** A message of the input topic; per partition in offset order (a rejoin may repeat some). */
  message(partition: number, m: PortMessage, highWatermark?: bigint): void;
  /** The group (re)assigned this member: the input partitions it owns now. */
  assigned(partitions: ReadonlySet<number>): void;
  /** The consumer failed beyond the client's own retries and restarts. */
  failed(err: Error): void;
  /** A failure the client recovers from by itself (logged, nothing to do). */
  warn(err: unknown, what: string): void;
}

/** An open transaction of a partition's producer. */
export interface PortTransaction extends SliceTransaction {
  /** Ends the transaction, whatever its state; answers false when the broker could not be told. */
  abandon(): Promise<boolean>;
}

/** Why a Kafka call failed, as far as the worker cares. */
export type KafkaFailure = 'fenced' | 'stale-member' | undefined;

export interface KafkaClientPort {
  /** The client's name in logs (`platformatic`, `kafkajs`). */
  readonly name: string;
  /** Connects what must be connected before the group is joined (the admin client). */
  connect(): Promise<void>;
  /** Joins the group on the input topic and starts delivering its messages (read_committed). */
  consume(handlers: ConsumeHandlers): Promise<void>;
  /** Stops / restarts fetching every partition (the worker's bound on queued records). */
  pauseFetching(): void;
  resumeFetching(): void;
  /**
   * Opens the first transaction of the partition's producer — its InitProducerId fences the
   * previous owner and completes that owner's pending transaction — and ends it with nothing sent.
   */
  fence(partition: number): Promise<void>;
  /** Opens a transaction on the partition's producer (transactional id `${prefix}-${topic}-${partition}`). */
  begin(partition: number): Promise<PortTransaction>;
  /** Closes the partition's producer; the next begin() or fence() makes a new one. */
  dropProducer(partition: number): Promise<void>;
  /** The group's committed offset of an input partition (stable: no pending transactional commit). */
  committedOffset(partition: number): Promise<bigint | undefined>;
  classify(err: unknown): KafkaFailure;
  closeConsumer(): Promise<void>;
  closeProducers(): Promise<void>;
  closeAdmin(): Promise<void>;
}
