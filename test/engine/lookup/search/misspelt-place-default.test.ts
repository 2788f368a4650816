/**
 * Stage 8's last resort (src/engine/lookup/search/misspelt-place.ts), on the embedded default
 * (built on first use into .cache, no ../shared needed): free text that nothing answers is asked
 * again with the typo neighbours of its words naming places, and so is free text whose answer
 * names a place by some words of a name and leaves another unexplained; what the query names as
 * written keeps its answer, and a misspelt place that contradicts the query is no answer.
 */
import { describe, expect, it } from 'vitest';
import { defaultIndex as index, loadDefaultIndexBeforeAll } from '../../../helpers/default-index.ts';
import { lookup } from '../../../../src/engine/lookup/index.ts';
import { asMisspelt, explainsMore, leavesPlaceWords, type Answered } from '../../../../src/engine/lookup/search/misspelt-place.ts';
import type { NamedPlace } from '../../../../src/engine/lookup/named-place/named-place.ts';
import { parseRequest } from '../../../../src/engine/lookup/parse/parse.ts';
import { exactMatches } from '../../../../src/engine/lookup/match/matches.ts';

loadDefaultIndexBeforeAll();

describe('a place misspelt in free text', () => {
  it.each([
    ['Hambrug', 'Hamburg', 'DE'],
    ['Lodnon', 'London', 'GB'],
    ['Vancovuer', 'Vancouver', 'CA'],
    ['Barcleona, ES', 'Barcelona', 'ES'],
    // the code's country, where the text's answer lies abroad (Pulo do Cão, PT; Aschen, AT)
    ['São Pulo, BR', 'São Paulo', 'BR'],
    ['Aschen, DE', 'Aachen', 'DE'],
    // the street's type word points to the place's country (`katu`: FI; `Street`: CA among others)
    ['Simonkatu 20, Heelsinki', 'Helsinki', 'FI'],
    ['5423 Oak Street, Vancouvver', 'Vancouver', 'CA'],
    // nothing points to the country, but a populous place is misspelt as the whole last part
    ['Eteläranta 8, Hesinki', 'Helsinki', 'FI'],
    ['300-3320 Kingsway, Vancouvwr', 'Vancouver', 'CA'],
    // a word's ending that Finnish street names share (`-la`) does not rule out the country given
    ['Lavla, CA', 'Laval', 'CA'],
  ])('%s is %s, %s, at a low relevance', (address, city, cc) => {
    const r = lookup(index, { address });
    expect(r).toMatchObject({ city, country_iso_2: cc, matchlevel: 'general' });
    expect(Number(r.relevance)).toBeGreaterThan(0);
    expect(Number(r.relevance)).toBeLessThan(90);
  });

  it.each([
    // a word of a name misspelt, another naming a place as written (Preto, PT; Main Beach, AU; Aix, FR)
    ['Ribeorão Preto', 'Ribeirão Preto', 'BR'],
    ['Fraknfurt am Main', 'Frankfurt am Main', 'DE'],
    ['Aix en Provance', 'Aix-en-Provence', 'FR'],
    ['Rio de Janiero', 'Rio de Janeiro', 'BR'],
    ['Santa Cruz de Teerife, ES', 'Santa Cruz de Tenerife', 'ES'],
    // a misspelling that is itself a place abroad, with the code of the place meant (Martim, PT; Carlow)
    ['Martim, SK', 'Martin', 'SK'],
    ['Carloe, IE', 'Carlow', 'IE'],
  ])('%s, answered in part, is %s, %s', (address, city, cc) => {
    const r = lookup(index, { address });
    expect(r).toMatchObject({ city, country_iso_2: cc, matchlevel: 'general' });
    expect(Number(r.relevance)).toBeLessThan(90);
  });

  it('is asked only when the query as written answers nothing, or leaves a word of a place unexplained', () => {
    // `kremszeile` has typo neighbours, but Krems is named as written
    expect(lookup(index, { address: 'Linke Kremszeile 26 Krems' })).toMatchObject({ city: 'Krems an der Donau', country_iso_2: 'AT' });
    // Glaris is the canton's French name: the state, not the town Glarus one letter away
    expect(lookup(index, { address: 'Glaris' })).toMatchObject({ city: '', state_code: 'CH-GL' });
    expect(lookup(index, { address: 'prague, czech republic' })).toMatchObject({ city: 'Praha', country_iso_2: 'CZ' });
  });

  it('is no answer where it contradicts the query', () => {
    // a postcode of the place's country that the place does not hold
    expect(lookup(index, { address: '40 Traverse des Claux, 04200' }).city).toBe('');
    // a misspelling that explains a tenth of the query, with nothing pointing to its country, of
    // a place that is not populous (Grangia, IT)
    expect(lookup(index, { address: '104 GwardaMangia Hill, Gmangia' }).city).toBe('');
    // a relevance of nothing
    expect(lookup(index, { address: 'Rahal Gdid' }).city).toBe('');
  });

  it('an answer in part gives way only to one that explains every word it explains, and more', () => {
    const q = parseRequest({ address: 'Sao Bernard do Campo' });
    const [sao, bernard, , campo] = [0, 1, 2, 3];
    const by = (...words: number[]): Answered => ({
      q, choice: { ambiguous: false, best: { explained: q.tokens.map((_, i) => (words.includes(i) ? 1 : 0)) } as unknown as NamedPlace },
    });
    const matches = exactMatches(index, q);
    // `bernardo`, a neighbour of the word left, names São Bernardo do Campo with `sao` and `campo`
    expect(leavesPlaceWords(index, q, by(sao, campo), matches)).toBe(true);
    expect(explainsMore(q, by(sao, bernard, 2, campo), by(sao, campo))).toBe(true);
    expect(explainsMore(q, by(sao, bernard), by(sao, campo))).toBe(false); // more, but not `campo`
    expect(explainsMore(q, by(sao, campo), by(sao, campo))).toBe(false);
    // a word the asked query took as a field (not among its tokens) counts as explained
    const asked: Answered = { q: { ...q, tokens: q.tokens.slice(0, 2) }, choice: by(sao, bernard).choice };
    expect(explainsMore(q, asked, by(sao, campo))).toBe(true);
    // nothing left unexplained, or in the misspelt pass itself: not asked again
    expect(leavesPlaceWords(index, q, by(sao, bernard, 2, campo), matches)).toBe(false);
    expect(leavesPlaceWords(index, asMisspelt(q)!, by(sao, campo), matches)).toBe(false);
    // a word left whose neighbours name no place with the words explained (a street's, `Städtle`)
    const street = parseRequest({ address: '23 Städtle Vaduz 9490' });
    const vaduz: Answered = { q: street, choice: { ambiguous: false, best: { explained: street.tokens.map((t) => (t.text === 'vaduz' || t.text === '9490' ? 1 : 0)) } as unknown as NamedPlace } };
    expect(leavesPlaceWords(index, street, vaduz, exactMatches(index, street))).toBe(false);
  });

  it('is asked once, and only for free text with a word that may be misspelt', () => {
    const q = parseRequest({ address: 'Hambrug' });
    const again = asMisspelt(q)!;
    expect(again.freeTypoPlaces).toBe(true);
    expect(asMisspelt(again)).toBeUndefined();
    expect(asMisspelt(parseRequest({ address: '1051' }))).toBeUndefined();
    // the city field's typo neighbours name places already
    expect(asMisspelt(parseRequest({ city: 'Hambrug' }))).toBeUndefined();
  });
});
