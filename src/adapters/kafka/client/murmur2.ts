/**
 * Kafka's murmur2 key hash (the Java client's `Utils.murmur2`, which picks a keyed message's
 * partition) in 32-bit integer arithmetic, and the worker's partitioner for @platformatic/kafka
 * built on it.
 *
 * The library's own murmur2 computes the same hash with BigInt arithmetic, which allocates at
 * every step: in the Kafka bench it was 6 % of the worker's main thread, for two keyed messages
 * per input record (its result and its ledger entry). `keyPartitioner` answers exactly what the
 * library's `defaultPartitioner` answers, so every message lands on the partition it did before
 * (test/adapters/kafka/murmur2.test.ts compares both with the library's own functions).
 */
const SEED = 0x9747b28c;
const M = 0x5bd1e995;

/** The hash of `data`, a signed 32-bit integer, as the Java client computes it. */
export function murmur2(data: Uint8Array): number {
  const length = data.length;
  let h = SEED ^ length;
  const whole = length & ~3;
  for (let i = 0; i < whole; i += 4) {
    let k = data[i]! | (data[i + 1]! << 8) | (data[i + 2]! << 16) | (data[i + 3]! << 24);
    k = Math.imul(k, M);
    k ^= k >>> 24;
    k = Math.imul(k, M);
    h = Math.imul(h, M) ^ k;
  }
  const rest = length - whole;
  if (rest > 0) {
    if (rest === 3) h ^= data[whole + 2]! << 16;
    if (rest >= 2) h ^= data[whole + 1]! << 8;
    h ^= data[whole]!;
    h = Math.imul(h, M);
  }
  h ^= h >>> 13;
  h = Math.imul(h, M);
  h ^= h >>> 15;
  return h | 0;
}

/**
 * The partition of a message with a key, before the library takes it modulo the topic's partition
 * count: the unsigned hash, as @platformatic/kafka's `defaultPartitioner` gives it; 0 without a key.
 */
export function keyPartitioner(_message: unknown, key: unknown): number {
  return Buffer.isBuffer(key) ? murmur2(key) >>> 0 : 0;
}
