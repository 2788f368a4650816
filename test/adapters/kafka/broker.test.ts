/**
 * kafkajs 2.2.4 against the real broker (Apache Kafka 4.1.x): the transactional features the
 * exactly-once worker is built on. Each test uses its own topics and groups.
 */
import { expect, it } from 'vitest';
import { sendOffsetsRetrying } from '../../../src/adapters/kafka/send-offsets.ts';
import { describeWithKafka } from '../../helpers/kafka.ts';
import { kafkajsFixture } from '../../helpers/kafkajs-fixture.ts';

await describeWithKafka('kafkajs transactions on the real broker', (brokers) => {
  const { name, kafka, admin, topics, transactional, plain: plainProducer, readUntil } = kafkajsFixture(brokers, 'broker-test');

  it('commits output records and consumer offsets in one transaction (sendOffsets + commit)', async () => {
    const [input, output] = await topics('offsets-in', 'offsets-out') as [string, string];
    const group = name('worker');
    const plain = await plainProducer();
    await plain.send({ topic: input, messages: ['r0', 'r1', 'r2', 'r3'].map((value) => ({ value })) });

    const p = await transactional(`${input}-0`); // transactional id tied to the input partition
    const tx = await p.transaction();
    await tx.send({ topic: output, messages: [{ key: 'k0', value: 'result-0' }, { key: 'k1', value: 'result-1' }] });
    await sendOffsetsRetrying(tx, { consumerGroupId: group, topics: [{ topic: input, partitions: [{ partition: 0, offset: '2' }] }] });
    await tx.commit();

    // an aborted transaction moves neither the offsets nor the visible output
    const aborted = await p.transaction();
    await aborted.send({ topic: output, messages: [{ value: 'result-aborted' }] });
    await sendOffsetsRetrying(aborted, { consumerGroupId: group, topics: [{ topic: input, partitions: [{ partition: 0, offset: '4' }] }] });
    await aborted.abort();

    const offsets = await admin().fetchOffsets({ groupId: group, topics: [input] });
    expect(offsets).toEqual([{ topic: input, partitions: [expect.objectContaining({ partition: 0, offset: '2' })] }]);

    const end = await p.transaction();
    await end.send({ topic: output, messages: [{ value: 'end' }] });
    await end.commit();
    expect(await readUntil(output, 'end', { readUncommitted: false })).toEqual(['result-0', 'result-1', 'end']);

    // a consumer of the group resumes exactly after the committed offset
    const resumed: string[] = [];
    const consumer = kafka().consumer({ groupId: group });
    await consumer.connect();
    await consumer.subscribe({ topic: input });
    await new Promise<void>((resolve, reject) => {
      consumer.run({
        eachMessage: async ({ message }) => {
          resumed.push(message.value?.toString() ?? '');
          if (resumed.length === 2) resolve();
        },
      }).catch(reject);
    });
    await consumer.disconnect();
    expect(resumed).toEqual(['r2', 'r3']);
  });

  it('read_committed sees committed records only: aborted ones never, open ones not before commit', async () => {
    const [topic] = await topics('visibility') as [string];
    const a = await transactional('visibility-a');
    const b = await transactional('visibility-b');

    const t1 = await a.transaction();
    await t1.send({ topic, messages: [{ value: 'committed-1' }, { value: 'committed-2' }] });
    await t1.commit();

    const t2 = await a.transaction();
    await t2.send({ topic, messages: [{ value: 'aborted-1' }, { value: 'aborted-2' }] });
    await t2.abort();

    // an open transaction holds back everything after it (last stable offset) …
    const open = await a.transaction();
    await open.send({ topic, messages: [{ value: 'open-then-aborted' }] });
    const t3 = await b.transaction();
    await t3.send({ topic, messages: [{ value: 'committed-after-open' }] });
    await t3.commit();

    const seen: string[] = [];
    const reading = readUntil(topic, 'end', { readUncommitted: false, seen });
    await new Promise((r) => setTimeout(r, 2500));
    expect(seen).toEqual(['committed-1', 'committed-2']);

    // … until it ends; its own records stay invisible because it aborts
    await open.abort();
    const t4 = await b.transaction();
    await t4.send({ topic, messages: [{ value: 'end' }] });
    await t4.commit();
    expect(await reading).toEqual(['committed-1', 'committed-2', 'committed-after-open', 'end']);

    // the aborted records really are in the log: a read_uncommitted consumer sees them
    expect(await readUntil(topic, 'end', { readUncommitted: true })).toEqual([
      'committed-1', 'committed-2', 'aborted-1', 'aborted-2', 'open-then-aborted', 'committed-after-open', 'end',
    ]);
  });
});
