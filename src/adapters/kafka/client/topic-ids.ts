/**
 * Topic ids (UUIDs, KIP-516) from the cluster's metadata. A topic that is deleted and created
 * again under the same name gets a new id, so billing keys Kafka ledger entries on it.
 *
 * kafkajs 2.2.4 speaks Metadata v0–v6 only, which has no topic ids (they arrived in v10), so the
 * lookup uses @platformatic/kafka's Admin (Metadata up to v12), on the same connection settings
 * (TLS, SASL) as the worker's kafkajs clients.
 */
import { Admin } from '@platformatic/kafka';
import type { KafkaConnection } from './connection.ts';

/** The id of a topic as Kafka prints it (`kafka-topics --describe`): base64url of the 16 bytes, no padding. */
export type TopicId = string;

const NULL_TOPIC_ID = '00000000-0000-0000-0000-000000000000';

/** @platformatic/kafka reports ids as UUID text; Kafka's tools print the base64url form. This is the UUID form. */
function normalise(id: string): string {
  return id.toLowerCase();
}

export async function fetchTopicIds(c: KafkaConnection, topics: readonly string[], clientId = 'addrflow-topic-ids'): Promise<Map<string, TopicId>> {
  const admin = new Admin({
    clientId,
    bootstrapBrokers: c.brokers,
    ...(c.tls ? { tls: { ...(c.tls.ca ? { ca: c.tls.ca } : {}), ...(c.tls.cert ? { cert: c.tls.cert } : {}), ...(c.tls.key ? { key: c.tls.key } : {}), ...(c.tls.passphrase !== undefined ? { passphrase: c.tls.passphrase } : {}), ...(c.tls.servername !== undefined ? { servername: c.tls.servername } : {}) } } : {}),
    ...(c.sasl ? { sasl: { mechanism: c.sasl.mechanism.toUpperCase() as 'PLAIN' | 'SCRAM-SHA-256' | 'SCRAM-SHA-512', username: c.sasl.username, password: c.sasl.password } } : {}),
    retries: 3,
    retryDelay: 500,
  });
  try {
    const md = await admin.metadata({ topics: [...topics], forceUpdate: true });
    const out = new Map<string, TopicId>();
    for (const t of topics) {
      const id = md.topics.get(t)?.id;
      if (!id || id === NULL_TOPIC_ID) throw new Error(`no topic id for ${t} in the cluster metadata`);
      out.set(t, normalise(id));
    }
    return out;
  } finally {
    await admin.close().catch(() => {});
  }
}
