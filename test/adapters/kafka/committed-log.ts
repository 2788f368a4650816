/**
 * The committed records of a topic, decided from the partition logs themselves: the test's oracle
 * of "written once" (worker-harness.ts readAll).
 *
 * Why not a read_committed consumer: kafkajs 2.2.4 (src/consumer/filterAbortedMessages.js)
 * drops the records of an aborted transaction only from the moment it reaches the FIRST entry of
 * the fetch response's aborted-transaction list, as if that list were sorted by first offset. The
 * broker lists them in the order they were aborted (its transaction index). Around a rebalance
 * two producers' transactions interleave in one results partition and are both aborted (the new
 * owner's InitProducerId fences the old one), e.g. results-1 of a failed run:
 *   772–797 producer 23 (old owner, input partition 3), 798–815 producer 22 (input partition 1),
 *   816 ABORT 22, 817 ABORT 23; the list: [{22, 798}, {23, 772}]
 * and kafkajs delivers 772–797, records the broker holds as aborted; the new owner's committed
 * transaction has them again: a result "twice" that no correct reader sees.
 * @platformatic/kafka's read_committed filter keeps one range per producer, so two aborted
 * transactions of one producer in one fetch are not both dropped either.
 *
 * So this reader fetches with read_uncommitted (every record and control marker) and applies the
 * rule of the log (KIP-98): a transactional record is committed when the next control marker of
 * its producer in that partition is a COMMIT; non-transactional records always are; records of a
 * transaction still open are not (yet) — they are kept pending and decided by a later poll.
 */
import { Consumer, FetchIsolationLevels, type RecordsBatch } from '@platformatic/kafka';
import type { IHeaders } from '../../../src/adapters/kafka/client/kafkajs.ts';

const IS_TRANSACTIONAL = 0x10;
const IS_CONTROL = 0x20;
/** Control record key: version (int16), type (int16): 0 = ABORT, 1 = COMMIT. */
const COMMIT_MARKER = 1;

export interface LogRecord {
  partition: number;
  offset: string;
  key: string;
  value: Buffer | null;
  headers: IHeaders;
}

interface PartitionState {
  next: bigint;
  /** Records of each producer's open transaction, in offset order. */
  open: Map<bigint, LogRecord[]>;
}

function toRecord(partition: number, batch: RecordsBatch, r: RecordsBatch['records'][number]): LogRecord {
  const headers: IHeaders = {};
  for (const [k, v] of r.headers) if (k) headers[k.toString('utf8')] = v ?? undefined;
  return { partition, offset: (batch.firstOffset + BigInt(r.offsetDelta)).toString(), key: r.key?.toString('utf8') ?? '', value: r.value, headers };
}

export class CommittedLogReader {
  private readonly consumer: Consumer;
  private readonly topic: string;
  private readonly partitions = new Map<number, PartitionState>();

  constructor(brokers: string[], topic: string, clientId: string) {
    this.topic = topic;
    // a consumer that never joins its group: only its Fetch and Metadata requests are used
    this.consumer = new Consumer({ clientId, bootstrapBrokers: brokers, groupId: `${clientId}-unused`, retries: 5, retryDelay: 100 });
  }

  /** Reads every partition up to its current end; answers the records committed since the last poll. */
  async poll(): Promise<LogRecord[]> {
    const metadata = await this.consumer.metadata({ topics: [this.topic] });
    const t = metadata.topics.get(this.topic);
    if (!t) throw new Error(`topic ${this.topic} not found`);
    const out: LogRecord[] = [];
    for (let p = 0; p < t.partitionsCount; p++) {
      let s = this.partitions.get(p);
      if (!s) this.partitions.set(p, (s = { next: 0n, open: new Map() }));
      const leader = t.partitions[p]!;
      while (true) {
        const res = await this.consumer.fetch({
          node: leader.leader, isolationLevel: FetchIsolationLevels.READ_UNCOMMITTED, maxWaitTime: 10,
          topics: [{ topicId: t.id, partitions: [{ partition: p, fetchOffset: s.next, partitionMaxBytes: 4 << 20, currentLeaderEpoch: -1, lastFetchedEpoch: -1 }] }],
        });
        const part = res.responses.flatMap((r) => r.partitions).find((x) => x.partitionIndex === p);
        if (!part) break;
        if (part.errorCode !== 0) throw new Error(`fetch ${this.topic}/${p} at ${s.next}: error code ${part.errorCode}`);
        const before = s.next;
        for (const batch of part.records ?? []) {
          const last = batch.firstOffset + BigInt(batch.lastOffsetDelta);
          if (last < s.next) continue; // a batch before the fetch offset (the broker answers whole batches)
          if (batch.attributes & IS_CONTROL) {
            const marker = batch.records[0]?.key;
            const committed = marker !== null && marker !== undefined && marker.length >= 4 && marker.readInt16BE(2) === COMMIT_MARKER;
            if (committed) out.push(...(s.open.get(batch.producerId) ?? []));
            s.open.delete(batch.producerId);
          } else {
            const records = batch.records
              .filter((r) => batch.firstOffset + BigInt(r.offsetDelta) >= s.next)
              .map((r) => toRecord(p, batch, r));
            if (batch.attributes & IS_TRANSACTIONAL) {
              const list = s.open.get(batch.producerId) ?? [];
              list.push(...records);
              s.open.set(batch.producerId, list);
            } else {
              out.push(...records);
            }
          }
          s.next = last + 1n;
        }
        if (s.next === before || s.next >= part.highWatermark) break;
      }
    }
    return out;
  }

  async close(): Promise<void> {
    await this.consumer.close(true);
  }
}
