/**
 * The pool splits a batch of validated elements across its threads itself (src/pool/split.ts):
 * the rule, and a real two-thread pool answering a split batch in input order.
 */
import { describe, expect, it } from 'vitest';
import { EnginePool } from '../../src/pool/engine-pool.ts';
import { SPLIT_MIN_ELEMENTS, splitRanges } from '../../src/pool/split.ts';
import { validateElement, type ValidElement } from '../../src/contract/validate.ts';

describe('splitRanges', () => {
  it('one task below the threshold or on one thread; else one equal part per thread, in order, covering the batch', () => {
    expect(splitRanges(SPLIT_MIN_ELEMENTS - 1, 8)).toEqual([[0, SPLIT_MIN_ELEMENTS - 1]]);
    expect(splitRanges(5000, 1)).toEqual([[0, 5000]]);
    expect(splitRanges(5000, 0)).toEqual([[0, 5000]]);
    expect(splitRanges(0, 4)).toEqual([[0, 0]]);
    expect(splitRanges(SPLIT_MIN_ELEMENTS, 2)).toEqual([[0, SPLIT_MIN_ELEMENTS / 2], [SPLIT_MIN_ELEMENTS / 2, SPLIT_MIN_ELEMENTS]]);
    expect(splitRanges(1001, 4)).toEqual([[0, 251], [251, 502], [502, 753], [753, 1001]]);
  });
});

describe('EnginePool.runValidated', () => {
  it('runs a large batch as one task per thread and answers in input order', async () => {
    const pool = await EnginePool.create({ threads: 2 });
    try {
      const n = SPLIT_MIN_ELEMENTS * 3 + 1;
      const elements: ValidElement[] = Array.from({ length: n }, (_, i) => {
        const v = validateElement('lines', { countrycode: 'DE', sendercountrycode: 'DE', street: 'Hauptstraße', housenumber: String(i + 1), zip: '10115', city: 'Berlin' });
        if (!v.ok) throw new Error(v.error.errormessage);
        return v;
      });
      const piscina = (pool as unknown as { piscina: { completed: number } }).piscina;
      const before = piscina.completed;
      const outcomes = await pool.runValidated('lines', elements);
      expect(piscina.completed - before).toBe(2);
      expect(outcomes.map((o) => o.ok && (o.record as { addressline1: string }).addressline1)).toEqual(
        elements.map((_, i) => `Hauptstraße ${i + 1}`));
      // a small batch stays one task
      await pool.runValidated('lines', elements.slice(0, SPLIT_MIN_ELEMENTS - 1));
      expect(piscina.completed - before).toBe(3);
    } finally {
      await pool.destroy();
    }
  });
});
