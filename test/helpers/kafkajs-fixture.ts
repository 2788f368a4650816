/**
 * A kafkajs client for tests that drive the real broker directly (inside `describeWithKafka`):
 * the client and an admin connected before the suite, topics and producers named per run, every
 * producer disconnected after it, and a reader of a topic's values until a stop value.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import { Kafka, logLevel, Partitioners, type Admin, type Producer } from '../../src/adapters/kafka/client/kafkajs.ts';

export interface KafkajsFixture {
  /** `${prefix}-${run}-${suffix}`: a name of this suite's run (topics, ids, groups). */
  name(suffix: string): string;
  kafka(): Kafka;
  admin(): Admin;
  /** Creates one-partition topics named per run; answers their names. */
  topics(...names: string[]): Promise<string[]>;
  /** A connected transactional (idempotent, one request in flight) producer. */
  transactional(id: string): Promise<Producer>;
  /** A connected plain producer. */
  plain(): Promise<Producer>;
  /** Values read from `topic` (from the beginning, by a new group) until `stop` is seen, in log order. */
  readUntil(topic: string, stop: string, opts: { readUncommitted: boolean; seen?: string[] }): Promise<string[]>;
}

/** Registers the suite's beforeAll / afterAll; call it at the top of the describe body. */
export function kafkajsFixture(brokers: () => string[], prefix: string): KafkajsFixture {
  const run = randomBytes(4).toString('hex');
  const name = (suffix: string) => `${prefix}-${run}-${suffix}`;
  let kafka: Kafka | undefined;
  let admin: Admin | undefined;
  const producers: Producer[] = [];

  beforeAll(async () => {
    // kafkajs logs retried CONCURRENT_TRANSACTIONS at ERROR level
    kafka = new Kafka({ clientId: `${prefix}-${run}`, brokers: brokers(), logLevel: logLevel.NOTHING });
    admin = kafka.admin();
    await admin.connect();
  });

  afterAll(async () => {
    for (const p of producers) await p.disconnect().catch(() => {});
    await admin?.disconnect();
  });

  const client = (): Kafka => {
    if (!kafka) throw new Error('kafkajsFixture: used before its beforeAll');
    return kafka;
  };

  async function connected(p: Producer): Promise<Producer> {
    await p.connect();
    producers.push(p);
    return p;
  }

  return {
    name,
    kafka: client,
    admin: () => {
      if (!admin) throw new Error('kafkajsFixture: used before its beforeAll');
      return admin;
    },
    async topics(...names) {
      const full = names.map(name);
      await admin!.createTopics({ topics: full.map((topic) => ({ topic, numPartitions: 1 })), waitForLeaders: true });
      return full;
    },
    transactional: (id) => connected(client().producer({
      transactionalId: name(id), idempotent: true, maxInFlightRequests: 1, createPartitioner: Partitioners.DefaultPartitioner,
    })),
    plain: () => connected(client().producer({ createPartitioner: Partitioners.DefaultPartitioner })),
    async readUntil(topic, stop, opts) {
      const seen = opts.seen ?? [];
      const consumer = client().consumer({ groupId: name(`reader-${randomBytes(4).toString('hex')}`), readUncommitted: opts.readUncommitted });
      await consumer.connect();
      try {
        await consumer.subscribe({ topic, fromBeginning: true });
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error(`'${stop}' not seen on ${topic} within 30 s; saw ${JSON.stringify(seen)}`)), 30_000);
          consumer.run({
            eachMessage: async ({ message }) => {
              const v = message.value?.toString() ?? '';
              seen.push(v);
              if (v === stop) {
                clearTimeout(timer);
                resolve();
              }
            },
          }).catch(reject);
        });
      } finally {
        await consumer.disconnect();
      }
      return seen;
    },
  };
}
