/**
 * The generated street-word weights (scripts/gen-street-word-countries.ts) on words issue 18 does
 * not quote, and the rule that combines them with a postcode's shape (country-evidence.ts).
 */
import { describe, expect, it } from 'vitest';
import { allowedCountries, queryCountryHint } from '../../../../src/engine/lookup/named-place/country-evidence.ts';
import { hintedCountries, isStreetWord, streetWordEvidence, wordWeights } from '../../../../src/engine/lookup/named-place/street-countries.ts';
import { parseRequest } from '../../../../src/engine/lookup/parse/parse.ts';

const top = (t: string) => Object.entries(wordWeights(t) ?? {}).sort((a, b) => b[1] - a[1])[0]?.[0];

describe('street-type word weights, P(country | word)', () => {
  it('points words and compound suffixes to their countries', () => {
    expect(top('chemin')).toBe('FR');
    expect(top('lotissement')).toBe('FR');
    expect(top('polku')).toBe('FI');
    expect(top('kuja')).toBe('FI');
    expect(top('straede')).toBe('DK');
    expect(top('nytorvstraede')).toBe('DK');
    expect(top('pjazza')).toBe('MT');
    expect(top('utca')).toBe('HU');
    expect(top('gracht')).toBe('NL');
    expect(wordWeights('keizersgracht')?.NL).toBeGreaterThan(0.5);
  });
  it('knows the Scandinavian definite forms of a type word as its own (`-vejen`, `pladsen`)', () => {
    expect(top('skovvejen')).toBe('DK');
    expect(top('pladsen')).toBe('DK');
    expect(top('torvegaden')).toBe('DK');
    // not for Finnish words (Finland writes Swedish too, but `katu` is Finnish) nor abbreviations
    expect(wordWeights('katuen')).toBeUndefined();
    expect(wordWeights('glen')).toBeUndefined();
  });
  it('weighs a word shared by languages by the streets that use it: Avenue is not as Australian as it is French and Canadian', () => {
    const w = wordWeights('avenue')!;
    expect(w.CA! + w.FR!).toBeGreaterThan(w.AU!);
    // a word of French streets never points to Australia
    expect(wordWeights('impasse')?.AU ?? 0).toBe(0);
    expect(wordWeights('allee')?.AU ?? 0).toBe(0);
  });
  it('knows no country for ordinary words, and reads no evidence from words under three letters', () => {
    expect(wordWeights('mokotowska')).toBeUndefined();
    expect(streetWordEvidence(['dr', 'st', 'la']).size).toBe(0);
    expect(hintedCountries(streetWordEvidence(['hovedgade'])).has('DK')).toBe(true);
    expect(isStreetWord('la')).toBe(false);
    expect(isStreetWord('chaussee')).toBe(true);
  });
});

describe('the country from strong evidence: a postcode shape narrowed by the street words', () => {
  const allowed = (req: Record<string, string>) => {
    const q = parseRequest(req);
    return [...allowedCountries(q, queryCountryHint(q))].sort();
  };
  it('keeps a five-digit code with a French type word in French-speaking five-digit countries', () => {
    expect(allowed({ address: 'Impasse des Lilas 12, 31000' })).toEqual(['FR']);
    expect(allowed({ address: 'Chemin du Moulin, 69004' })).not.toContain('AU');
  });
  it('takes a code written in parts as its country', () => {
    expect(allowed({ address: 'Zielona 5, 31-416' })).toEqual(['PL']);
  });
  it('says nothing for four digits (a house number, or Malta written without its letters) or a given country', () => {
    expect(allowed({ street: 'Triq il-Kbira', zip: '1010' })).toEqual([]);
    expect(allowed({ address: 'Impasse des Lilas 12, 31000', country: 'BE' })).toEqual([]);
  });
});
