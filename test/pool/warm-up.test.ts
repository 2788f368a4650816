/**
 * The engine's warm-up before `serve` listens (src/pool/warm-up.ts): made-up records from the
 * index's own places, valid as an entrance validates them, in the four forms of a lookup and both
 * directions of a recipient block; run for about the time asked and discarded.
 */
import { describe, expect, it } from 'vitest';
import { loadDefaultIndex } from '../../src/data/index-file.ts';
import { createWorkerState } from '../../src/pool/worker-state.ts';
import { warmUp, warmUpElements } from '../../src/pool/warm-up.ts';

const state = createWorkerState(await loadDefaultIndex());

describe('warmUpElements', () => {
  it('makes lookups in the four forms people write and recipient blocks, all valid, the same every time', () => {
    const search = warmUpElements(state.ctx.index, 'search');
    expect(search.length).toBeGreaterThan(1000);
    const forms = new Set(search.map((e) => Object.keys(e.request).filter((k) => (e.request as unknown as Record<string, unknown>)[k] !== undefined).sort().join(',')));
    expect(forms).toEqual(new Set(['city,country,housenumber,street,zip', 'address', 'city,housenumber,street', 'housenumber,street,zip']));
    // the streets are named after places, not after postcodes
    expect(search.filter((e) => /^\d/.test(e.request.street ?? 'x')).length).toBe(0);
    const lines = warmUpElements(state.ctx.index, 'lines');
    expect(lines.length).toBeGreaterThan(500);
    expect(new Set(lines.map((e) => (e.request as { countrycode?: string }).countrycode)).size).toBeGreaterThan(10);
    expect(warmUpElements(state.ctx.index, 'search').map((e) => e.request)).toEqual(search.map((e) => e.request));
  });

  it('without an index: recipient blocks of a few countries, no lookups', () => {
    expect(warmUpElements(undefined, 'lines').length).toBeGreaterThan(0);
    expect(warmUpElements(undefined, 'search')).toEqual([]);
  });
});

describe('warmUp', () => {
  it('runs records for about the time asked; 0 runs none', () => {
    expect(warmUp(state, ['search', 'lines'], 0)).toEqual({ records: 0, ms: 0 });
    const done = warmUp(state, ['search', 'lines'], 300);
    expect(done.records).toBeGreaterThan(0);
    expect(done.ms).toBeGreaterThanOrEqual(300);
    // a look at the clock every 32 records of each op: never far past the time asked
    expect(done.ms).toBeLessThan(300 + 2000);
    expect(warmUp({ ctx: {} }, ['lines'], 50).records).toBeGreaterThan(0);
  });

  it('never throws: a defect in making the records ends the warm-up with its reason, and the server starts all the same', () => {
    const broken = { ctx: { index: { docCount: 10 } as unknown as NonNullable<typeof state.ctx.index> } };
    const done = warmUp(broken, ['search'], 100);
    expect(done.records).toBe(0);
    expect(done.failed).toMatch(/\S/);
  });
});
