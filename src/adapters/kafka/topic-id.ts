/**
 * A topic's id: the UUID the cluster gives a topic when it is created (KIP-516), from the
 * cluster metadata. A deleted and recreated topic of the same name has a new id, so a consumer
 * group reading it again is a new metering job (src/adapters/kafka/stream-meter.ts).
 *
 * kafkajs (Metadata ≤ v6) does not return topic ids; @platformatic/kafka's metadata (v12) does.
 * When the worker's client is @platformatic/kafka, its own `metadata({ topics })` answers the
 * same and this module becomes one call on that client.
 */
import { Admin, type ConnectionOptions } from '@platformatic/kafka';

const NULL_UUID = '00000000-0000-0000-0000-000000000000';

/** `connection`: TLS / SASL of a managed cluster, in @platformatic/kafka's terms. */
export async function fetchTopicId(
  brokers: readonly string[], topic: string, opts: { clientId?: string; connection?: ConnectionOptions } = {},
): Promise<string> {
  const admin = new Admin({ ...opts.connection, clientId: opts.clientId ?? 'addrflow-topic-id', bootstrapBrokers: [...brokers], retries: 3 });
  try {
    const md = await admin.metadata({ topics: [topic] });
    const id = md.topics.get(topic)?.id;
    if (!id || id === NULL_UUID) {
      throw new Error(`the cluster at ${brokers.join(',')} gives no topic id for '${topic}' (a broker of Kafka 2.8 or later is needed)`);
    }
    return id;
  } finally {
    await admin.close();
  }
}
