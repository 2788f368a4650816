import { describe, expect, it } from 'vitest';
import { sendOffsetsRetrying, type OffsetsToCommit } from '../../../src/adapters/kafka/send-offsets.ts';

const OFFSETS: OffsetsToCommit = { consumerGroupId: 'g', topics: [{ topic: 't', partitions: [{ partition: 0, offset: '7' }] }] };

/** A stand-in for a kafkajs transaction whose sendOffsets fails with the given errors first. */
function txFailing(...errors: object[]) {
  const calls: OffsetsToCommit[] = [];
  return {
    calls,
    async sendOffsets(o: OffsetsToCommit) {
      calls.push(o);
      const e = errors.shift();
      if (e) throw Object.assign(new Error('kafka'), e);
    },
  };
}

describe('sendOffsetsRetrying', () => {
  it('repeats the call on errors kafkajs marks retriable (coordinator not ready, concurrent transactions)', async () => {
    const tx = txFailing(
      { type: 'GROUP_COORDINATOR_NOT_AVAILABLE', code: 15, retriable: true },
      { type: 'CONCURRENT_TRANSACTIONS', code: 51, retriable: true },
    );
    await sendOffsetsRetrying(tx, OFFSETS, { initialDelayMs: 1 });
    expect(tx.calls).toEqual([OFFSETS, OFFSETS, OFFSETS]);
  });

  it('rethrows a fencing error at once', async () => {
    const tx = txFailing({ type: 'PRODUCER_FENCED', code: 90, retriable: false });
    await expect(sendOffsetsRetrying(tx, OFFSETS, { initialDelayMs: 1 })).rejects.toMatchObject({ type: 'PRODUCER_FENCED' });
    expect(tx.calls).toHaveLength(1);
  });

  it('gives up after the configured retries', async () => {
    const retriable = { type: 'GROUP_LOAD_IN_PROGRESS', code: 14, retriable: true };
    const tx = txFailing(retriable, retriable, retriable, retriable);
    await expect(sendOffsetsRetrying(tx, OFFSETS, { retries: 2, initialDelayMs: 1 })).rejects.toMatchObject({ code: 14 });
    expect(tx.calls).toHaveLength(3);
  });
});
