/**
 * `serve`'s engine runner: a single record runs on the event loop over the shared index, with the
 * same answers as the pool's threads give; a batch, and a single record of an op that has been
 * slow on average, go to the pool.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EngineTime, INLINE_BUDGET_US, InlineSingleRunner } from '../../../src/adapters/http/inline-runner.ts';
import type { ElementRunner } from '../../../src/adapters/http/api.ts';
import type { Op } from '../../../src/contract/params.ts';
import { validateElement, type ValidElement } from '../../../src/contract/validate.ts';
import { loadDefaultIndex } from '../../../src/data/index-file.ts';
import { EnginePool } from '../../../src/pool/engine-pool.ts';

function valid(op: Op, element: Record<string, string>): ValidElement {
  const v = validateElement(op, element);
  if (!v.ok) throw new Error(v.error.errormessage);
  return v;
}

const LINES: Record<string, string> = { countrycode: 'AT', sendercountrycode: 'DE', street: 'Mariahilfer Straße', housenumber: '10', zip: '1070', city: 'Wien' };
const SEARCHES: Record<string, string>[] = [{ city: 'Praha' }, { street: 'Rue de Rivoli', housenumber: '10', city: 'Paris', country: 'FRA' }, { zip: '9490' }];

describe('InlineSingleRunner', () => {
  let pool: EnginePool;
  let runner: InlineSingleRunner;
  const toPool: number[] = [];

  beforeAll(async () => {
    const indexBuffer = await loadDefaultIndex();
    pool = await EnginePool.create({ threads: 1, indexBuffer });
    const counted: ElementRunner = { runValidated: (op, els) => (toPool.push(els.length), pool.runValidated(op, els)) };
    runner = new InlineSingleRunner(counted, indexBuffer);
  }, 120_000);
  afterAll(async () => {
    await pool?.destroy();
  });

  it('runs a single record on the calling thread, with the answer the pool gives', async () => {
    const cases: [Op, Record<string, string>][] = [['lines', LINES], ...SEARCHES.map((s): [Op, Record<string, string>] => ['search', s])];
    for (const [op, element] of cases) {
      const inline = await runner.runValidated(op, [valid(op, element)]);
      const threaded = await pool.runValidated(op, [valid(op, element)]);
      expect(inline).toEqual(threaded);
      expect(inline[0]!.ok).toBe(true);
    }
    expect(toPool).toEqual([]);
    expect(runner.meanUs('lines')).toBeGreaterThan(0);
  });

  it('sends a batch to the pool, answered in order', async () => {
    const elements = SEARCHES.map((s) => valid('search', s));
    const out = await runner.runValidated('search', elements);
    expect(toPool).toEqual([3]);
    expect(out).toEqual(await pool.runValidated('search', elements));
  });
});

describe('EngineTime: the inline budget', () => {
  it('keeps an op inline while its mean is within the budget', () => {
    const t = new EngineTime();
    for (let i = 0; i < 100; i++) {
      expect(t.inline()).toBe(true);
      t.add(INLINE_BUDGET_US / 4);
    }
  });

  it('is not moved by one cold call', () => {
    const t = new EngineTime();
    t.add(1_000_000); // the first call: lazy structures, the JIT
    expect(t.inline()).toBe(true);
  });

  it('sends an op over the budget to the pool, probing one record in 64, and returns once it is cheap again', () => {
    const t = new EngineTime();
    for (let i = 0; i < 3; i++) t.add(INLINE_BUDGET_US * 10); // a national-scale index
    expect(t.meanUs).toBeGreaterThan(INLINE_BUDGET_US);
    const decisions = Array.from({ length: 128 }, () => t.inline());
    expect(decisions.filter(Boolean)).toHaveLength(2);
    expect(decisions[63]).toBe(true);
    while (t.meanUs > INLINE_BUDGET_US) t.add(INLINE_BUDGET_US / 10); // the probes were cheap
    expect(t.inline()).toBe(true);
  });
});
