/**
 * Stage 1: German place names' abbreviated qualifiers written out (place-qualifiers.ts), and what
 * that does to a lookup on the embedded default.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { loadDefaultIndex } from '../../../../src/data/index-file.ts';
import { openIndex, type AddressIndex } from '../../../../src/engine/index/index.ts';
import { lookup } from '../../../../src/engine/lookup/index.ts';
import { expandPlaceQualifiers } from '../../../../src/engine/lookup/normalize/place-qualifiers.ts';

describe('expandPlaceQualifiers', () => {
  it('writes out the dotted qualifiers', () => {
    const x = (s: string) => expandPlaceQualifiers(s).replace(/\s+/g, ' ').trim();
    expect(x('Frankfurt a.M.')).toBe('Frankfurt am Main');
    expect(x('Frankfurt a. M.')).toBe('Frankfurt am Main');
    expect(x('Freiburg i.Br.')).toBe('Freiburg im Breisgau');
    expect(x('Mülheim a.d. Ruhr')).toBe('Mülheim an der Ruhr');
    expect(x('Rothenburg o.d.T.')).toBe('Rothenburg ob der Tauber');
    expect(x('Ludwigshafen a.Rh.')).toBe('Ludwigshafen am Rhein');
    // after a slash, right after the place's word
    expect(x('Frankfurt/M.')).toBe('Frankfurt am Main');
    expect(x('60311 Frankfurt / M')).toBe('60311 Frankfurt am Main');
    expect(x('Frankfurt/O.')).toBe('Frankfurt an der Oder');
    expect(x('Halle/S.')).toBe('Halle an der Saale');
    expect(x('Freiburg/Br.')).toBe('Freiburg im Breisgau');
  });
  it('leaves initials and words alone', () => {
    expect(expandPlaceQualifiers('Via A. Manzoni 3, Milano')).toBe('Via A. Manzoni 3, Milano');
    expect(expandPlaceQualifiers('Am Markt 1, Main')).toBe('Am Markt 1, Main');
    expect(expandPlaceQualifiers('Rue de la Paix')).toBe('Rue de la Paix');
    // a slash after a number is a house number's (`5/M`), a slash before a word names two languages
    expect(expandPlaceQualifiers('Kaiserstr. 5/M, Frankfurt')).toBe('Kaiserstr. 5/M, Frankfurt');
    expect(expandPlaceQualifiers('Biel/Bienne')).toBe('Biel/Bienne');
    expect(expandPlaceQualifiers('Brussel/Bruxelles')).toBe('Brussel/Bruxelles');
    // nor a company's letters (a Danish `A/S`, `I/S`)
    expect(expandPlaceQualifiers('Maersk A/S, Esplanaden 50, 1263 København K')).toBe('Maersk A/S, Esplanaden 50, 1263 København K');
    expect(expandPlaceQualifiers('Hansen I/S')).toBe('Hansen I/S');
  });
});

describe('lookups with an abbreviated qualifier', () => {
  let index: AddressIndex;
  beforeAll(async () => { index = openIndex(await loadDefaultIndex()); }, 600_000);
  it('name the place in full', () => {
    expect(lookup(index, { address: 'Frankfurt a.M.' })).toMatchObject({ city: 'Frankfurt am Main', relevance: '100' }); // was Frankfurt (Oder), 33
    expect(lookup(index, { city: 'Frankfurt a.M.' })).toMatchObject({ city: 'Frankfurt am Main' }); // was no answer
    expect(lookup(index, { address: 'Freiburg i.Br.' })).toMatchObject({ city: 'Freiburg im Breisgau' }); // was Freiburg (Elbe)
    expect(lookup(index, { address: 'Frankfurt/M.' })).toMatchObject({ city: 'Frankfurt am Main', relevance: '100' }); // was Frankfurt (Oder), 50
    expect(lookup(index, { address: 'Frankfurt/O.' })).toMatchObject({ city: 'Frankfurt (Oder)', relevance: '100' }); // was Frankfurt am Main, 90
    expect(lookup(index, { address: 'Halle/S.' })).toMatchObject({ city: 'Halle', country_iso_2: 'DE' }); // was Hall's Tenement, GB
  });
});

describe('a qualifier in round brackets that nothing explains', () => {
  let index: AddressIndex;
  beforeAll(async () => { index = openIndex(await loadDefaultIndex()); }, 600_000);
  it('does not turn an answer into none (index.ts withoutBrackets)', () => {
    expect(lookup(index, { address: 'Halle (Saale)' })).toMatchObject({ city: 'Halle', country_iso_2: 'DE' }); // was no answer
    expect(lookup(index, { address: 'Frankfurt (Oder)' })).toMatchObject({ city: 'Frankfurt (Oder)', relevance: '100' }); // named so: as before
    expect(lookup(index, { address: 'Foo (Bar)' }).country_iso_2).toBe(''); // nothing without them either
    // in the city field too (were no answer: the layer does not know these states' names so)
    expect(lookup(index, { city: 'Cēsis (Cēsu nov.)' })).toMatchObject({ city: 'Cēsis', country_iso_2: 'LV' });
    expect(lookup(index, { city: 'Fredericia (Region Syddanmark)' })).toMatchObject({ city: 'Fredericia', country_iso_2: 'DK' });
    expect(lookup(index, { city: 'Foo (Bar)' }).country_iso_2).toBe('');
  });
});
