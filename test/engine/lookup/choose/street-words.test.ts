/**
 * Unknown streets in a known town (src/engine/lookup/choose/street-words.ts and choose.ts): a street
 * that shares only common words with the query ("Allée", "des") is not its answer; the town
 * is. Misspellings the typo neighbours do not reach (short words) still find their street.
 */
import { describe, expect, it } from 'vitest';
import { emptyBatch } from '../../../../src/data/source-types.ts';
import { exactMatches } from '../../../../src/engine/lookup/match/matches.ts';
import { lookup } from '../../../../src/engine/lookup/index.ts';
import { editDistance, withinOneEdit } from '../../../../src/engine/lookup/normalize/normalize.ts';
import { parseRequest } from '../../../../src/engine/lookup/parse/parse.ts';
import { distinctiveStreetWords } from '../../../../src/engine/lookup/choose/street-words.ts';
import { indexOfBatch } from '../../../helpers/test-index.ts';

/** Made-up names, one street each: "Babaran", "Cobaran", … (15 × 15 of them). */
function names(n: number): string[] {
  const syl = ['ba', 'co', 'di', 'fu', 'ge', 'hi', 'ja', 'ko', 'lu', 'mo', 'ni', 'po', 'ru', 'su', 'to'];
  return Array.from({ length: n }, (_, a) => {
    const w = syl[a % 15]! + syl[Math.floor(a / 15) % 15]! + 'ran';
    return w.charAt(0).toUpperCase() + w.slice(1);
  });
}

/**
 * One town (12345 Villeneuve, FR) of 54 streets: 20 "Allée des …", 30 "Rue des …", 4 others;
 * another (54321 Autreville) of 152 streets the first does not have, and a neighbour (12346
 * Voisin). A word of one or two of the 207 streets is under the 1 % of street documents that
 * makes a word common.
 */
function town() {
  const b = emptyBatch();
  b.places.push({ country: 'FR', name: 'Villeneuve', lat: 45.0, lon: 5.0, population: 9000, type: 'town' });
  b.places.push({ country: 'FR', name: 'Autreville', lat: 47.0, lon: 3.0, population: 2000, type: 'town' });
  b.postcodes.push({ country: 'FR', code: '12345', place: 'Villeneuve', state: '', stateCode: 'FR-ARA', county: '', lat: 45.0, lon: 5.0 });
  b.postcodes.push({ country: 'FR', code: '54321', place: 'Autreville', state: '', stateCode: 'FR-BFC', county: '', lat: 47.0, lon: 3.0 });
  for (const street of ['Allée des Chardonnerets', 'Rue du Vest', ...names(199).slice(49).map((n) => `Rue des ${n}`)]) {
    b.addresses.push({ country: 'FR', street, housenumber: '3', postcode: '54321', city: 'Autreville', district: '', lat: 47.0, lon: 3.0 });
  }
  // a neighbour 5 km away, with a street Villeneuve does not have
  b.places.push({ country: 'FR', name: 'Voisin', lat: 45.045, lon: 5.0, population: 1500, type: 'village' });
  b.postcodes.push({ country: 'FR', code: '12346', place: 'Voisin', state: '', stateCode: 'FR-ARA', county: '', lat: 45.045, lon: 5.0 });
  b.addresses.push({ country: 'FR', street: 'Allée des Mésanges', housenumber: '3', postcode: '12346', city: 'Voisin', district: '', lat: 45.045, lon: 5.0 });
  const streets = [
    'Allée des Bouleaux', ...names(19).map((n) => `Allée des ${n}`), ...names(49).slice(19).map((n) => `Rue des ${n}`),
    "Rue de l'École", "Rue de l'Est", "Rue de l'Église", 'Rue de la Gare',
  ];
  streets.forEach((street, k) => {
    for (let hn = 1; hn <= 5; hn++) {
      b.addresses.push({ country: 'FR', street, housenumber: String(hn), postcode: '12345', city: 'Villeneuve', district: '', lat: 45 + k * 0.001, lon: 5 + hn * 0.0001 });
    }
  });
  return indexOfBatch(b);
}

const idx = town();
const at = (street: string, housenumber = '3') => lookup(idx, { street, housenumber, zip: '12345', city: 'Villeneuve' });

describe('words that tell streets apart', () => {
  it('are the rare words of the street: not "allée", "rue", "des", "de" (each in 1 % of the streets or more), not numbers', () => {
    const q = parseRequest({ street: 'Allée des Chardonnerets 108', zip: '12345', city: 'Villeneuve' });
    const mask = distinctiveStreetWords(idx, q, exactMatches(idx, q)).rare;
    const words = q.tokens.filter((_, i) => (mask >>> i) & 1).map((t) => t.text);
    expect(words).toEqual(['chardonnerets']);
  });
});

describe('an unknown street in a known town', () => {
  it('is answered with the town, not with another street of the same kind', () => {
    const r = at('Allée des Chardonnerets');
    expect(r.matchlevel).toBe('general');
    expect(r).toMatchObject({ zip: '12345', city: 'Villeneuve', street: '' });
    expect(lookup(idx, { address: 'Allée des Chardonnerets 3, 12345 Villeneuve' })).toMatchObject({ matchlevel: 'general', street: '' });
  });
  it('nor with the street of that name in a neighbouring town (free text)', () => {
    const r = lookup(idx, { address: 'Allée des Mésanges 3, 12345 Villeneuve' });
    expect(r).toMatchObject({ matchlevel: 'general', zip: '12345', city: 'Villeneuve', street: '' });
    expect(lookup(idx, { address: 'Allée des Mésanges 3, 12346 Voisin' })).toMatchObject({ matchlevel: 'housenumber', street: 'Allée des Mésanges' });
  });
  it('the street the query names is still found as written, abbreviated or with a typo', () => {
    expect(at('Allée des Bouleaux')).toMatchObject({ matchlevel: 'housenumber', street: 'Allée des Bouleaux' });
    expect(at('Allée des Bouleax')).toMatchObject({ matchlevel: 'housenumber', street: 'Allée des Bouleaux' });
    expect(lookup(idx, { address: 'allee des bouleaux 3, 12345 villeneuve' })).toMatchObject({ matchlevel: 'housenumber', street: 'Allée des Bouleaux' });
  });
  it('a misspelling that is another street\'s word, beyond the typo neighbours (short words), still finds its street', () => {
    // "vest" is a word of Autreville's Rue du Vest: known, rare, and left unexplained by Rue de l'Est
    expect(at("Rue de l'vEst")).toMatchObject({ matchlevel: 'housenumber', street: "Rue de l'Est" });
    expect(at('Rue de lEglise')).toMatchObject({ matchlevel: 'housenumber', street: "Rue de l'Église" });
  });
  it('a word the index does not hold at all is no reason to leave the street ("Hinterhaus"; see candidates-scale.test.ts)', () => {
    const q = parseRequest({ street: 'Allée des Bouleaux Hinterhaus', zip: '12345', city: 'Villeneuve' });
    const mask = distinctiveStreetWords(idx, q, exactMatches(idx, q)).rare;
    expect(q.tokens.filter((_, i) => (mask >>> i) & 1).map((t) => t.text)).toEqual(['bouleaux']);
  });
});

describe('withinOneEdit', () => {
  it('agrees with editDistance(a, b, 1) <= 1 (insertions, deletions, substitutions, swaps)', () => {
    let seed = 7;
    const rnd = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
    const word = () => Array.from({ length: 1 + Math.floor(rnd() * 6) }, () => 'abc'[Math.floor(rnd() * 3)]).join('');
    for (let k = 0; k < 20_000; k++) {
      const a = word();
      const b = rnd() < 0.5 ? word() : a.slice(0, Math.floor(rnd() * a.length)) + 'abc'[Math.floor(rnd() * 3)] + a.slice(Math.floor(rnd() * a.length) + 1);
      expect(withinOneEdit(a, b), `${a} / ${b}`).toBe(editDistance(a, b, 1) <= 1);
    }
  });
});
