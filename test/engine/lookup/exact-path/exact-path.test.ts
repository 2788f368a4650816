/**
 * The exact path's proof (exact-path.ts): whenever it returns a choice from its few documents,
 * that choice is the one scoring every document of the index would give. Checked on a synthetic
 * index small enough to score every document for each query: towns sharing street names (and
 * names of towns), queries as written, with a wrong postcode, with a typo, with an unknown word.
 */
import { describe, expect, it } from 'vitest';
import { emptyBatch } from '../../../../src/data/source-types.ts';
import { exactMatches, typoMatches } from '../../../../src/engine/lookup/match/matches.ts';
import { chooseAmong } from '../../../../src/engine/lookup/choose/choose.ts';
import { exactChoice, oneWordDroppedChoice, outsiderCeiling } from '../../../../src/engine/lookup/exact-path/exact-path.ts';
import { lookup } from '../../../../src/engine/lookup/index.ts';
import { parseRequest } from '../../../../src/engine/lookup/parse/parse.ts';
import type { SearchRequest } from '../../../../src/contract/requests.ts';
import { mulberry32 } from '../../../../tools/prng.ts';
import { indexOfBatch } from '../../../helpers/test-index.ts';

const TOWNS = ['Vaduz', 'Schaan', 'Balzers', 'Triesen', 'Eschen', 'Mauren', 'Vaduz'];
const STREETS = ['Städtle', 'Landstrasse', 'Kirchstrasse', 'Im Bretscha', 'Rue des Lilas', 'Allée des Tilleuls', 'Place Saint-Pierre', 'Rue Saint-Jean'];

function smallIndex() {
  const b = emptyBatch();
  const rnd = mulberry32(3);
  const addresses: SearchRequest[] = [];
  TOWNS.forEach((town, t) => {
    const zip = String(9480 + t * 3);
    const lat = 47.0 + t * 0.05, lon = 9.5 + t * 0.02;
    b.places.push({ country: 'LI', name: town, lat, lon, population: 1000 + t, type: 'town' });
    b.postcodes.push({ country: 'LI', code: zip, place: town, state: '', stateCode: '', county: '', lat, lon });
    // each town has most of the streets, not all: a street of one town is unknown in another
    STREETS.forEach((street, s) => {
      if (rnd() < 0.25) return;
      for (let n = 1; n <= 6; n++) {
        b.addresses.push({ country: 'LI', street, housenumber: String(n), postcode: zip, city: town, district: '', lat: lat + s * 1e-3, lon: lon + n * 1e-4 });
        addresses.push({ street, housenumber: String(n), zip, city: town });
      }
    });
  });
  return { index: indexOfBatch(b), addresses };
}

const { index, addresses } = smallIndex();
const allDocs = Array.from({ length: index.c.docKind.length }, (_, d) => d);

/** The query's matches as the lookup has them after the typo step for words nothing matched. */
function matchesOf(req: SearchRequest) {
  const q = parseRequest(req);
  const matches = exactMatches(index, q);
  q.tokens.forEach((t, i) => {
    if (matches[i]!.length === 0 && t.field !== 'zip' && !t.hnLike && t.text.length >= 4) matches[i] = typoMatches(index, t.text);
  });
  return { q, matches };
}

function variants(): SearchRequest[] {
  const rnd = mulberry32(7);
  const zips = [...new Set(addresses.map((a) => a.zip!))];
  const out: SearchRequest[] = [];
  for (const a of addresses) {
    out.push(a);
    out.push({ ...a, zip: zips[Math.floor(rnd() * zips.length)]! });
    const w = a.street!.split(' ');
    const j = w.findIndex((x) => x.length > 4);
    if (j >= 0) { const x = w[j]!; const p = 1 + Math.floor(rnd() * (x.length - 2)); w[j] = x.slice(0, p) + x.slice(p + 1); }
    out.push({ ...a, street: w.join(' ') });
    out.push({ ...a, street: `${a.street} Nord` });
    out.push({ address: `${a.street} ${a.housenumber}, ${zips[Math.floor(rnd() * zips.length)]} ${a.city}` });
  }
  return out;
}

describe('the exact path', () => {
  it('answers only with what scoring every document would answer', () => {
    let proven = 0, dropped = 0;
    for (const req of variants()) {
      const { q, matches } = matchesOf(req);
      const all = chooseAmong(index, q, matches, allDocs);
      for (const [c, count] of [[exactChoice(index, q, matches), () => proven++], [oneWordDroppedChoice(index, q, matches), () => dropped++]] as const) {
        if (!c) continue;
        count();
        expect(c.best?.doc, JSON.stringify(req)).toBe(all.best?.doc);
        expect(c.best?.addr, JSON.stringify(req)).toBe(all.best?.addr);
        expect(c.ambiguous, JSON.stringify(req)).toBe(all.ambiguous);
      }
    }
    // both paths answer a good share of the queries, or the check above says little
    expect(proven).toBeGreaterThan(addresses.length);
    expect(dropped).toBeGreaterThan(addresses.length);
  });

  it('finds the street of the named town when the postcode is another town\'s', () => {
    const a = addresses.find((x) => x.city === 'Schaan' && x.street === 'Landstrasse') ?? addresses.find((x) => x.city === 'Schaan')!;
    const other = addresses.find((x) => x.city === 'Balzers')!.zip!;
    const req = { ...a, zip: other };
    const { q, matches } = matchesOf(req);
    expect(exactChoice(index, q, matches)).toBeUndefined();
    const c = oneWordDroppedChoice(index, q, matches)!;
    expect(index.str(index.c.docCity[c.best!.doc]!)).toBe('Schaan');
    const r = lookup(index, req);
    expect([r.street, r.housenumber, r.city]).toEqual([a.street, a.housenumber, 'Schaan']);
  });

  it('bounds an outside document by the best quality of each word it lacks', () => {
    // three exact words and the housenumber field: lacking one word, at most 2 + 0.6 + 1.2
    const exact = matchesOf({ street: 'Städtle', housenumber: '1', zip: '9480', city: 'Vaduz' });
    expect(outsiderCeiling(exact.q, exact.matches, [0, 1, 2], 1)).toBeCloseTo(3.8);
    expect(outsiderCeiling(exact.q, exact.matches, [0, 1, 2], 2)).toBeCloseTo(2.8);
    // a word matched only by typo neighbours explains at most 0.3, and lacking it costs only that
    const typo = matchesOf({ street: 'Stdtle', housenumber: '1', zip: '9480', city: 'Vaduz' });
    expect(typo.matches[0]!.every((m) => m.kind === 'typo')).toBe(true);
    expect(outsiderCeiling(typo.q, typo.matches, [0, 1, 2], 1)).toBeCloseTo(2.3 - 0.3 + 1.8);
  });
});
