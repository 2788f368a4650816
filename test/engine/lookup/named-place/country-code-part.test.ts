/**
 * Stage 9: free text whose last part is a country's ISO code (`Wien, AT`), country-code-part.ts; and
 * postcodes whose prefix names the country (`D-10115`, `L-1508`: ../parse/postcodes.ts); places
 * named after a saint (`St Etienne`, `Sankt Moritz`: ../normalize/abbreviations.ts).
 * The part itself is pure; the lookups run on the embedded default (no ../shared needed).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { loadDefaultIndex } from '../../../../src/data/index-file.ts';
import { openIndex, type AddressIndex } from '../../../../src/engine/index/index.ts';
import { lookup } from '../../../../src/engine/lookup/index.ts';
import { countryCodePart } from '../../../../src/engine/lookup/named-place/country-code-part.ts';
import { parseRequest } from '../../../../src/engine/lookup/parse/parse.ts';

describe('countryCodePart', () => {
  it('takes a last part of two letters that is an ISO code as the country, without its word', () => {
    const part = countryCodePart(parseRequest({ address: 'Wien, AT' }))!;
    expect(part.token).toBe(1);
    expect(part.kept).toEqual([0]);
    expect(part.asked.country).toBe('AT');
    expect(part.asked.tokens.map((t) => t.text)).toEqual(['wien']);
    expect(countryCodePart(parseRequest({ address: 'paris, fr' }))?.asked.country).toBe('FR');
    expect(countryCodePart(parseRequest({ address: 'Rue de la Paix, Paris FR' }))?.asked.country).toBe('FR'); // the last word, in capitals
    expect(part.ownPart).toBe(true);
    expect(countryCodePart(parseRequest({ address: 'Rue de la Paix, Paris FR' }))?.ownPart).toBe(false);
  });

  it('leaves every other query alone', () => {
    expect(countryCodePart(parseRequest({ address: 'Toronto, ZZ' }))).toBeUndefined(); // no country's code
    expect(countryCodePart(parseRequest({ address: 'Wien at' }))).toBeUndefined(); // not a part of its own, nor in capitals
    expect(countryCodePart(parseRequest({ address: 'AT' }))).toBeUndefined(); // nothing else
    expect(countryCodePart(parseRequest({ address: 'Rue de la Paix, Paris fr' }))).toBeUndefined(); // more words in the part, in lower case
    expect(countryCodePart(parseRequest({ address: 'Wien, AT', country: 'DE' }))).toBeUndefined(); // the country is given
    expect(countryCodePart(parseRequest({ address: 'Wien, AUT' }))).toBeUndefined(); // alpha-3 is the parser's
    expect(countryCodePart(parseRequest({ address: 'Wien, AT', state: 'Wien' }))).toBeUndefined();
  });
});

describe('lookups that end with a country code', () => {
  let index: AddressIndex;
  beforeAll(async () => { index = openIndex(await loadDefaultIndex()); }, 600_000);
  const answer = (address: string) => {
    const r = lookup(index, { address });
    return `${r.city}|${r.state_code}|${r.country_iso_2}|${r.relevance}`;
  };
  it('a code of its own part is not contradicted by an answer abroad; one typed after words may be a province\'s', () => {
    // `Pulo` names a village in Portugal; the code says Brazil, where the misspelt São Paulo lies
    expect(lookup(index, { address: 'São Pulo, BR' })).toMatchObject({ city: 'São Paulo', country_iso_2: 'BR' });
    // AR is Argentina's code and Arezzo's sigla
    expect(lookup(index, { address: 'Serravalle AR' }).country_iso_2).toBe('IT');
    // a code read as a word of a name abroad (De Kiel, NL) is the country; read as the answer's state, the state
    expect(lookup(index, { address: 'Kiel, DE' })).toMatchObject({ city: 'Kiel', country_iso_2: 'DE' });
    expect(lookup(index, { address: 'Fribourg, FR' })).toMatchObject({ city: 'Fribourg', country_iso_2: 'CH' });
    // read as a word of an alternate name in its own country (Hamburg-Nord): the country, when that answer is the more relevant
    expect(lookup(index, { address: 'Hamburg, DE' })).toMatchObject({ city: 'Hamburg', country_iso_2: 'DE', relevance: '100' });
  });

  it('answers the place in that country, as with the country named', () => {
    expect(answer('Wien, AT')).toBe('Wien|AT-9|AT|100'); // relevance 50: `AT` was an unexplained word
    expect(answer('Paris, FR')).toBe(answer('Paris, France'));
    expect(answer('Córdoba, ES')).toMatch(/^Córdoba\|ES-AN\|ES\|100$/); // not the more populous Córdoba, AR
    expect(answer('London, CA')).toMatch(/^London\|CA-ON\|CA\|100$/);
    expect(answer('Victoria, MT')).toMatch(/^Victoria\|MT-\d+\|MT\|100$/);
  });

  it('answers a state named with its country code', () => {
    expect(answer('Navarra, ES')).toBe('|ES-NC|ES|100'); // was Navarra, PT
    expect(answer('Bayern, DE')).toBe('|DE-BY|DE|100'); // was Schwandorf
    expect(answer('Toscana, IT')).toBe('|IT-52|IT|100'); // was no answer
  });

  it('reads a name of the code\'s own country as that country, and another country\'s name as a place', () => {
    expect(answer('Luxembourg, LU')).toBe('Luxembourg|LU-LU|LU|100'); // was the country alone
    expect(answer('Salvador, BR')).toMatch(/^Salvador\|BR-BA\|BR\|100$/); // was El Salvador, the country
    expect(answer('Granada, ES')).toMatch(/^Granada\|ES-AN\|ES\|100$/); // was Grenada, the country
    expect(answer('Wien, Österreich, AT')).toBe('Wien|AT-9|AT|100');
    expect(answer('South Australia, AU')).toBe('|AU-SA|AU|100'); // the state, whose name holds the country's
    expect(answer('England, GB')).toBe('|GB-ENG|GB|100');
  });

  it("keeps a state's code of the answer's own state, and a code whose country holds no such place", () => {
    expect(answer('Toronto, ON')).toBe('Toronto|CA-ON|CA|100');
    expect(answer('Fribourg, FR')).toMatch(/^Fribourg\|CH-FR\|CH\|100$/); // the canton, not France
    expect(answer('Bern, BE')).toMatch(/^Bern\|CH-BE\|CH\|100$/); // the canton, not Belgium
    expect(answer('Regina, SK')).toMatch(/^Regina\|CA-SK\|CA\|100$/); // the province, not Slovakia
    expect(answer('Siena, SI')).toMatch(/^Siena\|IT-52\|IT\|/); // the province's code; Slovenia has no Siena
  });
});

describe('postcodes with a country prefix', () => {
  let index: AddressIndex;
  beforeAll(async () => { index = openIndex(await loadDefaultIndex()); }, 600_000);
  const answer = (address: string) => {
    const r = lookup(index, { address });
    return `${r.zip}|${r.city}|${r.country_iso_2}`;
  };

  it('answers a code alone in the country its prefix names', () => {
    expect(answer('D-10115')).toBe('10115|Berlin|DE'); // no answer: 10115 is also EE's and RO's
    expect(answer('A-1010')).toBe('1010|Wien|AT');
    expect(answer('CH-8001')).toBe('8001|Zürich|CH');
    expect(answer('NL-9711')).toBe('9711|Groningen|NL');
    expect(answer('10115')).toBe('||'); // a bare code of several countries stays unanswered
  });

  it("reads Luxembourg's codes as its post writes them", () => {
    expect(answer('L-1508')).toBe('1508|Howald|LU'); // was Ljubljana, SI (1511 for L-1511)
    expect(answer('L-1356 Luxemburg')).toMatch(/^1356\|Luxembourg\|LU$/); // was the country alone
  });
});

describe("places named after a saint, abbreviated or not as their names are", () => {
  let index: AddressIndex;
  beforeAll(async () => { index = openIndex(await loadDefaultIndex()); }, 600_000);
  const city = (address: string) => { const r = lookup(index, { address }); return `${r.city}|${r.country_iso_2}`; };

  it('answers them', () => {
    expect(city('St Etienne')).toBe('Saint-Étienne|FR'); // no answer before
    expect(city('St-Jean-sur-Richelieu')).toBe('Saint-Jean-sur-Richelieu|CA');
    expect(city('St Denis')).toBe('Saint-Denis|FR');
    expect(city('Sankt Moritz')).toBe('St. Moritz|CH'); // was Moritz, DE
    expect(city('Sankt Gallen')).toBe('St. Gallen|CH');
    expect(city('Saint-Pantaléon-de-Larche')).toBe('Saint-Pantaléon-de-Larche|FR');
  });
});

describe('a last word that is a country code typed in capitals', () => {
  let index: AddressIndex;
  beforeAll(async () => { index = openIndex(await loadDefaultIndex()); }, 600_000);
  const answer = (address: string) => { const r = lookup(index, { address }); return `${r.city}|${r.state_code}|${r.country_iso_2}|${r.relevance}`; };

  it('is the country, as after a comma', () => {
    expect(answer('Amsterdam NL')).toBe('Amsterdam|NL-NH|NL|100'); // relevance 50 before
    expect(answer('Navarra ES')).toBe('|ES-NC|ES|100');
    expect(answer('Fribourg FR')).toMatch(/^Fribourg\|CH-FR\|CH\|100$/); // the canton still
  });

  it('stays a word in lower case', () => {
    expect(countryCodePart(parseRequest({ address: 'calle mayor 5 madrid es' }))).toBeUndefined();
  });
});
