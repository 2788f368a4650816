import { describe, expect, it } from 'vitest';
import type { OutMessage } from '../../../src/adapters/kafka/output-messages.ts';
import { requestsBySize, type TopicMessages } from '../../../src/adapters/kafka/slice.ts';

/** A message whose size as requestsBySize counts it is `bytes` (value + key + 64). */
const msg = (tag: string, bytes: number): OutMessage => ({ key: Buffer.from(tag), value: Buffer.alloc(bytes - 64 - tag.length) });
const tags = (request: TopicMessages[]) => request.map((p) => `${p.topic}:${p.messages.map((m) => String(m.key)).join(',')}`);

describe('requestsBySize: a slice\'s produce requests', () => {
  it('puts the topics of a slice in one request while they fit', () => {
    const parts = [
      { topic: 'results', messages: [msg('r1', 100), msg('r2', 100)] },
      { topic: 'ledger', messages: [msg('l1', 100), msg('l2', 100)] },
      { topic: 'dlq', messages: [] },
    ];
    expect([...requestsBySize(parts, 1000)].map(tags)).toEqual([['results:r1,r2', 'ledger:l1,l2']]);
  });

  it('cuts where the next message would pass the limit, in order, a topic continuing in the next request', () => {
    const parts = [
      { topic: 'results', messages: [msg('r1', 300), msg('r2', 300)] },
      { topic: 'ledger', messages: [msg('l1', 300), msg('l2', 300), msg('l3', 300)] },
    ];
    const requests = [...requestsBySize(parts, 1000)];
    expect(requests.map(tags)).toEqual([['results:r1,r2', 'ledger:l1'], ['ledger:l2,l3']]);
    for (const r of requests) expect(r.flatMap((p) => p.messages).reduce((n, m) => n + m.value!.length + m.key!.length + 64, 0)).toBeLessThanOrEqual(1000);
  });

  it('sends a message larger than the limit alone, and nothing for no messages', () => {
    expect([...requestsBySize([{ topic: 'results', messages: [msg('a', 100), msg('big', 5000), msg('b', 100)] }], 1000)].map(tags))
      .toEqual([['results:a'], ['results:big'], ['results:b']]);
    expect([...requestsBySize([{ topic: 'results', messages: [] }, { topic: 'ledger', messages: [] }], 1000)]).toEqual([]);
  });
});
