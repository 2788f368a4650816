/**
 * The kafkajs client of the worker, made from a KafkaConnection (brokers, TLS, SASL): the one
 * place that constructs `Kafka`. Importing it installs the fix for kafkajs's negative timer
 * (./kafkajs-request-queue.ts), so no kafkajs connection of the process prints
 * TimeoutNegativeWarning, and a linear grouping of a send's messages by partition in place of
 * kafkajs's quadratic one (./kafkajs-grouping.ts).
 */
// (first: it must see kafkajs before kafkajs loads its producer)
import './kafkajs-grouping.ts';
import { Kafka, logLevel, Partitioners, type ICustomPartitioner, type KafkaConfig, type LogEntry, type SASLOptions } from 'kafkajs';
import './kafkajs-request-queue.ts';
import type { Logger } from '../../../log.ts';
import type { KafkaConnection } from './connection.ts';
import { murmur2 } from './murmur2.ts';

/** kafkajs log lines into pino. kafkajs logs retried errors (CONCURRENT_TRANSACTIONS…) at ERROR: they become warnings. */
export function kafkaLogCreator(log: Logger) {
  return () => ({ namespace, level, log: entry }: LogEntry) => {
    const { message, ...extra } = entry;
    const fields = { kafkajs: namespace, ...extra };
    if (level <= logLevel.WARN) log.warn(fields, message);
    else if (level === logLevel.INFO) log.debug(fields, message);
  };
}

/** kafkajs's `ssl` and `sasl` settings of a connection. */
export function kafkajsSecurity(c: KafkaConnection): Pick<KafkaConfig, 'ssl' | 'sasl'> {
  const out: Pick<KafkaConfig, 'ssl' | 'sasl'> = {};
  if (c.tls) {
    const { ca, cert, key, passphrase, servername } = c.tls;
    out.ssl = {
      ...(ca ? { ca: [ca] } : {}), ...(cert ? { cert } : {}), ...(key ? { key } : {}),
      ...(passphrase !== undefined ? { passphrase } : {}), ...(servername !== undefined ? { servername } : {}),
    };
  }
  if (c.sasl) {
    const { mechanism, username, password } = c.sasl;
    out.sasl = { mechanism, username, password } as SASLOptions;
  }
  return out;
}

export function createKafka(c: KafkaConnection, opts: { clientId: string; log?: Logger; logLevel?: logLevel }): Kafka {
  return new Kafka({
    clientId: opts.clientId,
    brokers: c.brokers,
    ...kafkajsSecurity(c),
    logLevel: opts.logLevel ?? (opts.log ? logLevel.WARN : logLevel.NOTHING),
    ...(opts.log ? { logCreator: kafkaLogCreator(opts.log) } : {}),
  });
}

/**
 * kafkajs' DefaultPartitioner with a keyed message's hash computed by ./murmur2.ts (kafkajs
 * computes it with its Long class, an object per step): the same partition for every message — a
 * message's own partition, else `murmur2(key) & 0x7fffffff` modulo the topic's partitions — and a
 * message without a key still goes to the stock partitioner's round robin.
 */
export const keyHashPartitioner: ICustomPartitioner = () => {
  const stock = Partitioners.DefaultPartitioner();
  return (args) => {
    const { message, partitionMetadata } = args;
    if (message.partition !== null && message.partition !== undefined) return message.partition;
    const key = message.key;
    if (key === null || key === undefined) return stock(args);
    return (murmur2(Buffer.isBuffer(key) ? key : Buffer.from(String(key))) & 0x7fffffff) % partitionMetadata.length;
  };
};

/**
 * kafkajs itself, for code that builds its own clients (tests, benchmarks, partition-producers):
 * importing it from here guarantees the request-queue fix is installed first.
 */
export { Kafka, logLevel, Partitioners } from 'kafkajs';
export type * from 'kafkajs';
