/**
 * Stage 8 on an index that holds no street (src/engine/lookup/search/named-place-retry.ts), on the
 * embedded default (assets/default-layer, no ../shared needed): the named place is the answer, and
 * the typo retry asks it which words it leaves unexplained. An index with streets keeps the broad
 * search. The default index is built on first use into .cache (about a minute), then read from there.
 */
import { describe, expect, it } from 'vitest';
import { defaultIndex as index, loadDefaultIndexBeforeAll } from '../../../helpers/default-index.ts';
import type { SearchRequest } from '../../../../src/contract/requests.ts';
import { emptyBatch } from '../../../../src/data/source-types.ts';
import { lookup } from '../../../../src/engine/lookup/index.ts';
import { exactMatches } from '../../../../src/engine/lookup/match/matches.ts';
import { parseRequest } from '../../../../src/engine/lookup/parse/parse.ts';
import { namedPlaceWithTypoRetry } from '../../../../src/engine/lookup/search/named-place-retry.ts';
import { indexOfBatch } from '../../../helpers/test-index.ts';

loadDefaultIndexBeforeAll();

describe('an index that holds no street', () => {
  it('is told apart from one that holds streets', () => {
    expect(index.holdsStreets).toBe(false);
    const b = emptyBatch();
    b.places.push({ country: 'LI', name: 'Vaduz', lat: 47.141, lon: 9.521, population: 5000, type: 'town' });
    expect(indexOfBatch(b).holdsStreets).toBe(false);
    b.addresses.push({ country: 'LI', street: 'Städtle', housenumber: '1', postcode: '9490', city: 'Vaduz', district: '', lat: 47.141, lon: 9.521 });
    expect(indexOfBatch(b).holdsStreets).toBe(true);
  });

  it('answers a street it does not hold with the place the query names', () => {
    const r = lookup(index, { street: 'Rue de Rivoli', housenumber: '10', city: 'Paris', country: 'FRA' });
    expect(r).toMatchObject({ city: 'Paris', country_iso_2: 'FR', matchlevel: 'general', street: '' });
  });

  it('looks up no typo neighbour of the street field, which names no place here', () => {
    // `rivoli`, which the answer leaves unexplained, had five typo neighbours looked up and never used
    const q = parseRequest({ street: 'Rue de Rivoli', housenumber: '10', city: 'Paris', country: 'FRA' });
    const matches = exactMatches(index, q);
    const street = q.tokens.flatMap((t, i) => (t.field === 'street' ? [i] : []));
    expect(street.map((i) => q.tokens[i]!.text)).toContain('rivoli');
    const before = street.map((i) => matches[i]!.length);
    expect(namedPlaceWithTypoRetry(index, q, matches).best).toBeDefined();
    expect(street.map((i) => matches[i]!.length)).toEqual(before);
    // a misspelt city field still gets them
    const q2 = parseRequest({ street: 'Rue de Rivoli', housenumber: '10', city: 'Pariss', country: 'FRA' });
    const m2 = exactMatches(index, q2);
    const city = q2.tokens.findIndex((t) => t.field === 'city');
    namedPlaceWithTypoRetry(index, q2, m2);
    expect(m2[city]!.some((m) => m.kind === 'typo')).toBe(true);
  });

  // misspelt towns the postcode or the city field decides (tools/lookup-typo-ab.ts found them)
  const TYPOS: [SearchRequest, { city: string; country_iso_2: string; zip?: string }][] = [
    // `wein` is a word the index holds, but the place it names does not agree with 1010
    [{ city: 'Wein', zip: '1010' }, { city: 'Wien', country_iso_2: 'AT', zip: '1010' }],
    [{ street: 'Carl Jacobsens Vej', housenumber: '6B', city: 'Valy', zip: '2500' }, { city: 'Valby', country_iso_2: 'DK', zip: '2500' }],
    [{ street: 'Rue Saint-Louis', housenumber: '56', city: 'Hayes', zip: '08170' }, { city: 'Haybes', country_iso_2: 'FR', zip: '08170' }],
    [{ street: 'Dronning Olgas Vej', housenumber: '57A', city: 'Fredriksberg', zip: '2000' }, { city: 'Frederiksberg', country_iso_2: 'DK', zip: '2000' }],
    // a place named by part of the city field (Fredriksberg, SE) leaves the rest unexplained
    [{ street: 'Bilel Braehs Vej', housenumber: '4', city: 'Fredriksberg C', zip: '1963' }, { city: 'Frederiksberg C', country_iso_2: 'DK', zip: '1963' }],
    [{ city: 'Fredriksberg C' }, { city: 'Frederiksberg C', country_iso_2: 'DK' }],
    [{ street: 'Rue Faidherbe', housenumber: '25', city: 'Sint-Céré' }, { city: 'Saint-Céré', country_iso_2: 'FR' }],
  ];
  it.each(TYPOS)('finds the town a misspelling means: %j', (q, want) => {
    expect(lookup(index, q)).toMatchObject({ ...want, matchlevel: 'general' });
  });

  it('takes a word of free text that names a place for no misspelling', () => {
    // Roma, by another of its names, as `Rome` alone: no typo neighbour makes it a name in full
    const r = lookup(index, { address: 'Rome, Lazio' });
    expect(r).toMatchObject({ city: 'Roma', country_iso_2: 'IT', state_code: 'IT-62' });
    expect(Number(r.relevance)).toBeLessThan(100);
  });
});
