/**
 * `transaction.sendOffsets` with the retries kafkajs 2.2.4 does not do itself.
 *
 * kafkajs's sendOffsets = AddOffsetsToTxn (transaction coordinator) + TxnOffsetCommit (group
 * coordinator). Neither step retries the transient answers a healthy broker gives:
 * - CONCURRENT_TRANSACTIONS from AddOffsetsToTxn while the previous transaction is still
 *   completing (kafkajs issue #430);
 * - GROUP_COORDINATOR_NOT_AVAILABLE / GROUP_LOAD_IN_PROGRESS / NOT_COORDINATOR_FOR_GROUP from
 *   TxnOffsetCommit, e.g. on the first use of __consumer_offsets on a fresh broker (seen here on
 *   Kafka 4.1.1): src/producer/eosManager/index.js lists them as 'COORDINATOR_NOT_AVAILABLE',
 *   'COORDINATOR_LOAD_IN_PROGRESS' and 'NOT_COORDINATOR', names kafkajs's own error table
 *   (src/protocol/error.js) never uses, so its inner retrier bails at once.
 * Both calls are idempotent inside one open transaction, so the whole call is simply repeated on
 * any error kafkajs marks retriable. Fencing errors (PRODUCER_FENCED, INVALID_PRODUCER_EPOCH…)
 * are not retriable and are rethrown at once: the transaction must be aborted.
 */

export interface OffsetsToCommit {
  consumerGroupId: string;
  topics: { topic: string; partitions: { partition: number; offset: string }[] }[];
}

export interface TransactionWithOffsets {
  sendOffsets(offsets: OffsetsToCommit): Promise<void>;
}

export interface RetryOptions {
  /** Attempts after the first (default 10). */
  retries?: number;
  /** First back-off in ms, doubled each time up to `maxDelayMs` (defaults 50 / 2000). */
  initialDelayMs?: number;
  maxDelayMs?: number;
}

/** kafkajs marks broker errors that may succeed on a retry with `retriable: true`. */
export function isRetriableKafkaError(e: unknown): boolean {
  return typeof e === 'object' && e !== null && (e as { retriable?: unknown }).retriable === true;
}

export async function sendOffsetsRetrying(
  tx: TransactionWithOffsets,
  offsets: OffsetsToCommit,
  options: RetryOptions = {},
): Promise<void> {
  const retries = options.retries ?? 10;
  let delay = options.initialDelayMs ?? 50;
  const maxDelay = options.maxDelayMs ?? 2000;
  for (let attempt = 0; ; attempt++) {
    try {
      await tx.sendOffsets(offsets);
      return;
    } catch (e) {
      if (attempt >= retries || !isRetriableKafkaError(e)) throw e;
      await new Promise((r) => setTimeout(r, delay));
      delay = Math.min(delay * 2, maxDelay);
    }
  }
}
