/**
 * The worker's murmur2 and partitioner against @platformatic/kafka's own (which compute with
 * BigInt): the same hash for every key, so every message keeps its partition.
 */
import { defaultPartitioner, murmur2 as libraryMurmur2 } from '@platformatic/kafka';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { murmur2 } from '../../../src/adapters/kafka/client/murmur2.ts';
import { keyPartitioner } from '../../../src/adapters/kafka/client/platformatic.ts';
import { keyHashPartitioner, Partitioners } from '../../../src/adapters/kafka/client/kafkajs.ts';

describe('murmur2', () => {
  it('hashes as the library does, for keys of every length and byte', () => {
    fc.assert(fc.property(fc.uint8Array({ minLength: 0, maxLength: 70 }), (bytes) => {
      const key = Buffer.from(bytes);
      expect(murmur2(key)).toBe(libraryMurmur2(key));
    }), { numRuns: 5000 });
  });
  it('matches the Java client on known keys', () => {
    // values of org.apache.kafka.common.utils.Utils.murmur2 (the Java client's own tests)
    expect(murmur2(Buffer.from('21'))).toBe(-973932308);
    expect(murmur2(Buffer.from('foobar'))).toBe(-790332482);
    expect(murmur2(Buffer.from('a-little-bit-long-string'))).toBe(-985981536);
    expect(murmur2(Buffer.from('a-little-bit-longer-string'))).toBe(-1486304829);
    expect(murmur2(Buffer.from('lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8'))).toBe(-58897971);
    expect(murmur2(Buffer.from('abc'))).toBe(479470107);
  });
  it('partitions as the library\'s default partitioner, a key or none', () => {
    for (const key of [Buffer.from('ledger-0001'), Buffer.from(''), Buffer.from('é€'), undefined, null]) {
      expect(keyPartitioner({}, key)).toBe(defaultPartitioner({} as never, key as never));
    }
  });
  it('partitions as kafkajs\' DefaultPartitioner: a key of any kind, a given partition, a topic of any size', () => {
    const stock = Partitioners.DefaultPartitioner(), ours = keyHashPartitioner();
    fc.assert(fc.property(fc.oneof(fc.uint8Array({ maxLength: 40 }).map((b) => Buffer.from(b)), fc.string()), fc.integer({ min: 1, max: 64 }), (key, n) => {
      const args = { topic: 't', partitionMetadata: Array.from({ length: n }, (_, i) => ({ partitionId: i, leader: 0, partitionErrorCode: 0, replicas: [0], isr: [0] })), message: { key, value: null } };
      expect(ours(args as never)).toBe(stock(args as never));
    }), { numRuns: 3000 });
    const given = { topic: 't', partitionMetadata: [{ partitionId: 0, leader: 0 }, { partitionId: 1, leader: 0 }], message: { key: 'k', partition: 1, value: null } };
    expect(ours(given as never)).toBe(1);
    // no key: the stock round robin (its counter starts at random), over the partitions with a leader
    const keyless = { topic: 'u', partitionMetadata: [{ partitionId: 0, leader: 0 }, { partitionId: 1, leader: -1 }, { partitionId: 2, leader: 0 }], message: { key: null, value: null } };
    for (let i = 0; i < 10; i++) expect([0, 2]).toContain(ours(keyless as never));
  });
});
