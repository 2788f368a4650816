/**
 * The named-place fallback's structures: the per-lookup table of place documents, the place
 * documents of a token (a view of its postings' tail, or a scan), and the per-thread cache of
 * names as token ids, each against the plain computation it replaces.
 */
import { describe, expect, it } from 'vitest';
import { emptyBatch } from '../../../../src/data/source-types.ts';
import type { AddressIndex } from '../../../../src/engine/index/index.ts';
import { NameWords } from '../../../../src/engine/lookup/named-place/name-words.ts';
import { foldTokens } from '../../../../src/engine/lookup/normalize/normalize.ts';
import { PlaceEntries } from '../../../../src/engine/lookup/named-place/place-entries.ts';
import { SCAN_LIMIT, placeDocs } from '../../../../src/engine/lookup/named-place/place-docs.ts';
import { mulberry32 } from '../../../../eval/support/prng.ts';
import { indexOfBatch } from '../../../helpers/test-index.ts';

/** What placeDocs replaced: the non-street documents among the first SCAN_LIMIT postings. */
function scanPlaceDocs(kind: Uint8Array, p: Uint32Array): number[] {
  const out: number[] = [];
  for (let i = 0; i < Math.min(p.length, SCAN_LIMIT); i++) if (kind[p[i]!] !== 0) out.push(p[i]!);
  return out;
}

/** An index stand-in with only what placeDocs reads. */
function fakeIndex(kind: Uint8Array, lists: Uint32Array[]): AddressIndex {
  return { c: { docKind: kind }, postings: (t: number) => lists[t]! } as unknown as AddressIndex;
}

function sortedSample(rnd: () => number, n: number, max: number): Uint32Array {
  return Uint32Array.from(new Set(Array.from({ length: n }, () => Math.floor(rnd() * max)))).sort();
}

describe('PlaceEntries (the per-lookup table of place documents)', () => {
  it('keeps per document its token mask, quality sum and exact flag, in first-seen order, through growth and clearing', () => {
    const t = new PlaceEntries();
    const rnd = mulberry32(5);
    for (let round = 0; round < 3; round++) {
      const ref = new Map<number, { tokens: number; quality: number; exact: number }>();
      for (let i = 0; i < 20_000; i++) {
        const d = Math.floor(rnd() * 3_000_000), bit = 1 << Math.floor(rnd() * 24), q = rnd();
        let e = t.find(d);
        if (e < 0) e = t.add(d);
        let r = ref.get(d);
        if (!r) ref.set(d, (r = { tokens: 0, quality: 0, exact: 0 }));
        if (q > 0.5) { t.exact[e] = 1; r.exact = 1; }
        if ((t.tokens[e]! & bit) === 0) { t.tokens[e]! |= bit; t.quality[e]! += q; r.tokens |= bit; r.quality += q; }
      }
      expect(t.size).toBe(ref.size);
      expect([...t.doc.subarray(0, t.size)]).toEqual([...ref.keys()]);
      for (const [d, r] of ref) {
        const e = t.find(d);
        expect([t.tokens[e], t.quality[e], t.exact[e]]).toEqual([r.tokens >>> 0, r.quality, r.exact]);
      }
      t.clear();
      expect(t.size).toBe(0);
      for (const d of ref.keys()) expect(t.find(d)).toBe(-1);
    }
    // a broad lookup's large table is let go
    for (let d = 0; d < 200_000; d++) t.add(d * 7);
    t.clear();
    expect(t.doc.length).toBeLessThanOrEqual(2048);
    expect(t.find(7)).toBe(-1);
  });
});

describe('placeDocs (the place and postcode documents of a token)', () => {
  const rnd = mulberry32(8);

  it('streets first: the tail of the postings, as a scan finds it, also past SCAN_LIMIT', () => {
    const docs = 1_000_000, firstPlace = 900_000;
    const kind = new Uint8Array(docs);
    kind.fill(1, firstPlace, 950_000);
    kind.fill(2, 950_000);
    const lists = [
      sortedSample(rnd, 2000, docs), sortedSample(rnd, 50, firstPlace), sortedSample(rnd, 50, docs).map((d) => Math.max(d, firstPlace)),
      Uint32Array.from({ length: 300_000 }, (_, i) => i * 3), new Uint32Array(0), Uint32Array.from([firstPlace - 1, firstPlace]),
    ].map((l) => Uint32Array.from(new Set(l)).sort());
    const index = fakeIndex(kind, lists);
    lists.forEach((p, t) => expect([...placeDocs(index, t)]).toEqual(scanPlaceDocs(kind, p)));
  });

  it('any other layout: scanned, the same documents', () => {
    const kind = Uint8Array.from({ length: 100_000 }, () => (rnd() < 0.2 ? 1 + Math.floor(rnd() * 2) : 0));
    const lists = Array.from({ length: 20 }, () => sortedSample(rnd, 3000, kind.length));
    const index = fakeIndex(kind, lists);
    for (let round = 0; round < 2; round++) lists.forEach((p, t) => expect([...placeDocs(index, t)]).toEqual(scanPlaceDocs(kind, p)));
  });
});

describe('NameWords (names as token ids)', () => {
  const b = emptyBatch();
  const names = ['Saint-Paul-de-Vence', 'La Bâtie-Neuve', 'Krems an der Donau', 'Ærøskøbing', 'Saint-Paul'];
  names.forEach((name, i) => {
    b.places.push({ country: 'FR', name, lat: 44 + i, lon: 6, population: 100, type: 'village' });
    b.postcodes.push({ country: 'FR', code: `0523${i}`, place: name, state: '', stateCode: '', county: '', lat: 44 + i, lon: 6 });
  });
  const index = indexOfBatch(b);
  const text = (w: NameWords, slot: number) => Array.from({ length: w.count(slot) }, (_, k) => index.tokenText(w.words[w.start(slot) + k]!));

  it('gives every place and postcode document its folded name, word by word, and the first word\'s length', () => {
    const w = new NameWords(index);
    let seen = 0;
    for (let d = 0; d < index.docCount; d++) {
      if (index.c.docKind[d] === 0) continue;
      const want = foldTokens(index.str(index.c.docCity[d]!));
      for (let again = 0; again < 2; again++) {
        const slot = w.slot(d);
        expect(slot).toBeGreaterThanOrEqual(0);
        expect(text(w, slot)).toEqual(want);
        expect(w.firstLength(slot)).toBe(want[0]?.length ?? 0);
      }
      seen++;
    }
    expect(seen).toBeGreaterThanOrEqual(names.length * 2);
  });

  it('stays right when it fills and empties, and leaves a name with a word that is no token to the caller', () => {
    const words = ['saint', 'paul', 'vence'];
    const fake = {
      c: { docCity: Uint32Array.from({ length: 200_000 }, (_, d) => 1 + (d % 4)) },
      str: (id: number) => ['', 'Saint-Paul', 'Vence', 'Saint Inconnu', ''][id]!,
      tokenId: (s: string) => words.indexOf(s),
    } as unknown as AddressIndex;
    // (room for about 20,000 names: the table empties and fills again many times)
    const w = new NameWords(fake, 50_000);
    const wrong: number[] = [];
    for (let round = 0; round < 2; round++) {
      for (let d = 0; d < 200_000; d++) {
        const slot = w.slot(d);
        const want = [[0, 1], [2], undefined, []][d % 4];
        const got = slot < 0 ? undefined : Array.from({ length: w.count(slot) }, (_, k) => w.words[w.start(slot) + k]!);
        if (String(got) !== String(want) || (got === undefined) !== (want === undefined)) wrong.push(d);
      }
    }
    expect(wrong).toEqual([]);
  });
});
