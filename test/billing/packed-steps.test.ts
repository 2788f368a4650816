/**
 * The money steps packed for the SQLite store's thread (src/billing/sqlite/packed-steps.ts): the
 * store sees the steps it was given and the caller the answers the store gave, whatever was packed.
 */
import { describe, expect, it } from 'vitest';
import { packResult, packStep, unpackResult, unpackStep } from '../../src/billing/sqlite/packed-steps.ts';
import type { LedgerEntry, MoneyStep, MoneyStepResult } from '../../src/billing/store.ts';

const entry = (i: number, over: Partial<LedgerEntry> = {}): LedgerEntry => ({
  id: `acc/lines/kafka:t:g/0/${i}`, account: 'acc', function: 'lines', credits: 1, requestid: 'r1', time: '2026-11-26T05:00:00.000Z', ...over,
});
const reservation = { id: 'res', accountId: 'acc', amount: 3, createdAt: 't0', expiresAt: 't1' };

/** Through the thread and back, as structuredClone carries a message. */
function roundTrip(step: MoneyStep, answer: (s: MoneyStep) => MoneyStepResult): { seen: MoneyStep; result: MoneyStepResult; sent: unknown } {
  const sent = structuredClone(packStep(step));
  const seen = unpackStep(sent);
  const back = structuredClone(packResult(sent, answer(seen)));
  return { seen, result: unpackResult(step, back), sent };
}

describe('packed money steps', () => {
  const entries = [entry(0), entry(1), entry(2)];
  const written = (ids: string[]) => () => ({ written: ids.length, writtenIds: ids, charged: ids.length, credits: 7 });

  it.each([
    ['every row written', [0, 1, 2]],
    ['some rows written (a replay)', [0, 2]],
    ['none written', []],
  ])('a charge, %s: the store sees the entries, the caller gets the written ids', (_, at) => {
    const step: MoneyStep = { kind: 'charge', reservation, entries, opts: { exportLater: true } };
    const ids = at.map((i) => entries[i]!.id);
    const { seen, result, sent } = roundTrip(step, written(ids));
    expect(seen).toEqual(step);
    expect(result).toEqual({ written: ids.length, writtenIds: ids, charged: ids.length, credits: 7 });
    expect(sent).toHaveProperty('ids'); // packed
  });

  it('a settle is packed too; entries that differ in more than their id are sent as they are', () => {
    const settle: MoneyStep = { kind: 'settle', reservationId: 'res', accountId: 'acc', entries };
    expect(roundTrip(settle, written([entries[1]!.id])).result).toMatchObject({ writtenIds: [entries[1]!.id] });
    const mixed: MoneyStep = { kind: 'settle', reservationId: 'res', accountId: 'acc', entries: [entry(0), entry(1, { requestid: 'r2' })] };
    const r = roundTrip(mixed, written([mixed.entries[1]!.id]));
    expect(r.sent).toEqual(mixed);
    expect(r.seen).toEqual(mixed);
    expect(r.result).toMatchObject({ writtenIds: [mixed.entries[1]!.id] });
  });

  it('reserve, release, a refused charge and a settle without entries pass unchanged', () => {
    expect(roundTrip({ kind: 'reserve', reservation }, () => true)).toMatchObject({ seen: { kind: 'reserve', reservation }, result: true });
    expect(roundTrip({ kind: 'release', reservationId: 'res' }, () => undefined).result).toBeUndefined();
    expect(roundTrip({ kind: 'charge', reservation, entries }, () => false).result).toBe(false);
    const empty: MoneyStep = { kind: 'settle', reservationId: 'res', accountId: 'acc', entries: [] };
    expect(roundTrip(empty, written([])).result).toEqual({ written: 0, writtenIds: [], charged: 0, credits: 7 });
  });
});
