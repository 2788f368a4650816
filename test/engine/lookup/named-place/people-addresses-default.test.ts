/**
 * Issue 18 on the embedded default, addresses as people write them: a street with a four-digit
 * postcode and no city, a house number before the street, a street named like a town, bracketed
 * qualifiers, GB outward codes, homonyms within one country. Words the issue and the evaluation
 * do not quote.
 */
import { describe, expect, it } from 'vitest';
import { defaultIndex as index, loadDefaultIndexBeforeAll } from '../../../helpers/default-index.ts';
import { lookup, lookupExplained } from '../../../../src/engine/lookup/index.ts';
import {
  COUNTRY_WEAK_EVIDENCE, HOMONYM_GUESS, HOMONYM_IN_COUNTRY, POSTCODE_CITY_DISAGREE,
} from '../../../../src/engine/lookup/score/deductions.ts';

loadDefaultIndexBeforeAll();

const codes = (address: string) => lookupExplained(index, { address }).explain.deductions.map((d) => d.code);

describe('addresses as people write them (embedded default)', () => {
  it('keeps a four-digit postcode in the countries its street words leave possible, as a weak choice', () => {
    for (const [address, zip] of [['Lindenlaan 7, 3701', '3701'], ['Lindenstraat 7, 5211', '5211']] as const) {
      const { record, explain } = lookupExplained(index, { address });
      expect(record.country_iso_2, address).toBe('NL');
      expect(record.zip, address).toBe(zip);
      expect(explain.deductions.map((d) => d.code), address).toContain(COUNTRY_WEAK_EVIDENCE.code);
    }
  });
  it('takes a bare four-digit code for no Dutch one without Dutch words', () => {
    expect(lookup(index, { street: 'Bremerholm', housenumber: '1', zip: '1069' }).country_iso_2).toBe('DK');
  });
  it('reads a number that opens the street part as the house number, not a postcode', () => {
    const r = lookup(index, { address: '2210 Granville Street, Vancouver' });
    expect(r.country_iso_2).toBe('CA');
    expect(r.city).toBe('Vancouver');
  });
  it('lets a postcode that exists beat a town named only by the street words', () => {
    // "Rue de Lyon": Lyon is the street's name, not a city disagreeing with 13002
    const r = lookupExplained(index, { address: 'Rue de Lyon 13002' });
    expect(r.record.zip).toBe('13002');
    expect(r.explain.deductions.map((d) => d.code)).not.toContain(POSTCODE_CITY_DISAGREE.code);
    // nor is the postcode's town the one the street is named after
    expect(lookup(index, { address: '2 Avenue de Paris 78000' }).city).not.toBe('Paris');
  });
  it('names no country by part of a bracketed qualifier, and a bracketed country by itself', () => {
    expect(lookup(index, { address: 'Calle Real 3, 27368 Larin (San Salvador)' }).country_iso_2).toBe('ES');
    expect(lookup(index, { address: 'Avenue de Verdun 75012 Paris (France)' }).country_iso_2).toBe('FR');
  });
  it('reads a GB outward code in capitals as a GB postcode', () => {
    const r = lookup(index, { address: 'Londres W1K' });
    expect(r.country_iso_2).toBe('GB');
    expect(r.zip).toBe('W1K');
  });
  it('costs a homonym in one country less than a homonym abroad', () => {
    expect(codes('Zalesie')).toEqual([HOMONYM_IN_COUNTRY.code]);
    expect(codes('Zalesie')).not.toContain(HOMONYM_GUESS.code);
  });
});
