/**
 * The candidate stage's structures at national size: a per-lookup table of documents (sized by
 * the candidates, not the index), the query-token masks read from a document's own token list,
 * galloping intersections of postings, and a document that holds a word in two roles.
 */
import { describe, expect, it } from 'vitest';
import { emptyBatch } from '../../../../src/data/source-types.ts';
import { DocBits } from '../../../../src/engine/lookup/candidates/doc-bits.ts';
import { lookup } from '../../../../src/engine/lookup/index.ts';
import { popcount, QueryBits } from '../../../../src/engine/lookup/match/query-bits.ts';
import { gallop, intersectSorted, keepHeld, shareAny } from '../../../../src/engine/lookup/candidates/sorted-lists.ts';
import { exactMatches } from '../../../../src/engine/lookup/match/matches.ts';
import { parseRequest } from '../../../../src/engine/lookup/parse/parse.ts';
import { mulberry32 } from '../../../../tools/prng.ts';
import { indexOfBatch } from '../../../helpers/test-index.ts';

describe('DocBits (the per-lookup candidate table)', () => {
  it('ORs bits per document, keeps first-seen order, grows and empties', () => {
    const t = new DocBits(8);
    const rnd = mulberry32(3);
    const ref = new Map<number, number>();
    for (let i = 0; i < 5000; i++) {
      const d = Math.floor(rnd() * 3_000_000), bit = 1 << Math.floor(rnd() * 24);
      t.or(d, bit);
      ref.set(d, (ref.get(d) ?? 0) | bit);
    }
    expect(t.size).toBe(ref.size);
    expect([...t.docs.subarray(0, t.size)]).toEqual([...ref.keys()]);
    for (const [d, b] of ref) expect(t.get(d)).toBe(b);
    t.clear();
    expect(t.size).toBe(0);
    for (const d of ref.keys()) expect(t.get(d)).toBe(0);
    t.or(7, 2);
    expect(t.get(7)).toBe(2);
  });

  it('holds no structure proportional to the index: its memory follows one lookup\'s candidates', () => {
    const t = new DocBits();
    for (let d = 0; d < 100; d++) t.or(d * 1_000_003, 1);
    t.clear();
    // a very broad lookup grows it; clearing lets the large table go
    for (let d = 0; d < 400_000; d++) t.or(d * 7, 1);
    t.clear();
    for (let d = 0; d < 10; d++) t.or(d, 1);
    expect(t.docs.length).toBeLessThanOrEqual(4096);
  });
});

describe('sorted postings', () => {
  it('gallop finds the first position not below a value', () => {
    const p = Uint32Array.from([1, 3, 3, 8, 20, 21, 100]);
    expect(gallop(p, 0, 0)).toBe(0);
    expect(gallop(p, 0, 3)).toBe(1);
    expect(gallop(p, 2, 9)).toBe(4);
    expect(gallop(p, 0, 101)).toBe(7);
  });

  it('keepHeld equals a set intersection with the union of the lists', () => {
    const rnd = mulberry32(9);
    const sorted = (n: number, max: number) => Uint32Array.from(new Set(Array.from({ length: n }, () => Math.floor(rnd() * max)))).sort();
    for (let k = 0; k < 20; k++) {
      const docs = [...sorted(50, 10_000)];
      const lists = [sorted(3000, 10_000), sorted(200, 10_000)];
      const want = docs.filter((d) => lists.some((l) => l.includes(d)));
      expect(keepHeld(docs, lists)).toEqual(want);
    }
  });

  it('intersectSorted equals a set intersection (shareAny: a non-empty one), for scattered lists and for runs', () => {
    const rnd = mulberry32(13);
    const sorted = (n: number, max: number) => Uint32Array.from(new Set(Array.from({ length: n }, () => Math.floor(rnd() * max)))).sort();
    // runs of neighbouring documents (a town's streets) against scattered postings
    const runs = (k: number, len: number, max: number) => Uint32Array.from(new Set(Array.from({ length: k }, () => Math.floor(rnd() * max)).flatMap((s) => Array.from({ length: len }, (_, i) => s + i)))).sort();
    for (let k = 0; k < 20; k++) {
      for (const [a, b] of [[sorted(500, 20_000), sorted(4000, 20_000)], [runs(20, 30, 50_000), sorted(3000, 50_000)], [sorted(0, 10), sorted(10, 10)]] as const) {
        const want = [...a].filter((d) => b.includes(d));
        expect(intersectSorted(a, b)).toEqual(want);
        expect(intersectSorted(b, a)).toEqual(want);
        expect(intersectSorted([...a], b)).toEqual(want);
        expect(shareAny(a, b)).toBe(want.length > 0);
      }
    }
  });

  it('popcount counts the bits of 32-bit masks', () => {
    expect(popcount(0)).toBe(0);
    expect(popcount(0xffffffff)).toBe(32);
    expect(popcount((1 << 31) >>> 0 | 5)).toBe(3);
  });
});

describe('a word in two roles of one document', () => {
  const b = emptyBatch();
  b.places.push({ country: 'FR', name: 'La Bâtie-Neuve', lat: 44.56, lon: 6.19, population: 2500, type: 'village' });
  b.postcodes.push({ country: 'FR', code: '05230', place: 'La Bâtie-Neuve', state: "Provence-Alpes-Côte d'Azur", stateCode: '93', county: 'Hautes-Alpes', lat: 44.56, lon: 6.19 });
  for (const hn of ['50', '52', '54']) {
    b.addresses.push({ country: 'FR', street: 'Rue de la Luye', housenumber: hn, postcode: '05230', city: 'La Bâtie-Neuve', district: '', lat: 44.5666, lon: 6.1966 });
  }
  const index = indexOfBatch(b);
  const req = { street: 'Rue de la Luye', housenumber: '52', zip: '05230', city: 'La Bâtie-Neuve' };

  it('keeps the word once per role, and the document once in its postings', () => {
    const q = parseRequest(req);
    const m = exactMatches(index, q);
    const la = m[q.tokens.findIndex((t) => t.text === 'la' && t.field === 'street')]![0]!.tok;
    const p = index.postings(la);
    expect(new Set(p).size).toBe(p.length);
    const bits = new QueryBits(m);
    const street = [...p].find((d) => index.c.docKind[d] === 0)!;
    const s = index.c.docTokStart[street]!, n = index.c.docTokCount[street]!;
    const roles = [];
    for (let j = s; j < s + n; j++) if (index.c.docTok[j] === la) roles.push(index.c.docTokRole[j]);
    expect(roles.sort()).toEqual([0, 1]);
    // every query token is in the street's document
    expect(popcount(bits.inDoc(index, street))).toBe(q.tokens.length);
  });

  it('explains both, so the exact address scores as exact', () => {
    const r = lookup(index, req);
    expect(r.matchlevel).toBe('housenumber');
    expect(r.housenumber).toBe('52');
    expect(Number(r.relevance)).toBeGreaterThanOrEqual(95);
  });
});
