/**
 * Which Kafka client runs the stream worker: @platformatic/kafka (worker-platformatic.ts, the
 * default since the issue-12 evaluation: every guarantee kept, faster — docs/kafka-values.md) or
 * kafkajs (worker.ts, the fallback). Both run the same slices (slice.ts) and metering. Chosen by
 * `addrflow consume --kafka-client` or ADDRFLOW_KAFKA_CLIENT.
 */
import { StreamWorker, type StreamWorkerOptions } from './worker.ts';
import { PlatformaticStreamWorker } from './worker-platformatic.ts';

export const KAFKA_CLIENTS = ['kafkajs', 'platformatic'] as const;
export type KafkaClientName = (typeof KAFKA_CLIENTS)[number];
export const DEFAULT_KAFKA_CLIENT: KafkaClientName = 'platformatic';
export const KAFKA_CLIENT_ENV = 'ADDRFLOW_KAFKA_CLIENT';

export type AnyStreamWorker = StreamWorker | PlatformaticStreamWorker;

/** The client named by a flag or the environment; throws on an unknown name. */
export function kafkaClientFrom(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): KafkaClientName {
  const v = (flag ?? env[KAFKA_CLIENT_ENV] ?? '').trim() || DEFAULT_KAFKA_CLIENT;
  if (!(KAFKA_CLIENTS as readonly string[]).includes(v)) throw new Error(`Kafka client must be one of ${KAFKA_CLIENTS.join(', ')} (got ${v})`);
  return v as KafkaClientName;
}

export function createStreamWorker(client: KafkaClientName, opts: StreamWorkerOptions): AnyStreamWorker {
  return client === 'platformatic' ? new PlatformaticStreamWorker(opts) : new StreamWorker(opts);
}
