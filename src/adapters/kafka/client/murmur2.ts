/**
 * Kafka's murmur2 key hash (the Java client's `Utils.murmur2`, which picks a keyed message's
 * partition) in 32-bit integer arithmetic. The worker's producers hash with it on both clients
 * (platformatic.ts `keyPartitioner`, kafkajs.ts `keyHashPartitioner`): @platformatic/kafka
 * computes the same hash with BigInt arithmetic and kafkajs with its `Long` class, allocating at
 * every step — in the Kafka bench 6 % of the worker's main thread, for two keyed messages per
 * input record (its result and its ledger entry). test/adapters/kafka/murmur2.test.ts compares
 * both partitioners with the libraries' own.
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
