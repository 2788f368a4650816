/**
 * Stage 11, explain (src/engine/lookup/explain/explain.ts), on a small hand-made index: the parts
 * of the input that matched, were corrected, inferred or ignored, and the relevance deductions
 * (src/engine/lookup/score/deductions.ts), whose points add up to what the relevance lost.
 */
import { describe, expect, it } from 'vitest';
import { emptyBatch } from '../../../../src/data/source-types.ts';
import type { SearchRequest } from '../../../../src/contract/requests.ts';
import { lookup, lookupExplained } from '../../../../src/engine/lookup/index.ts';
import { DEDUCTIONS } from '../../../../src/engine/lookup/score/deductions.ts';
import { indexOfBatch } from '../../../helpers/test-index.ts';

/** Vaduz (9490) and Schaan (9494) share a Landstrasse; Städtle is Vaduz's only; Kirchstrasse is in Schaan and Balzers. */
function valley() {
  const b = emptyBatch();
  const towns = [['Vaduz', '9490', 47.14, 9.52], ['Schaan', '9494', 47.165, 9.51], ['Balzers', '9496', 46.87, 9.50]] as const;
  for (const [name, zip, lat, lon] of towns) {
    b.places.push({ country: 'LI', name, lat, lon, population: 5000, type: 'town' });
    b.postcodes.push({ country: 'LI', code: zip, place: name, state: '', stateCode: '', county: '', lat, lon });
    const streets = name === 'Balzers' ? ['Kirchstrasse'] : name === 'Schaan' ? ['Landstrasse', 'Kirchstrasse'] : ['Landstrasse', 'Städtle', 'Äulestrasse'];
    for (const street of streets) {
      for (let n = 1; n <= 5; n++) b.addresses.push({ country: 'LI', street, housenumber: String(n), postcode: zip, city: name, district: '', lat, lon: lon + n * 1e-4 });
    }
  }
  return indexOfBatch(b);
}

const index = valley();

function explain(req: SearchRequest) {
  const r = lookupExplained(index, req);
  // the explained lookup answers exactly what the default one does
  expect(r.record).toEqual(lookup(index, req));
  const lost = r.explain.deductions.reduce((a, d) => a + d.points, 0);
  const rel = Number(r.record.relevance);
  if (rel > 0) expect(Math.abs(100 - lost - rel)).toBeLessThanOrEqual(0.5 + 0.05 * r.explain.deductions.length);
  const part = (status: string, field?: string) => r.explain.parts.filter((p) => p.status === status && (field === undefined || p.field === field));
  const codes = r.explain.deductions.map((d) => d.code);
  return { ...r, part, codes };
}

describe('lookupExplained', () => {
  it('an exact address: every part matched, the country inferred, no deduction', () => {
    const r = explain({ street: 'Städtle', housenumber: '3', zip: '9490', city: 'Vaduz' });
    expect(r.record.relevance).toBe('100');
    expect(r.part('matched').map((p) => [p.field, p.became])).toEqual(expect.arrayContaining([['street', 'Städtle'], ['zip', '9490'], ['city', 'Vaduz'], ['housenumber', '3']]));
    expect(r.part('inferred', 'country_iso_2')).toEqual([expect.objectContaining({ became: 'LI' })]);
    expect(r.part('ignored')).toEqual([]);
    expect(r.codes).toEqual([]);
  });

  it('a country named in the free text is reported as the input wrote it, not as its code', () => {
    const r = explain({ address: 'Städtle 3, 9490 Vaduz, Fürstentum Liechtenstein' });
    expect(r.record.country_iso_2).toBe('LI');
    expect(r.part('matched', 'country_iso_2')).toEqual([expect.objectContaining({ input: 'Fürstentum Liechtenstein', became: 'LI', why: 'a country named in the text' })]);
    expect(explain({ address: 'Städtle 3, Vaduz, liechtenstein' }).part('matched', 'country_iso_2')).toEqual([expect.objectContaining({ input: 'liechtenstein' })]);
  });

  it('a misspelt street is corrected (typo) and its lost share is a TYPO deduction', () => {
    const r = explain({ street: 'Kirchstrase', housenumber: '2', city: 'Schaan' });
    expect(r.record.street).toBe('Kirchstrasse');
    expect(r.part('corrected', 'street')).toEqual([expect.objectContaining({ input: 'Kirchstrase', became: 'Kirchstrasse', why: 'typo' })]);
    expect(r.codes).toContain('TYPO');
    expect(r.part('inferred', 'zip')).toEqual([expect.objectContaining({ became: '9494' })]);
  });

  it('an abbreviation expanded is a correction', () => {
    const r = explain({ address: 'Kirchstr. 2, 9494 Schaan' });
    expect(r.record.street).toBe('Kirchstrasse');
    expect(r.part('corrected', 'street')).toEqual([expect.objectContaining({ input: 'Kirchstr', why: 'abbreviation' })]);
    expect(r.codes).toContain('ABBREVIATION');
  });

  it('a word typed without its diacritics is corrected to the answer\'s spelling', () => {
    const r = explain({ street: 'Stadtle', housenumber: '1', city: 'Vaduz' });
    expect(r.part('corrected', 'street')).toEqual([expect.objectContaining({ input: 'Stadtle', became: 'Städtle', why: 'diacritics' })]);
  });

  it('a word nothing explains is ignored, with its share as UNEXPLAINED_WORD', () => {
    const r = explain({ address: 'Städtle 3, Vaduz, Wolkenkuckucksheim' });
    expect(r.record.street).toBe('Städtle');
    expect(r.part('ignored')).toEqual([expect.objectContaining({ input: 'Wolkenkuckucksheim' })]);
    expect(r.codes).toContain('UNEXPLAINED_WORD');
  });

  it('an unknown house number: HOUSENUMBER_NOT_FOUND', () => {
    const r = explain({ street: 'Städtle', housenumber: '99', city: 'Vaduz' });
    expect(r.record.matchlevel).toBe('street');
    expect(r.part('ignored')).toEqual([expect.objectContaining({ input: '99' })]);
    expect(r.codes).toContain('HOUSENUMBER_NOT_FOUND');
  });

  it('two equally good streets in two towns: AMBIGUOUS_STREET, 15 points', () => {
    const r = explain({ street: 'Landstrasse', housenumber: '2' });
    expect(r.explain.deductions).toContainEqual(expect.objectContaining({ code: 'AMBIGUOUS_STREET', points: 15 }));
  });

  it('a street the index does not hold, answered by the town: STREET_NOT_FOUND caps it', () => {
    const r = explain({ street: 'Unbekanntgasse', housenumber: '7', zip: '9490', city: 'Vaduz' });
    expect(r.record.matchlevel).toBe('general');
    expect(Number(r.record.relevance)).toBeLessThanOrEqual(85);
    expect(r.part('ignored').map((p) => p.input)).toContain('Unbekanntgasse');
    expect(r.codes).toContain('HOUSENUMBER_NOT_FOUND');
  });

  it('a postcode of another town than the city named: POSTCODE_CITY_DISAGREE or the postcode ignored', () => {
    const r = explain({ zip: '9494', city: 'Balzers' });
    expect(r.codes.some((c) => c === 'POSTCODE_CITY_DISAGREE' || c === 'POSTCODE_NOT_MATCHED' || c === 'UNEXPLAINED_WORD')).toBe(true);
  });

  it('nothing found and no country: NOTHING_FOUND; a country alone: COUNTRY_ONLY', () => {
    expect(explain({ address: 'Xyzzy' }).record.relevance).toBe('0');
    const r = explain({ address: 'Xyzzy', country: 'LI' });
    expect(r.codes).toContain('COUNTRY_ONLY');
    expect(r.part('matched', 'country_iso_2')).toEqual([expect.objectContaining({ input: 'LI', became: 'LI' })]);
  });

  it('every deduction reported is one of the module\'s', () => {
    const known = new Set(DEDUCTIONS.map((d) => d.code));
    for (const req of [{ street: 'Kirchstrase', city: 'Schaan' }, { address: 'Landstr 3' }, { zip: '9499', city: 'Vaduz', country: 'CH' }]) {
      for (const d of lookupExplained(index, req).explain.deductions) {
        expect(known.has(d.code)).toBe(true);
        expect(d.points).toBeGreaterThanOrEqual(0);
        expect(d.why).not.toBe('');
      }
    }
  });
});
