import { describe, expect, it } from 'vitest';
import { IndexBuilder } from '../../../src/data/index-builder.ts';
import { emptyBatch } from '../../../src/data/source-types.ts';
import { openIndex, IndexFormatError } from '../../../src/engine/index/index.ts';
import { lookup } from '../../../src/engine/lookup/index.ts';
import { houseNumberKey, foldText } from '../../../src/engine/lookup/normalize/normalize.ts';
import { intersectDocs } from '../../../src/engine/lookup/candidates/holding-all.ts';
import { exactMatches } from '../../../src/engine/lookup/match/matches.ts';
import { parseRequest } from '../../../src/engine/lookup/parse/parse.ts';
import { SEARCH_RECORD_KEYS } from '../../../src/contract/records.ts';
import { indexOfBatch } from '../../helpers/test-index.ts';

/** A tiny synthetic index: two towns, streets with geometry, a postcode table. */
function tinyIndex() {
  const b = emptyBatch();
  b.places.push(
    { country: 'LI', name: 'Vaduz', lat: 47.141, lon: 9.521, population: 5000, type: 'town', names: { fr: 'Vaduz-FR' } },
    { country: 'LI', name: 'Schaan', lat: 47.165, lon: 9.509, population: 6000, type: 'town' },
  );
  b.postcodes.push(
    { country: 'LI', code: '9490', place: 'Vaduz', state: 'Vaduz', stateCode: '', county: 'Oberland', lat: 47.141, lon: 9.521 },
    { country: 'LI', code: '9494', place: 'Schaan', state: 'Schaan', stateCode: '', county: 'Oberland', lat: 47.165, lon: 9.509 },
  );
  const add = (street: string, hn: string, postcode: string, city: string, lat: number, lon: number) =>
    b.addresses.push({ country: 'LI', street, housenumber: hn, postcode, city, district: '', lat, lon });
  add('Städtle', '1', '9490', 'Vaduz', 47.1410, 9.5210);
  add('Städtle', '2a', '9490', 'Vaduz', 47.1412, 9.5211);
  add('Landstrasse', '10', '9494', 'Schaan', 47.1650, 9.5090);
  add('Landstrasse', '12', '9490', 'Vaduz', 47.1400, 9.5200);
  add('H.C. Wirth Weg', '25', '9494', 'Schaan', 47.1660, 9.5100);
  b.lines.push({ name: 'Städtle', coords: Float64Array.from([9.5200, 47.1408, 9.5220, 47.1408]) });
  return indexOfBatch(b);
}

const idx = tinyIndex();

describe('normalisation', () => {
  it('folds case, accents and special letters', () => {
    expect(foldText('Städtle  H.C. Ørsteds Vej, Straße')).toBe('stadtle h c orsteds vej strasse');
  });
  it('gives one key for house-number variants', () => {
    for (const v of ['2a', '2 a', '2/a', '2-a', '2A']) expect(houseNumberKey(v)).toBe('2a');
    expect(houseNumberKey('1 bis')).toBe('1bis');
    expect(houseNumberKey('168-170')).toBe('168-170');
  });
});

describe('lookup on a synthetic index', () => {
  it('answers a structured address at house-number level with a navigation point on the street', () => {
    const r = lookup(idx, { street: 'Städtle', housenumber: '1', zip: '9490', city: 'Vaduz' });
    expect(r.matchlevel).toBe('housenumber');
    expect(r.housenumber).toBe('1');
    expect(r.relevance).toBe('100');
    expect(r.latitude).toBe('47.141');
    expect(r.navigation_latitude).toBe('47.1408');
    expect(r.navigation_longitude).toBe('9.521');
    expect(r.country_iso_3).toBe('LIE');
  });
  it('is order-independent for free text', () => {
    const a = lookup(idx, { address: 'Städtle 1, 9490 Vaduz' });
    const b = lookup(idx, { address: 'Vaduz 9490 1 Städtle' });
    expect(a).toEqual(b);
    expect(a.matchlevel).toBe('housenumber');
  });
  it('keeps a street initial after a leading house number with the street ("25 H.C. …")', () => {
    for (const address of ['25 H.C. Wirth Weg Schaan 9494', '25 H. C. Wirth Weg, 9494 Schaan', 'H.C. Wirth Weg 25, 9494 Schaan']) {
      const r = lookup(idx, { address });
      expect(r.matchlevel, address).toBe('housenumber');
      expect(r.housenumber, address).toBe('25');
      expect(r.street, address).toBe('H.C. Wirth Weg');
      expect(r.relevance, address).toBe('100');
    }
  });
  it('the exact path intersects the postings of every non-number word', () => {
    const q = parseRequest({ address: 'Landstrasse 12, 9490 Vaduz' });
    const docs = intersectDocs(idx, q, exactMatches(idx, q))!;
    expect(docs.map((d) => `${idx.str(idx.c.docName[d]!)}|${idx.str(idx.c.docCity[d]!)}`)).toEqual(['Landstrasse|Vaduz']);
    const unknown = parseRequest({ address: 'Landstrasse 12 Nowhere' });
    expect(intersectDocs(idx, unknown, exactMatches(idx, unknown))).toBeNull();
    // the same street in two towns: both are candidates, the postcode then decides
    const both = parseRequest({ address: 'Landstrasse 10' });
    expect(intersectDocs(idx, both, exactMatches(idx, both))).toHaveLength(2);
    expect(lookup(idx, { address: 'Landstrasse 10' }).city).toBe('Schaan');
  });
  it('accepts house-number variants and abbreviations, with a lower relevance for the expansion', () => {
    for (const hn of ['2 a', '2/a', '2-a']) expect(lookup(idx, { address: `Städtle ${hn} Vaduz` }).housenumber).toBe('2a');
    const r = lookup(idx, { street: 'Landstr.', housenumber: '10', city: 'Schaan' });
    expect(r.matchlevel).toBe('housenumber');
    expect(Number(r.relevance)).toBeLessThan(100);
  });
  it('tolerates one typo only through the fallback, lowering relevance', () => {
    const r = lookup(idx, { street: 'Landstrase', housenumber: '10', city: 'Schaan' });
    expect(r.matchlevel).toBe('housenumber');
    expect(r.city).toBe('Schaan');
    expect(Number(r.relevance)).toBeLessThan(90);
  });
  it('never answers a street outside a valid postcode that agrees with the city', () => {
    // Landstrasse 10 exists only in 9494 Schaan; 9490 + Vaduz agree, Landstrasse 12 is in 9490
    const r = lookup(idx, { street: 'Landstrasse', housenumber: '10', zip: '9490', city: 'Vaduz' });
    expect(r.zip).toBe('9490');
    expect(r.city).toBe('Vaduz');
    expect(r.housenumber).toBe('');
  });
  it('a city agrees with a postcode only with all its words: "København V" does not agree with a København K code', () => {
    const b = emptyBatch();
    b.places.push(
      { country: 'DK', name: 'København V', lat: 55.67, lon: 12.55, population: 50000, type: 'suburb' },
      { country: 'DK', name: 'København K', lat: 55.68, lon: 12.58, population: 30000, type: 'suburb' },
    );
    b.postcodes.push(
      { country: 'DK', code: '1620', place: 'København V', state: '', stateCode: '', county: '', lat: 55.67, lon: 12.55 },
      { country: 'DK', code: '1050', place: 'København K', state: '', stateCode: '', county: '', lat: 55.68, lon: 12.58 },
    );
    b.addresses.push({ country: 'DK', street: 'Vesterbrogade', housenumber: '12', postcode: '1620', city: 'København V', district: '', lat: 55.6731, lon: 12.5568 });
    b.addresses.push({ country: 'DK', street: 'Kongens Nytorv', housenumber: '2', postcode: '1050', city: 'København K', district: '', lat: 55.6802, lon: 12.5857 });
    const dk = indexOfBatch(b);
    // The wrong code belongs to another district: the street is answered, the disagreement costs relevance.
    const r = lookup(dk, { street: 'Vesterbrogade', housenumber: '12', zip: '1050', city: 'København V' });
    expect(r).toMatchObject({ matchlevel: 'housenumber', street: 'Vesterbrogade', housenumber: '12', zip: '1620' });
    expect(Number(r.relevance)).toBeLessThan(90);
    // The code and the whole city agree: no street outside the code is answered.
    const k = lookup(dk, { street: 'Vesterbrogade', housenumber: '12', zip: '1050', city: 'København K' });
    expect(k.zip).toBe('1050');
    expect(k.housenumber).toBe('');
  });
  it('takes floor/apartment tokens into additional_data and honours locale for names', () => {
    const r = lookup(idx, { address: 'Städtle 1 Top 3, Vaduz' });
    expect(r.additional_data).toBe('Top 3');
    expect(r.housenumber).toBe('1');
    expect(lookup(idx, { city: 'Vaduz', locale: 'fr' }).city).toBe('Vaduz-FR');
    expect(lookup(idx, { city: 'Vaduz', locale: 'de' }).country).toBe('Liechtenstein');
  });
});

describe('bad input never throws and gives a valid, low-relevance record', () => {
  const cases: [string, Record<string, string>][] = [
    ['empty', {}],
    ['empty address', { address: '' }],
    ['255-char garbage', { address: 'qz'.repeat(127) + 'x' }],
    ['255 chars of punctuation', { address: '#,;.-'.repeat(51) }],
    ['mixed scripts', { address: 'Мοсквa 東京 ١٢٣ 🏠 Ωmega' }],
    ['only a country', { country: 'LI' }],
    ['only a country in free text', { address: 'Liechtenstein' }],
    ['lone surrogate', { address: 'Vad\ud800uz' }],
  ];
  for (const [name, req] of cases) {
    it(name, () => {
      const r = lookup(idx, req);
      expect(Object.keys(r)).toEqual([...SEARCH_RECORD_KEYS]);
      for (const k of SEARCH_RECORD_KEYS) expect(typeof r[k]).toBe('string');
      expect(Number(r.relevance)).toBeLessThanOrEqual(20);
      expect(r.housenumber).toBe('');
      expect(r.street).toBe('');
    });
  }
  it('only a country fills the country keys', () => {
    const r = lookup(idx, { country: 'LIE' });
    expect(r.country_iso_2).toBe('LI');
    expect(r.matchlevel).toBe('general');
  });
});

describe('index format', () => {
  it('rejects a buffer with a wrong magic or version', () => {
    expect(() => openIndex(new ArrayBuffer(64))).toThrow(IndexFormatError);
    const bytes = new Uint8Array(tinyIndexBytes());
    new DataView(bytes.buffer).setUint32(8, 999, true);
    expect(() => openIndex(bytes.buffer)).toThrow(/version/);
  });
  it('opens views over a SharedArrayBuffer without copying', () => {
    const src = tinyIndexBytes();
    const sab = new SharedArrayBuffer(src.length);
    new Uint8Array(sab).set(src);
    const i = openIndex(sab);
    expect(i.c.docKind.buffer).toBe(sab);
    expect(lookup(i, { address: 'Städtle 1 Vaduz' }).housenumber).toBe('1');
  });
});

function tinyIndexBytes(): Uint8Array {
  const b = emptyBatch();
  b.places.push({ country: 'LI', name: 'Vaduz', lat: 47.141, lon: 9.521, population: 5000, type: 'town' });
  b.addresses.push({ country: 'LI', street: 'Städtle', housenumber: '1', postcode: '9490', city: 'Vaduz', district: '', lat: 47.141, lon: 9.521 });
  const ib = new IndexBuilder();
  ib.add(b, 'test');
  return ib.build();
}

describe('a wrong postcode far away, the city field naming the street\'s city', () => {
  // GeoNames puts 0999 København C at Skagen; the street's own city is the one named
  const b = emptyBatch();
  b.places.push({ country: 'DK', name: 'Frederiksberg', lat: 55.678, lon: 12.533, population: 100000, type: 'city' });
  b.postcodes.push(
    { country: 'DK', code: '0999', place: 'København C', state: '', stateCode: 'DK-84', county: '', lat: 57.72, lon: 10.58 },
    { country: 'DK', code: '2000', place: 'Frederiksberg', state: '', stateCode: 'DK-84', county: '', lat: 55.678, lon: 12.533 },
  );
  b.addresses.push({ country: 'DK', street: 'Frederiksberg Runddel', housenumber: '3E', postcode: '2000', city: 'Frederiksberg', district: '', lat: 55.6752, lon: 12.5313 });
  b.addresses.push({ country: 'DK', street: 'Frederiksberg Runddel', housenumber: '1', postcode: '2000', city: 'Frederiksberg', district: '', lat: 55.6753, lon: 12.5314 });
  const dk = indexOfBatch(b);
  it('answers the street, not the postcode\'s place', () => {
    const r = lookup(dk, { street: 'Frederiksberg Runddel', housenumber: '3E', zip: '0999', city: 'Frederiksberg' });
    expect(r).toMatchObject({ matchlevel: 'housenumber', city: 'Frederiksberg', zip: '2000' });
  });
});

describe('towns of one name far apart (homonyms: dozens of French towns are named Saint-Martin)', () => {
  const b = emptyBatch();
  b.places.push(
    { country: 'FR', name: 'Saint-Martin', lat: 43.60, lon: 1.30, population: 800, type: 'village' },
    { country: 'FR', name: 'Saint-Martin', lat: 48.50, lon: 6.90, population: 900, type: 'village' },
  );
  b.postcodes.push(
    { country: 'FR', code: '31400', place: 'Saint-Martin', state: '', stateCode: 'FR-OCC', county: '', lat: 43.60, lon: 1.30 },
    { country: 'FR', code: '54450', place: 'Saint-Martin', state: '', stateCode: 'FR-GES', county: '', lat: 48.50, lon: 6.90 },
  );
  const add = (hn: string, postcode: string, lat: number, lon: number, street = "Rue de l'Église") =>
    b.addresses.push({ country: 'FR', street, housenumber: hn, postcode, city: 'Saint-Martin', district: '', lat, lon });
  add('3', '31400', 43.6001, 1.3001);
  add('3', '54450', 48.5001, 6.9001);
  add('5', '54450', 48.5002, 6.9002, 'Rue des Vosges');
  const fr = indexOfBatch(b);
  it('without a postcode, the same street and number in both is answered as ambiguous (relevance below 90)', () => {
    const r = lookup(fr, { street: "Rue de l'Église", housenumber: '3', city: 'Saint-Martin', country: 'FR' });
    expect(r.matchlevel).toBe('housenumber');
    expect(Number(r.relevance)).toBeLessThan(90);
  });
  it('the postcode tells them apart', () => {
    for (const zip of ['31400', '54450']) {
      const r = lookup(fr, { street: "Rue de l'Église", housenumber: '3', zip, city: 'Saint-Martin', country: 'FR' });
      expect(r).toMatchObject({ matchlevel: 'housenumber', zip, relevance: '100' });
    }
  });
  it('a street only one of them has is not ambiguous', () => {
    const r = lookup(fr, { street: 'Rue des Vosges', housenumber: '5', city: 'Saint-Martin', country: 'FR' });
    expect(r).toMatchObject({ matchlevel: 'housenumber', zip: '54450' });
    expect(Number(r.relevance)).toBeGreaterThanOrEqual(90);
  });
});
