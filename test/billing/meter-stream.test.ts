/**
 * The Kafka worker's use of the one metering wiring (Meter.open, bindJob, hold with `partial`, settle
 * with `exportLater`, and both in one store step, holdAndSettle): prefix coverage, replays after a
 * crash, refused ops, job identity.
 */
import { afterEach, beforeEach, expect, it, describe, vi } from 'vitest';
import { Billing } from '../../src/billing/billing.ts';
import { Meter, type Hold, type MeterItem, type Settled } from '../../src/billing/meter.ts';
import { PRICES } from '../../src/billing/prices.ts';
import { ServiceError } from '../../src/contract/errors.ts';
import type { Op } from '../../src/contract/params.ts';

const TOPIC_ID = '4c80675b-d222-4670-acd4-0661a08ed906';

describe('Meter on a stream (Kafka)', () => {
  let billing: Billing;
  beforeEach(async () => {
    billing = await Billing.open('sqlite::memory:');
  });
  afterEach(async () => {
    await billing.close();
  });

  // the worker's record key: `<partition>/<offset>`
  const items = (ops: Array<Op | undefined>, from = 0): MeterItem[] => ops.map((op, i) => ({ op, record: `0/${from + i}` }));
  const holdOf = (m: Meter, its: MeterItem[]) => m.hold(its, { partial: true });
  const settleOf = (m: Meter, p: Hold, chargeable: boolean[]) => m.settle(p, chargeable, { exportLater: true });
  const lines = (n: number) => items(Array.from({ length: n }, () => 'lines' as const));

  async function started(a: { license: string; guid: string }, ops: Op[], group = 'g', topicId = TOPIC_ID): Promise<Meter> {
    const m = await Meter.open(billing, a, ops, { sweep: true });
    m.bindJob({ kind: 'kafka', topicId, group });
    return m;
  }

  it('covers the prefix the balance pays for, in offset order; free records (DLQ, rejected) do not count', async () => {
    const a = await billing.createAccount({ credits: 2 * PRICES.lines + PRICES.search, agreements: ['search', 'lines'] });
    const meter = await started(a, ['search', 'lines']);
    const its = items(['lines', undefined, 'search', 'lines', 'lines', 'search']);
    const plan = await holdOf(meter, its);
    expect(plan.covered).toBe(4); // lines, free, search, lines — the third lines record is not paid for
    const s = await settleOf(meter, plan, [true, false, true, true]);
    expect(s.credits).toBe(2 * PRICES.lines + PRICES.search);
    expect(s.entries.map((e) => e.id)).toEqual([meter.ledgerId('lines', '0/0'), meter.ledgerId('search', '0/2'), meter.ledgerId('lines', '0/3')]);
    expect(s.written).toEqual([true, false, true, true]);
    // the entries are the rows as stored
    const stored = await billing.ledger(a.account);
    expect(s.entries).toEqual(stored.sort((x, y) => s.entries.findIndex((e) => e.id === x.id) - s.entries.findIndex((e) => e.id === y.id)));
    expect(await billing.balance(a.account)).toBe(0);
    expect((await billing.findAccount({ id: a.account }))!.reserved).toBe(0);
    expect((await holdOf(meter, its.slice(4))).covered).toBe(0);
    expect(await meter.canAffordOne()).toBe(false);
    await billing.topup({ id: a.account }, PRICES.lines);
    expect(await meter.canAffordOne()).toBe(true);
  });

  it('free records never pause a partition: an empty balance still covers rejected ones up to the first charged one', async () => {
    const a = await billing.createAccount({ credits: 0, agreements: ['lines'] });
    const meter = await started(a, ['lines']);
    const plan = await holdOf(meter, items([undefined, undefined, 'lines', undefined]));
    expect(plan.covered).toBe(2);
    await meter.release(plan);
  });

  it('a replay after a crash (settled, Kafka transaction lost) neither charges twice nor stalls on spent credits, and writes no ledger entry again', async () => {
    const a = await billing.createAccount({ credits: 3 * PRICES.lines, agreements: ['lines'] });
    const meter = await started(a, ['lines']);
    const first = await holdOf(meter, lines(3));
    expect(first.covered).toBe(3);
    expect((await settleOf(meter, first, [true, true, true])).entries).toHaveLength(3);
    expect(await billing.balance(a.account)).toBe(0);
    // the process died before its Kafka commit: the same three records come again, plus one more
    const replay = await holdOf(meter, lines(4));
    expect(replay.covered).toBe(3); // the three paid ones run, the fourth waits for credits
    expect([...replay.prepaid].sort()).toEqual([0, 1, 2]);
    const s = await settleOf(meter, replay, [true, true, true]);
    expect(s.credits).toBe(0);
    expect(s.entries).toEqual([]);
    // their ledger-topic entries never committed: the replay mirrors them, once
    expect(s.unexported.map((e) => e.id)).toEqual([0, 1, 2].map((o) => meter.ledgerId('lines', `0/${o}`)));
    meter.markMirroredLater('0', 0n, 3n, (err) => { throw err; }); // the replay's transaction committed offsets 0…2
    await meter.exportsDone();
    await meter.release(replay);
    expect(await billing.balance(a.account)).toBe(0);
    expect(await billing.store.ledgerCount(a.account)).toBe(3);
    // the same group reads them again (an offset reset): no charge, no ledger-topic entry
    const reset = await holdOf(meter, lines(3));
    const again = await settleOf(meter, reset, [true, true, true]);
    expect([again.credits, again.entries.length, again.unexported.length]).toEqual([0, 0, 0]);
  });

  it('ranges marked mirrored in the background are marked once exportsDone (and close) resolves; a failure goes to the handler', async () => {
    const a = await billing.createAccount({ credits: 10 * PRICES.lines, agreements: ['lines'] });
    const meter = await started(a, ['lines']);
    const plan = await holdOf(meter, lines(3));
    const s = await settleOf(meter, plan, [true, true, true]);
    const ids = s.entries.map((e) => e.id);
    expect((await billing.unexported(a.account, ids)).map((e) => e.id).sort()).toEqual([...ids].sort());
    const errors: unknown[] = [];
    meter.markMirroredLater('0', 0n, 2n, (err) => errors.push(err)); // offsets 0 and 1 committed
    await meter.exportsDone();
    expect((await billing.unexported(a.account, ids)).map((e) => e.id)).toEqual([ids[2]]);
    meter.markMirroredLater('1', 0n, 10n, (err) => errors.push(err)); // another partition's range holds none of them
    await meter.exportsDone();
    expect((await billing.unexported(a.account, ids)).map((e) => e.id)).toEqual([ids[2]]);
    vi.spyOn(billing, 'markMirrored').mockRejectedValueOnce(new Error('store down'));
    meter.markMirroredLater('0', 2n, 3n, (err) => errors.push(err));
    await meter.close();
    expect(errors.map((e) => (e as Error).message)).toEqual(['store down']);
  });

  it('the job is the consumer group on the topic id: another group, a recreated topic or another account is charged; the same group again is not', async () => {
    const a = await billing.createAccount({ credits: 10_000, agreements: ['lines'] });
    const b = await billing.createAccount({ credits: 10_000, agreements: ['lines'] });
    const charge = async (m: Meter) => {
      const p = await holdOf(m, lines(5));
      return (await settleOf(m, p, [true, true, true, true, true])).credits;
    };
    expect(await charge(await started(a, ['lines'], 'g1'))).toBe(5 * PRICES.lines);
    expect(await charge(await started(a, ['lines'], 'g1'))).toBe(0); // same group, same offsets (offset reset, restart)
    expect(await charge(await started(a, ['lines'], 'g2'))).toBe(5 * PRICES.lines); // second group
    expect(await charge(await started(a, ['lines'], 'g1', '0b7e5d3a-1111-4222-8333-444455556666'))).toBe(5 * PRICES.lines); // recreated topic
    expect(await charge(await started(b, ['lines'], 'g1'))).toBe(5 * PRICES.lines); // another account
    expect(await billing.store.ledgerCount(a.account)).toBe(15);
    expect(await billing.store.ledgerCount(b.account)).toBe(5);
  });

  it('401 stops the worker; an op without agreement answers 403 results while the other op runs', async () => {
    const a = await billing.createAccount({ credits: 1000, agreements: ['lines'] });
    await expect(Meter.open(billing, { license: a.license, guid: 'x'.repeat(a.guid.length) }, ['lines'])).rejects.toBeInstanceOf(ServiceError);
    await expect(Meter.open(billing, a, ['search'])).rejects.toMatchObject({ status: 403 });
    const meter = await started(a, ['search', 'lines']);
    expect(meter.refusal('search')).toMatchObject({ errorcode: 403 });
    expect(meter.refusal('lines')).toBeUndefined();
    const plan = await holdOf(meter, items([undefined, 'lines']));
    expect(plan.covered).toBe(2);
    await meter.release(plan);
  });

  describe('holdAndSettle: hold (partial) and settle in one store step, answering what the two steps answer', () => {
    /** The same items through hold + settle on one account and holdAndSettle on another just like it. */
    async function both(credits: number, ops: Op[], its: MeterItem[], chargeable: boolean[], before?: (m: Meter) => Promise<void>) {
      const out = [];
      for (const oneStep of [false, true]) {
        const a = await billing.createAccount({ credits, agreements: ops });
        const meter = await started(a, ops, oneStep ? 'one' : 'two');
        await before?.(meter);
        let covered: number;
        let s: Settled | undefined;
        if (oneStep) {
          ({ covered, ...s } = await meter.holdAndSettle(its, chargeable, { exportLater: true }));
        } else {
          const plan = await holdOf(meter, its);
          covered = plan.covered;
          s = covered > 0 ? await settleOf(meter, plan, chargeable) : undefined;
          await meter.release(plan);
        }
        const acc = (await billing.findAccount({ id: a.account }))!;
        const job = (id: string) => id.split('/').slice(3).join('/'); // the record key: the same in both
        out.push({
          covered, credits: s?.credits ?? 0, written: s?.written.slice(0, covered) ?? [], entries: s?.entries.map((e) => job(e.id)) ?? [],
          unexported: s?.unexported.map((e) => job(e.id)) ?? [], balance: acc.credits, reserved: acc.reserved, rows: await billing.store.ledgerCount(a.account),
        });
      }
      expect(out[1]).toEqual(out[0]);
      return out[1]!;
    }

    it('the prefix the balance covers, free records not counted, only chargeable ones charged', async () => {
      const r = await both(3 * PRICES.lines, ['lines'], items(['lines', undefined, 'lines', 'lines', 'lines']), [true, false, false, true, true]);
      expect(r).toMatchObject({ covered: 4, credits: 2 * PRICES.lines, written: [true, false, false, true], balance: PRICES.lines, reserved: 0, rows: 2 });
    });

    it('nothing covered: nothing written', async () => {
      const r = await both(0, ['lines'], lines(3), [true, true, true]);
      expect(r).toMatchObject({ covered: 0, credits: 0, rows: 0, balance: 0 });
    });

    it('unlimited accounts: everything covered, rows written, nothing debited', async () => {
      const r = await both(-1, ['lines'], lines(4), [true, true, false, true]);
      expect(r).toMatchObject({ covered: 4, rows: 3, balance: -1, reserved: 0 });
    });

    it('a replay after a crash: the paid records run again without credits, are not charged again, and their unmirrored rows come back', async () => {
      const crashed = async (m: Meter) => {
        const p = await holdOf(m, lines(3));
        await settleOf(m, p, [true, true, true]); // settled, the Kafka transaction lost
      };
      const r = await both(3 * PRICES.lines, ['lines'], lines(4), [true, true, true, true], crashed);
      expect(r).toMatchObject({ covered: 3, credits: 0, entries: [], unexported: ['0/0', '0/1', '0/2'], balance: 0, rows: 3 });
    });

    it('records of two functions take hold and settle, with the same answer', async () => {
      const r = await both(2 * PRICES.lines + PRICES.search, ['lines', 'search'], items(['lines', 'search', undefined, 'lines', 'lines']), [true, true, false, true, true]);
      expect(r).toMatchObject({ covered: 4, rows: 3, balance: 0, reserved: 0 });
    });

    it('another holder took the credits after the look: the store refuses (402) and the meter looks again', async () => {
      const a = await billing.createAccount({ credits: 2 * PRICES.lines, agreements: ['lines'] });
      const meter = await started(a, ['lines']);
      const other = await billing.reserve(a.account, 'lines', 1); // held by someone else
      const real = billing.findAccount.bind(billing);
      vi.spyOn(billing, 'findAccount').mockImplementationOnce(async (sel) => ({ ...(await real(sel))!, reserved: 0 })); // a stale look
      const s = await meter.holdAndSettle(lines(2), [true, true]);
      expect(s.covered).toBe(1);
      expect(s.written).toEqual([true]);
      await billing.release(other);
      expect(await billing.balance(a.account)).toBe(PRICES.lines);
    });

    it('a disabled account is refused (401) before anything is written', async () => {
      const a = await billing.createAccount({ credits: 10, agreements: ['lines'] });
      const meter = await started(a, ['lines']);
      await billing.setDisabled({ id: a.account }, true);
      await expect(meter.holdAndSettle(lines(2), [true, true])).rejects.toMatchObject({ status: 401 });
      expect(await billing.store.ledgerCount(a.account)).toBe(0);
    });
  });
});
