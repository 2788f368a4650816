/** The stream worker's billing: prefix coverage, replays after a crash, refused ops. */
import { afterEach, beforeEach, expect, it, describe } from 'vitest';
import { Billing } from '../../../src/billing/billing.ts';
import { PRICES } from '../../../src/billing/prices.ts';
import { ServiceError } from '../../../src/contract/errors.ts';
import { StreamMeter } from '../../../src/adapters/kafka/stream-meter.ts';

describe('StreamMeter', () => {
  let billing: Billing;
  beforeEach(async () => {
    billing = await Billing.open('sqlite::memory:');
  });
  afterEach(async () => {
    await billing.close();
  });

  const ids = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `in/0/${from + i}`);

  it('covers the prefix the balance pays for, in offset order; free records (DLQ) do not count', async () => {
    const a = await billing.createAccount({ credits: 2 * PRICES.lines + PRICES.search, agreements: ['search', 'lines'] });
    const meter = await StreamMeter.start(billing, a, ['search', 'lines']);
    const items = [
      { op: 'lines' as const, id: 'in/0/0' }, { op: undefined, id: 'in/0/1' }, { op: 'search' as const, id: 'in/0/2' },
      { op: 'lines' as const, id: 'in/0/3' }, { op: 'lines' as const, id: 'in/0/4' }, { op: 'search' as const, id: 'in/0/5' },
    ];
    const plan = await meter.plan(items);
    expect(plan.covered).toBe(4); // lines, dlq, search, lines — the third lines record is not paid for
    await meter.settle(plan, 'lines', ['in/0/0', 'in/0/3'], [true, true]);
    await meter.settle(plan, 'search', ['in/0/2'], [true]);
    await meter.release(plan);
    expect(await billing.balance(a.account)).toBe(0);
    expect((await billing.findAccount({ id: a.account }))!.reserved).toBe(0);
    expect((await meter.plan(items.slice(4))).covered).toBe(0);
    expect(await meter.canAffordOne()).toBe(false);
    await billing.topup({ id: a.account }, PRICES.lines);
    expect(await meter.canAffordOne()).toBe(true);
  });

  it('a replay after a crash (settled, Kafka transaction lost) neither charges twice nor stalls on spent credits', async () => {
    const a = await billing.createAccount({ credits: 3 * PRICES.lines, agreements: ['lines'] });
    const meter = await StreamMeter.start(billing, a, ['lines']);
    const first = await meter.plan(ids(3).map((id) => ({ op: 'lines' as const, id })));
    expect(first.covered).toBe(3);
    await meter.settle(first, 'lines', ids(3), [true, true, true]);
    expect(await billing.balance(a.account)).toBe(0);
    // the process died before its Kafka commit: the same three records come again, plus one more
    const replay = await meter.plan(ids(4).map((id) => ({ op: 'lines' as const, id })));
    expect(replay.covered).toBe(3); // the three paid ones run, the fourth waits for credits
    expect([...replay.prepaid].sort()).toEqual(ids(3));
    expect(await meter.settle(replay, 'lines', ids(3), [true, true, true])).toBe(0);
    await meter.release(replay);
    expect(await billing.balance(a.account)).toBe(0);
    expect(await billing.store.ledgerCount(a.account)).toBe(3);
  });

  it('401 stops the worker; an op without agreement answers 403 results while the other op runs', async () => {
    const a = await billing.createAccount({ credits: 1000, agreements: ['lines'] });
    await expect(StreamMeter.start(billing, { license: a.license, guid: 'x'.repeat(a.guid.length) }, ['lines'])).rejects.toBeInstanceOf(ServiceError);
    await expect(StreamMeter.start(billing, a, ['search'])).rejects.toMatchObject({ status: 403 });
    const meter = await StreamMeter.start(billing, a, ['search', 'lines']);
    expect(meter.refusal('search')).toMatchObject({ errorcode: 403 });
    expect(meter.refusal('lines')).toBeUndefined();
    const plan = await meter.plan([{ op: undefined, id: 'in/0/0' }, { op: 'lines', id: 'in/0/1' }]);
    expect(plan.covered).toBe(2);
    await meter.release(plan);
  });
});
