/**
 * @platformatic/kafka clients of the worker, made from a KafkaConnection (brokers, TLS, SASL):
 * the options every client shares, and the retry delay the transactional path needs.
 */
import { findErrorBy, type BaseOptions } from '@platformatic/kafka';
import type { KafkaConnection } from './connection.ts';
import { murmur2 } from './murmur2.ts';

/**
 * Retry back-off: 5 ms doubled per attempt, at most 1 s. The library's default is 1 s flat, and
 * the broker answers the first AddPartitionsToTxn after a commit with CONCURRENT_TRANSACTIONS
 * while it writes the markers: with 1 s per retry the transactional path ran at 0.08× kafkajs.
 */
export function retryDelayMs(_client: unknown, _operation: string, attempt: number): number {
  return Math.min(1000, 5 * 2 ** Math.max(0, attempt - 1));
}

/** `bootstrapBrokers`, `tls` and `sasl` of a connection, with the worker's retry policy. */
export function platformaticOptions(c: KafkaConnection, clientId: string): BaseOptions {
  return {
    clientId,
    bootstrapBrokers: c.brokers,
    ...(c.tls ? { tls: { ...(c.tls.ca ? { ca: c.tls.ca } : {}), ...(c.tls.cert ? { cert: c.tls.cert } : {}), ...(c.tls.key ? { key: c.tls.key } : {}), ...(c.tls.passphrase !== undefined ? { passphrase: c.tls.passphrase } : {}), ...(c.tls.servername !== undefined ? { servername: c.tls.servername } : {}) } } : {}),
    ...(c.sasl ? { sasl: { mechanism: c.sasl.mechanism.toUpperCase() as 'PLAIN' | 'SCRAM-SHA-256' | 'SCRAM-SHA-512', username: c.sasl.username, password: c.sasl.password } } : {}),
    retries: 10,
    retryDelay: retryDelayMs,
  };
}

/** Whether a (possibly nested) @platformatic/kafka error carries one of these broker error names. */
export function hasKafkaError(e: unknown, names: ReadonlySet<string>): boolean {
  if (!(e instanceof Error)) return false;
  for (const name of names) if (findErrorBy(e, 'apiId', name)) return true;
  return false;
}

/**
 * The producers' partition of a message with a key, before the library takes it modulo the
 * topic's partition count: the unsigned murmur2 hash, exactly what @platformatic/kafka's
 * `defaultPartitioner` answers, without its BigInt arithmetic (./murmur2.ts); 0 without a key.
 */
export function keyPartitioner(_message: unknown, key: unknown): number {
  return Buffer.isBuffer(key) ? murmur2(key) >>> 0 : 0;
}
