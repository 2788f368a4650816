/**
 * Which Kafka client runs the stream worker: @platformatic/kafka (port-platformatic.ts, the
 * default since the issue-12 evaluation: every guarantee kept, faster — docs/kafka-values.md) or
 * kafkajs (port-kafkajs.ts). Either is a port (client-port.ts) of the one worker (worker.ts).
 * Chosen by `addrflow consume --kafka-client` or ADDRFLOW_KAFKA_CLIENT.
 */
import type { KafkaClientPort, PortOptions } from './client-port.ts';
import { KafkajsPort } from './port-kafkajs.ts';
import { PlatformaticPort } from './port-platformatic.ts';
import { StreamWorker, type StreamWorkerOptions } from './worker.ts';

export const KAFKA_CLIENTS = ['kafkajs', 'platformatic'] as const;
export type KafkaClientName = (typeof KAFKA_CLIENTS)[number];
export const DEFAULT_KAFKA_CLIENT: KafkaClientName = 'platformatic';
export const KAFKA_CLIENT_ENV = 'ADDRFLOW_KAFKA_CLIENT';

/** The client named by a flag or the environment; throws on an unknown name. */
export function kafkaClientFrom(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): KafkaClientName {
  const v = (flag ?? env[KAFKA_CLIENT_ENV] ?? '').trim() || DEFAULT_KAFKA_CLIENT;
  if (!(KAFKA_CLIENTS as readonly string[]).includes(v)) throw new Error(`Kafka client must be one of ${KAFKA_CLIENTS.join(', ')} (got ${v})`);
  return v as KafkaClientName;
}

/** The port of the named client (the worker's, and the benchmark's same-client baseline). */
export function createClientPort(client: KafkaClientName, o: PortOptions): KafkaClientPort {
  return client === 'platformatic' ? new PlatformaticPort(o) : new KafkajsPort(o);
}

/** What a port is made from: the worker's options, resolved. */
export function portOptions(o: StreamWorkerOptions): PortOptions {
  return {
    connection: o.connection ?? { brokers: o.brokers }, group: o.group, inputTopic: o.inputTopic,
    transactionalIdPrefix: o.transactionalIdPrefix, clientId: o.clientId ?? 'addrflow-worker',
    sessionTimeoutMs: o.sessionTimeoutMs ?? 30_000, transactionTimeoutMs: o.transactionTimeoutMs ?? 60_000, log: o.log,
  };
}

export function createStreamWorker(client: KafkaClientName, opts: StreamWorkerOptions): StreamWorker {
  return new StreamWorker(opts, createClientPort(client, portOptions(opts)));
}
