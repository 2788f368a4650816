/**
 * Issue 18, on the embedded default: a query that is only a state's name answers the state
 * (named-place/state-answer.ts), unless a place of that name outweighs it, the state is named
 * after the place, or the query gives a reason for the place. No name is special-cased: the
 * answers come from the layer's states (local names), the pinned subdivision table (tagged names)
 * and the importance of places.
 */
import { describe, expect, it } from 'vitest';
import { defaultIndex as index, loadDefaultIndexBeforeAll } from '../../../helpers/default-index.ts';
import { lookup, lookupExplained } from '../../../../src/engine/lookup/index.ts';
import type { SearchRequest } from '../../../../src/contract/requests.ts';

loadDefaultIndexBeforeAll();

type Want = Partial<Record<'country_iso_2' | 'city' | 'county' | 'state_name' | 'state_code' | 'matchlevel' | 'relevance', string>>;
const a = (address: string, more: Partial<SearchRequest> = {}): SearchRequest => ({ address, ...more });

describe('a query that names a state gets the state', () => {
  const STATES: [SearchRequest, Want][] = [
    // the local name explains the words in full
    [a('Bayern'), { country_iso_2: 'DE', state_code: 'DE-BY', state_name: 'Bayern', city: '', county: '', matchlevel: 'general', relevance: '100' }],
    [a('Toscana'), { country_iso_2: 'IT', state_code: 'IT-52', city: '', relevance: '100' }],
    [a('Nordrhein-Westfalen'), { state_code: 'DE-NW', city: '', relevance: '100' }],
    // a language-tagged name (an exonym) as another name: 90; the state_name stays local
    [a('Bavaria'), { country_iso_2: 'DE', state_code: 'DE-BY', state_name: 'Bayern', city: '', relevance: '90' }],
    [a('Tuscany'), { country_iso_2: 'IT', state_code: 'IT-52', state_name: 'Toscana', city: '' }],
    [a('Saxony'), { country_iso_2: 'DE', state_code: 'DE-SN', city: '' }],
    // with its country
    [a('Bavaria, Germany'), { country_iso_2: 'DE', state_code: 'DE-BY', city: '' }],
    // words that also name a country are part of the state's name
    [a('Île-de-France'), { country_iso_2: 'FR', state_code: 'FR-IDF', city: '', relevance: '100' }],
    [a('Île-de-France, France'), { country_iso_2: 'FR', state_code: 'FR-IDF', city: '' }],
    [a('North Holland'), { country_iso_2: 'NL', state_code: 'NL-NH', state_name: 'Noord-Holland', city: '', relevance: '90' }],
    [a('New South Wales'), { country_iso_2: 'AU', state_code: 'AU-NSW', city: '' }],
    // a country's name that is a state's too
    [a('England'), { country_iso_2: 'GB', state_code: 'GB-ENG', city: '' }],
    // a place named by only some of the words is no rival
    [a('Zagreb County, Croatia'), { country_iso_2: 'HR', state_code: 'HR-01', city: '' }],
    // a state that holds one place, named by its local name
    [a('Roraima, Brasil'), { country_iso_2: 'BR', state_code: 'BR-RR', city: '' }],
    // the name without the subdivision type word most of its country's state names share
    [a('mazowieckie'), { country_iso_2: 'PL', state_code: 'PL-14', state_name: 'województwo mazowieckie', city: '' }],
    [a('Jihomoravský'), { country_iso_2: 'CZ', state_code: 'CZ-64', city: '' }],
    [a('Harju'), { country_iso_2: 'EE', state_code: 'EE-37', city: '' }],
    // the locale's name where a translation exists
    [a('Bayern', { locale: 'en' }), { state_code: 'DE-BY', state_name: 'Bavaria', city: '' }],
    // a state whose name holds a place's name and more is not named after that place
    [a('Baden-Württemberg, DE'), { country_iso_2: 'DE', state_code: 'DE-BW', city: '', relevance: '100' }], // was Baden-Baden, 60
    [a('Schleswig-Holstein'), { country_iso_2: 'DE', state_code: 'DE-SH', city: '', relevance: '100' }], // was the town Schleswig
    [a('Hrpelje–Kozina'), { country_iso_2: 'SI', state_code: 'SI-035', city: '' }],
    // a saint abbreviated, as the full name answers (`Saint Julian's`)
    [a("St Julian's"), { country_iso_2: 'MT', state_code: 'MT-48', city: '' }], // was Julian A. Mansilla, AR
    // its name and its own code after it
    [a('Tasmania TAS'), { country_iso_2: 'AU', state_code: 'AU-TAS', city: '', relevance: '100' }], // was no answer
    [a('Bayern BY'), { country_iso_2: 'DE', state_code: 'DE-BY', city: '', relevance: '100' }], // was Schwandorf, 80
    [a('Ontario ON'), { country_iso_2: 'CA', state_code: 'CA-ON', city: '' }], // was Ontario Centre (Queensville)
  ];
  for (const [q, want] of STATES) it(JSON.stringify(q), () => expect(lookup(index, q)).toMatchObject(want));

  it('has the point of the state\'s most important place', () => {
    const r = lookup(index, a('Bayern'));
    const munich = lookup(index, a('München'));
    expect([r.latitude, r.longitude]).toEqual([munich.latitude, munich.longitude]);
  });

  it('explains itself on request: the words became the state', () => {
    const { explain } = lookupExplained(index, a('Bavaria'));
    expect(explain.parts).toContainEqual(expect.objectContaining({ input: 'Bavaria', status: 'corrected', field: 'state' }));
    expect(explain.deductions.map((d) => d.code)).toContain('WEAK_PLACE_NAME');
  });
});

describe('the place stays', () => {
  const PLACES: [SearchRequest, Want][] = [
    // the state is named after its city (city-states, states named after their capital)
    [a('Berlin'), { country_iso_2: 'DE', city: 'Berlin', relevance: '100' }],
    [a('Hamburg'), { country_iso_2: 'DE', city: 'Hamburg' }],
    [a('Wien'), { country_iso_2: 'AT', city: 'Wien', relevance: '100' }],
    [a('Vienna'), { country_iso_2: 'AT', city: 'Wien' }],
    [a('Genève'), { country_iso_2: 'CH', city: 'Genève' }],
    [a('Geneva'), { country_iso_2: 'CH', city: 'Genève' }],
    [a('Luxembourg'), { country_iso_2: 'LU', city: 'Luxembourg' }],
    [a('Salzburg'), { country_iso_2: 'AT', city: 'Salzburg', relevance: '100' }],
    [a('Madrid'), { country_iso_2: 'ES', city: 'Madrid' }],
    [a('Tartu'), { country_iso_2: 'EE', city: 'Tartu', state_code: 'EE-79' }],
    // Malta's local councils carry an article the town's name lacks
    [a('Tas-Sliema'), { country_iso_2: 'MT', city: 'Sliema' }],
    // a city named by its own name (a homonym state abroad outweighs it, but people name cities)
    [a('Münster'), { country_iso_2: 'DE', city: 'Münster' }],
    [a('Paraná'), { country_iso_2: 'AR', city: 'Paraná' }],
    // a city named by its first words that outweighs a state named by a tagged name (CH-FR in German)
    [a('Freiburg'), { country_iso_2: 'DE', city: 'Freiburg im Breisgau' }],
    // the query gives a reason for the village: the country where the state is not, a postcode
    [a('Bavaria, Italy'), { country_iso_2: 'IT', city: 'Bavaria' }],
    [a('Bavaria', { country: 'IT' }), { country_iso_2: 'IT', city: 'Bavaria' }],
  ];
  for (const [q, want] of PLACES) it(JSON.stringify(q), () => expect(lookup(index, q)).toMatchObject(want));

  // the place stays as a guess (HOMONYM_GUESS, relevance < 90) unless it is sure: much more
  // important than the state, named by its own name against a tagged one, or spelt as typed
  const SURE: [SearchRequest, boolean][] = [
    [a('Tabor'), true], // the Czech city, 36,000 people, against a Slovenian municipality
    [a('Münster'), true], // the accent spells the city, not the Irish province Munster
    [a('Munster'), false],
    [a('Paraná'), false], // the Argentine city, or the Brazilian state
    [a('Victoria'), false], // the Canadian city, or the Australian state
    [a('Videm, Slovenia'), false], // a village, or the municipality
  ];
  for (const [q, sure] of SURE) {
    it(`${JSON.stringify(q)}: ${sure ? 'sure' : 'a guess'}`, () => {
      const { record, explain } = lookupExplained(index, q);
      expect(record.city).not.toBe('');
      expect(Number(record.relevance) >= 90).toBe(sure);
      expect(explain.deductions.map((d) => d.code).includes('HOMONYM_GUESS')).toBe(!sure);
    });
  }

  it('a subdivision of one place named by a tagged name is not answered: Malta\'s local councils are their towns', () => {
    expect(lookup(index, a('Mdina'))).toMatchObject({ country_iso_2: 'MT', city: 'Mdina' });
  });

  it('Texas: the default layer holds no US states, so the Queensland town answers', () => {
    expect(lookup(index, a('Texas'))).toMatchObject({ country_iso_2: 'AU', city: 'Texas' });
  });
});
