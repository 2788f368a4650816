/** The build stage place documents: names as city tokens, rank from population and type, the place's own postcode. */
import { describe, expect, it } from 'vitest';
import { AdminIndex } from '../../../../src/data/build/admin-index.ts';
import { StringInterner } from '../../../../src/data/build/interner.ts';
import { Documents } from '../../../../src/data/build/stages/documents.ts';
import { placeDocuments } from '../../../../src/data/build/stages/place-documents.ts';
import { StringKeys } from '../../../../src/data/build/string-keys.ts';
import { DOC_PLACE } from '../../../../src/engine/index/format.ts';
import { place, postcodeEntry, recorder } from './rows.ts';

describe('place documents', () => {
  it('writes a document per place with a country: tokens of all its names, its rank, names and nearest same-name postcode', () => {
    const S = new StringInterner();
    const postcodes = [postcodeEntry({ code: '9490', place: 'VADUZ' }), postcodeEntry({ code: '9494', place: 'Schaan', lat: 47.165, lon: 9.51 })];
    const docs = new Documents(S, new StringKeys(S), new AdminIndex([], postcodes));
    const places = [
      place({ altNames: ['Faduz'], names: { rm: 'Vaduz Cità' }, population: 5700 }),
      place({ name: 'Ebenholz', type: 'suburb', population: 0, lat: 47.15, lon: 9.53 }),
      place({ name: 'Nowhere', country: '' }),
    ];
    const pr = recorder();
    placeDocuments(docs, places, postcodes, 12, pr);
    expect(pr.phases).toEqual(['place documents']);
    const { D, T } = docs;
    expect(D.count).toBe(2);
    expect([...D.kind.view()]).toEqual([DOC_PLACE, DOC_PLACE]);
    expect([S.str(D.name.a[0]!), S.str(D.city.a[0]!), S.str(D.country.a[0]!)]).toEqual(['Vaduz', 'Vaduz', 'LI']);
    expect([D.rank.a[0], D.rank.a[1]]).toEqual([10_000, 500]); // a town ranks at least 10,000, a suburb 500
    expect(S.str(D.names.a[0]!)).toBe('rm\u001fVaduz Cità');
    expect(D.names.a[1]).toBe(0);
    expect([S.str(D.postcode.a[0]!), D.postcode.a[1]]).toEqual(['9490', 0]);
    expect([D.addrStart.a[0], D.addrCount.a[0]]).toEqual([12, 0]);
    const words: string[] = [];
    for (let p = D.tokStart.a[0]!; p < D.tokStart.a[0]! + D.tokCount.a[0]!; p++) words.push(S.str(T.str.a[T.docTok.a[p]!]!));
    expect(words).toEqual(['vaduz', 'faduz', 'cita']);
  });
});

describe('place documents: importance', () => {
  it('weighs a seat of government: a capital ten times its population, a first-level seat three times, a second-level one and a half', () => {
    const S = new StringInterner();
    const docs = new Documents(S, new StringKeys(S), new AdminIndex([], []));
    const places = [
      place({ name: 'Lefkosia', country: 'CY', population: 200_000, seat: 1 }),
      place({ name: 'Graz', country: 'AT', population: 290_000, seat: 2 }),
      place({ name: 'Heidelberg', country: 'DE', population: 160_000, seat: 3 }),
      place({ name: 'Nicosia', country: 'IT', population: 14_000 }),
      place({ name: 'Hamlet', country: 'IT', type: 'village', population: 40, seat: 1 }),
    ];
    placeDocuments(docs, places, [], 0, recorder());
    // the capital's seat weighs its population, at least its type's rank (a village: 1,000)
    expect([...docs.D.rank.view()]).toEqual([2_000_000, 870_000, 240_000, 14_000, 10_000]);
  });
});
