/**
 * kafkajs's sends group their messages by partition with ./kafkajs-grouping.ts's one-pass
 * function once the client module is imported, and that function answers what the grouping must:
 * each partition's messages in their order, keyed by partition; nothing without partitions.
 */
import { createRequire } from 'node:module';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import '../../../src/adapters/kafka/client/kafkajs.ts';
import { groupMessagesPerPartition } from '../../../src/adapters/kafka/client/kafkajs-grouping.ts';

describe('kafkajs grouping of a send by partition', () => {
  it('is the one kafkajs\'s producer takes (not its own, which copies a partition\'s list per message)', () => {
    const used = createRequire(import.meta.url)('kafkajs/src/producer/groupMessagesPerPartition.js') as (...a: unknown[]) => unknown;
    expect(used.toString()).not.toContain('[...current');
    expect(used.name).toBe('groupMessagesPerPartition');
  });
  it('keeps each partition\'s messages in their order, keyed by partition', () => {
    fc.assert(fc.property(fc.array(fc.nat({ max: 7 }), { maxLength: 300 }), fc.integer({ min: 1, max: 8 }), (targets, n) => {
      const messages = targets.map((t, i) => ({ i, t: t % n }));
      const got = groupMessagesPerPartition({ topic: 't', partitionMetadata: Array.from({ length: n }), messages, partitioner: ({ message }) => message.t });
      const want: Record<number, typeof messages> = {};
      for (const m of messages) (want[m.t] ??= []).push(m);
      expect(got).toEqual(want);
      expect(Object.keys(got)).toEqual(Object.keys(want));
    }), { numRuns: 500 });
  });
  it('gives nothing for a topic without partitions', () => {
    expect(groupMessagesPerPartition({ topic: 't', partitionMetadata: [], messages: [{}], partitioner: () => 0 })).toEqual({});
  });
});
