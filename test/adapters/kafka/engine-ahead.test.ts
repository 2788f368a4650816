/**
 * The next slice's engine work started while the current slice is in its Kafka half
 * (src/adapters/kafka/engine-ahead.ts): taken only when the queue still starts where it was
 * started, and only for a full slice; otherwise computed afresh from the queue's head. The results
 * are those of the slice taken, whichever way they were made.
 */
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createValueCodec } from '../../../src/adapters/kafka/avro/index.ts';
import type { PortMessage } from '../../../src/adapters/kafka/client-port.ts';
import { EngineAhead } from '../../../src/adapters/kafka/engine-ahead.ts';
import { sliceResults, type SliceOptions } from '../../../src/adapters/kafka/slice.ts';
import type { Meter } from '../../../src/billing/meter.ts';
import { EnginePool } from '../../../src/pool/engine-pool.ts';

const codec = createValueCodec();
const pool = await EnginePool.create({ threads: 0 });
afterAll(() => pool.destroy());

const o = {
  pool, codec, op: 'lines', valueFormat: 'avro', meter: { refusal: () => undefined, requestid: 'r-1' } as unknown as Meter,
} as unknown as SliceOptions;

const messages = (from: number, n: number): PortMessage[] => Array.from({ length: n }, (_, i) => ({
  offset: String(from + i), offsetValue: BigInt(from + i), key: null, headers: {},
  value: codec.encode('lines-request', { countrycode: 'DE', sendercountrycode: 'DE', street: 'Hauptstraße', housenumber: String(from + i), zip: '10115', city: 'Berlin' }),
}));

/** Resolves once the results of `take` are in and the next slice has (or has not) started. */
const settled = () => new Promise((r) => setTimeout(r, 20));

describe('EngineAhead', () => {
  it('the next full slice starts once the current results are in, and is taken when its turn comes', async () => {
    let queue = messages(0, 5);
    const ahead = new EngineAhead(o, 2);
    const runs = vi.spyOn(pool, 'run');
    const first = ahead.take(() => queue);
    expect(first.part.map((m) => m.offset)).toEqual(['0', '1']);
    await first.results;
    await settled();
    queue = queue.slice(2); // the first slice committed whole
    expect(runs).toHaveBeenCalledTimes(2); // the first slice, and the second ahead of its turn
    const second = ahead.take(() => queue);
    expect(runs).toHaveBeenCalledTimes(2); // taken, not made again
    runs.mockRestore();
    expect(second.part.map((m) => m.offset)).toEqual(['2', '3']);
    expect(second.part[0]).toBe(queue[0]);
    expect(await second.results).toEqual(await sliceResults(o, second.part));
  });

  it('a slice that did not commit whole (a prefix, a failure) drops the results started ahead: the next is made from the queue head', async () => {
    let queue = messages(0, 6);
    const ahead = new EngineAhead(o, 2);
    await ahead.take(() => queue).results;
    await settled();
    queue = queue.slice(1); // only a prefix committed (credits ran out)
    const next = ahead.take(() => queue);
    expect(next.part.map((m) => m.offset)).toEqual(['1', '2']);
    expect(await next.results).toEqual(await sliceResults(o, next.part));
  });

  it('no partial slice ahead: with less than a full slice behind the current one, the next is made at its turn, as long as the queue then is', async () => {
    let queue = messages(0, 3);
    const ahead = new EngineAhead(o, 2);
    await ahead.take(() => queue).results;
    await settled();
    queue = [...queue.slice(2), ...messages(3, 3)]; // more arrived meanwhile
    const next = ahead.take(() => queue);
    expect(next.part.map((m) => m.offset)).toEqual(['2', '3']);
    expect((await next.results).kinds).toHaveLength(2);
  });
});
