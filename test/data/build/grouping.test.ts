import { describe, expect, it } from 'vitest';
import { orderByGroup, radixSortPairs, TripleGrouper } from '../../../src/data/build/grouping.ts';
import { StringInterner } from '../../../src/data/build/interner.ts';
import { mulberry32 } from '../../../eval/support/prng.ts';

describe('build stages: grouping and sorting in typed arrays', () => {
  it('groups triples to dense ids across table growth', () => {
    const g = new TripleGrouper(4);
    const ids: number[] = [];
    for (let i = 0; i < 10_000; i++) ids.push(g.id(i % 7, i % 1000, 3));
    expect(g.count).toBe(7000);
    for (let i = 0; i < 10_000; i++) expect(g.get(i % 7, i % 1000, 3)).toBe(ids[i]);
    expect(g.get(9, 9, 9)).toBe(-1);
  });
  it('orders rows by group with a stable counting sort, leaving out -1', () => {
    const { start, order } = orderByGroup(Int32Array.from([2, 0, -1, 2, 1, 0]), 3);
    expect([...start]).toEqual([0, 2, 3, 5]);
    expect([...order]).toEqual([1, 5, 4, 0, 3]);
  });
  it('radix-sorts (hash, value) pairs stably', () => {
    const rnd = mulberry32(3);
    const n = 100_000;
    const k = new Uint32Array(n), v = new Uint32Array(n);
    for (let i = 0; i < n; i++) { k[i] = Math.floor(rnd() * 5000) * 858_993; v[i] = i; }
    const want = [...k].map((x, i) => [x, i] as const).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    const [sk, sv] = radixSortPairs(k, v);
    expect([...sk]).toEqual(want.map((p) => p[0]));
    expect([...sv]).toEqual(want.map((p) => p[1]));
  });
  it('interns strings to dense ids, the empty string being 0, and gives their bytes back', () => {
    const s = new StringInterner();
    expect(s.intern('')).toBe(0);
    const a = s.intern('Städtle'), b = s.intern('Landstrasse');
    for (let i = 0; i < 20_000; i++) s.intern(`x${i}`);
    expect(s.intern('Städtle')).toBe(a);
    expect(s.find('Landstrasse')).toBe(b);
    expect(s.find('nope')).toBe(-1);
    expect(s.str(a)).toBe('Städtle');
    const [off, data] = s.finish();
    expect(off.length).toBe(s.count + 1);
    expect(new TextDecoder().decode(data.subarray(off[b]!, off[b + 1]!))).toBe('Landstrasse');
  });
});
