/**
 * Stage 8's last resort (src/engine/lookup/search/misspelt-place.ts), on the embedded default
 * (built on first use into .cache, no ../shared needed): free text that nothing answers is asked
 * again with the typo neighbours of its words naming places; what the query names as written
 * keeps its answer, and a misspelt place that contradicts the query is no answer.
 */
import { describe, expect, it } from 'vitest';
import { defaultIndex as index, loadDefaultIndexBeforeAll } from '../../../helpers/default-index.ts';
import { lookup } from '../../../../src/engine/lookup/index.ts';
import { asMisspelt } from '../../../../src/engine/lookup/search/misspelt-place.ts';
import { parseRequest } from '../../../../src/engine/lookup/parse/parse.ts';

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
  ])('%s is %s, %s, at a low relevance', (address, city, cc) => {
    const r = lookup(index, { address });
    expect(r).toMatchObject({ city, country_iso_2: cc, matchlevel: 'general' });
    expect(Number(r.relevance)).toBeGreaterThan(0);
    expect(Number(r.relevance)).toBeLessThan(90);
  });

  it('is asked only when the query as written answers nothing', () => {
    // `kremszeile` has typo neighbours, but Krems is named as written
    expect(lookup(index, { address: 'Linke Kremszeile 26 Krems' })).toMatchObject({ city: 'Krems an der Donau', country_iso_2: 'AT' });
    // Glaris is the canton's French name: the state, not the town Glarus one letter away
    expect(lookup(index, { address: 'Glaris' })).toMatchObject({ city: '', state_code: 'CH-GL' });
    expect(lookup(index, { address: 'prague, czech republic' })).toMatchObject({ city: 'Praha', country_iso_2: 'CZ' });
  });

  it('is no answer where it contradicts the query', () => {
    // a postcode of the place's country that the place does not hold
    expect(lookup(index, { address: '40 Traverse des Claux, 04200' }).city).toBe('');
    // a misspelling that explains a tenth of the query, with nothing pointing to its country
    expect(lookup(index, { address: '104 GwardaMangia Hill, Gmangia' }).city).toBe('');
    // a relevance of nothing
    expect(lookup(index, { address: 'Rahal Gdid' }).city).toBe('');
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
