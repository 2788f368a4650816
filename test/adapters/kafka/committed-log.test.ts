/**
 * The worker tests' oracle of what a topic holds committed (committed-log.ts), against the real
 * broker: aborted transactions of two producers interleaved in one partition, as the old and the
 * new owner of an input partition leave them around a rebalance. kafkajs 2.2.4's read_committed
 * consumer can deliver records of one of them (depending on fetch boundaries); the log reader
 * never does.
 */
import { expect, it } from 'vitest';
import { describeWithKafka } from '../../helpers/kafka.ts';
import { kafkajsFixture } from '../../helpers/kafkajs-fixture.ts';
import { CommittedLogReader } from './committed-log.ts';

await describeWithKafka('committed records of a topic, from the log', (brokers) => {
  const { name, topics, transactional, plain: plainProducer, readUntil } = kafkajsFixture(brokers, 'committed-log');

  const values = (list: string[]) => list.map((value) => ({ value }));

  async function readCommitted(t: string): Promise<string[]> {
    const reader = new CommittedLogReader(brokers(), t, name('reader'));
    try {
      return (await reader.poll()).map((r) => r.value?.toString() ?? '');
    } finally {
      await reader.close();
    }
  }

  it('interleaved aborted transactions of two producers: none of their records is committed', async () => {
    const [t] = await topics('interleaved') as [string];
    const [oldOwner, newOwner, other] = [await transactional('old'), await transactional('new'), await transactional('other')];
    const a = await oldOwner.transaction();
    await a.send({ topic: t, messages: values(['a-0', 'a-1', 'a-2']) });
    const b = await newOwner.transaction();
    await b.send({ topic: t, messages: values(['b-0', 'b-1']) });
    // aborted in the other order than begun: the broker lists them as [b, a]
    await b.abort();
    await a.abort();
    const c = await other.transaction();
    await c.send({ topic: t, messages: values(['c-0', 'end']) });
    await c.commit();

    expect(await readCommitted(t)).toEqual(['c-0', 'end']);
    // kafkajs 2.2.4's read_committed consumer may let the first aborted transaction through, or
    // not, depending on how the broker cuts its fetches (why the worker tests do not read with
    // it). Only what it must deliver is asserted: the committed records, in order.
    const viaKafkajs = await readUntil(t, 'end', { readUncommitted: false });
    expect(viaKafkajs.filter((v) => v.startsWith('c-') || v === 'end')).toEqual(['c-0', 'end']);
  });

  it('one producer: aborted, committed, aborted, open; non-transactional records are committed', async () => {
    const [t] = await topics('sequence') as [string];
    const p = await transactional('seq');
    for (const [tag, commit] of [['x', false], ['y', true], ['z', false]] as const) {
      const tx = await p.transaction();
      await tx.send({ topic: t, messages: values([`${tag}-0`, `${tag}-1`]) });
      await (commit ? tx.commit() : tx.abort());
    }
    const plain = await plainProducer();
    await plain.send({ topic: t, messages: values(['plain']) });
    const open = await p.transaction();
    await open.send({ topic: t, messages: values(['open-0']) });

    const reader = new CommittedLogReader(brokers(), t, name('seq'));
    try {
      expect((await reader.poll()).map((r) => r.value?.toString())).toEqual(['y-0', 'y-1', 'plain']);
      await open.commit();
      expect((await reader.poll()).map((r) => r.value?.toString())).toEqual(['open-0']); // decided by the next poll
    } finally {
      await reader.close();
    }
  });
});
