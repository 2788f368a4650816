/**
 * Topic ids from the real broker's metadata: a UUID per topic, a new one when the topic is
 * deleted and created again under the same name (what billing keys Kafka ledger entries on).
 */
import { randomBytes } from 'node:crypto';
import { expect, it } from 'vitest';
import { Kafka, logLevel } from '../../../../src/adapters/kafka/client/kafkajs.ts';
import { fetchTopicIds } from '../../../../src/adapters/kafka/client/topic-ids.ts';
import { describeWithKafka } from '../../../helpers/kafka.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

await describeWithKafka('topic ids from cluster metadata', (brokers) => {
  it('gives each topic a UUID, and a recreated topic a new one', async () => {
    const admin = new Kafka({ clientId: 'topic-ids-test', brokers: brokers(), logLevel: logLevel.NOTHING }).admin();
    await admin.connect();
    const run = randomBytes(4).toString('hex');
    const [a, b] = [`tid-${run}-a`, `tid-${run}-b`];
    try {
      await admin.createTopics({ topics: [{ topic: a }, { topic: b }], waitForLeaders: true });
      const ids = await fetchTopicIds({ brokers: brokers() }, [a, b]);
      expect(ids.get(a)).toMatch(UUID);
      expect(ids.get(b)).toMatch(UUID);
      expect(ids.get(a)).not.toBe(ids.get(b));
      expect((await fetchTopicIds({ brokers: brokers() }, [a])).get(a)).toBe(ids.get(a)); // stable

      await admin.deleteTopics({ topics: [a] });
      await new Promise((r) => setTimeout(r, 500));
      await admin.createTopics({ topics: [{ topic: a }], waitForLeaders: true });
      const again = await fetchTopicIds({ brokers: brokers() }, [a]);
      expect(again.get(a)).toMatch(UUID);
      expect(again.get(a)).not.toBe(ids.get(a));

      await expect(fetchTopicIds({ brokers: brokers() }, [`tid-${run}-missing`])).rejects.toThrow(/no topic id|missing|UNKNOWN_TOPIC|does not exist/i);
    } finally {
      await admin.deleteTopics({ topics: [a, b] }).catch(() => {});
      await admin.disconnect();
    }
  });
});
