/**
 * The kafkajs client of the worker, made from a KafkaConnection (brokers, TLS, SASL): the one
 * place that constructs `Kafka`. Importing it installs the fix for kafkajs's negative timer
 * (./kafkajs-request-queue.ts), so no kafkajs connection of the process prints
 * TimeoutNegativeWarning.
 */
import { Kafka, logLevel, type KafkaConfig, type LogEntry, type SASLOptions } from 'kafkajs';
import './kafkajs-request-queue.ts';
import type { Logger } from '../../../log.ts';
import type { KafkaConnection } from './connection.ts';

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
 * kafkajs itself, for code that builds its own clients (tests, benchmarks, partition-producers):
 * importing it from here guarantees the request-queue fix is installed first.
 */
export { Kafka, logLevel, Partitioners } from 'kafkajs';
export type * from 'kafkajs';
