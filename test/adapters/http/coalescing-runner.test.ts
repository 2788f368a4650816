/**
 * `serve`'s single records to the pool: sent at once while a thread is free; while every thread is
 * busy, those that arrive wait and go together as one task, each answered with its own outcome, in
 * the pool's real threads.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CoalescingSingleRunner, MAX_SINGLES_PER_TASK } from '../../../src/adapters/http/coalescing-runner.ts';
import type { ElementRunner } from '../../../src/adapters/http/api.ts';
import type { Op } from '../../../src/contract/params.ts';
import { validateElement, type ValidElement } from '../../../src/contract/validate.ts';
import { loadDefaultIndex } from '../../../src/data/index-file.ts';
import type { Outcome } from '../../../src/engine/process.ts';
import { EnginePool } from '../../../src/pool/engine-pool.ts';

function valid(op: Op, element: Record<string, string>): ValidElement {
  const v = validateElement(op, element);
  if (!v.ok) throw new Error(v.error.errormessage);
  return v;
}

const PLACES = ['Praha', 'København', 'Wien', 'Geneva', 'Milan', 'Cologne', 'Seville', 'Frankfurt', 'Lisbon', 'Vaduz'];
const block = (i: number) => ({ countrycode: 'DE', sendercountrycode: 'DE', street: 'Hauptstraße', housenumber: String(i + 1), zip: '10115', city: 'Berlin' });

describe('CoalescingSingleRunner on the real pool', () => {
  let pool: EnginePool;
  const tasks: string[] = [];
  let counted: ElementRunner;

  beforeAll(async () => {
    pool = await EnginePool.create({ threads: 1, indexBuffer: await loadDefaultIndex() });
    counted = { runValidated: (op, els) => (tasks.push(`${op} ${els.length}`), pool.runValidated(op, els)) };
  }, 120_000);
  afterAll(async () => {
    await pool?.destroy();
  });

  it('sends a single record at once when a thread is free', async () => {
    tasks.length = 0;
    const runner = new CoalescingSingleRunner(counted, 1);
    const [o] = await runner.runValidated('search', [valid('search', { address: 'Praha' })]);
    expect(o!.ok).toBe(true);
    expect(tasks).toEqual(['search 1']);
  });

  it('groups the single records that arrive while the threads are busy; each gets the answer it would get alone', async () => {
    tasks.length = 0;
    const runner = new CoalescingSingleRunner(counted, 1);
    const sizes: number[] = [];
    runner.onSinglesTask = (records) => sizes.push(records);
    const elements = PLACES.map((address) => valid('search', { address }));
    const together = await Promise.all(elements.map((e) => runner.runValidated('search', [e])));
    // the first went alone to the free thread; the nine that came meanwhile went as one task
    expect(tasks).toEqual(['search 1', 'search 9']);
    expect(sizes).toEqual([1, 9]);
    for (let i = 0; i < elements.length; i++) expect(together[i]).toEqual(await pool.runValidated('search', [elements[i]!]));
  });

  it('never mixes operations in one task, and serves the operation that waited longest first', async () => {
    tasks.length = 0;
    const runner = new CoalescingSingleRunner(counted, 1);
    const first = runner.runValidated('lines', [valid('lines', block(0))]);
    const rest = [
      runner.runValidated('search', [valid('search', { address: 'Wien' })]),
      runner.runValidated('lines', [valid('lines', block(1))]),
      runner.runValidated('search', [valid('search', { address: 'Praha' })]),
    ];
    const outcomes = await Promise.all([first, ...rest]);
    expect(tasks).toEqual(['lines 1', 'search 2', 'lines 1']);
    expect(outcomes.every((o) => o.length === 1 && o[0]!.ok)).toBe(true);
    expect(outcomes[2]).toEqual(await pool.runValidated('lines', [valid('lines', block(1))]));
  });

  it(`caps a group at ${MAX_SINGLES_PER_TASK} records, one thread's task`, async () => {
    tasks.length = 0;
    const runner = new CoalescingSingleRunner(counted, 1);
    const n = 1 + MAX_SINGLES_PER_TASK + 5;
    const outcomes = await Promise.all(Array.from({ length: n }, (_, i) => runner.runValidated('lines', [valid('lines', block(i))])));
    expect(tasks).toEqual(['lines 1', `lines ${MAX_SINGLES_PER_TASK}`, 'lines 5']);
    expect(outcomes.map((o) => Object.values((o[0] as Extract<Outcome, { ok: true }>).record).find((line) => String(line).startsWith('Hauptstraße')))).toEqual(Array.from({ length: n }, (_, i) => `Hauptstraße ${i + 1}`));
  });

  it('passes a batch through as it is', async () => {
    tasks.length = 0;
    const runner = new CoalescingSingleRunner(counted, 1);
    const batch = [0, 1, 2].map((i) => valid('lines', block(i)));
    expect(await runner.runValidated('lines', batch)).toEqual(await pool.runValidated('lines', batch));
    expect(tasks).toEqual(['lines 3']);
  });
});

describe('CoalescingSingleRunner when a task fails', () => {
  it('fails only the records of that task, and keeps serving', async () => {
    let calls = 0;
    const failing: ElementRunner = {
      runValidated: async (_op, els) => {
        calls++;
        await new Promise((r) => setImmediate(r));
        if (calls === 2) throw new Error('worker died');
        return els.map(() => ({ ok: false, error: { errorcode: 'x', errormessage: 'y' } }) as unknown as Outcome);
      },
    };
    const runner = new CoalescingSingleRunner(failing, 1);
    const e = valid('lines', block(0));
    const results = await Promise.allSettled([runner.runValidated('lines', [e]), runner.runValidated('lines', [e]), runner.runValidated('lines', [e])]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'rejected']);
    await expect(runner.runValidated('lines', [e])).resolves.toHaveLength(1);
    expect(calls).toBe(3);
  });
});
