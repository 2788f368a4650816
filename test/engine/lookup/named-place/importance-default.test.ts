/**
 * Issue 18, on the embedded default: homonyms ranked by importance (population, seat of
 * government) together with the query's evidence, names as people write them (CLDR exemplar
 * cities, GeoNames alternate names), the local name by default and the locale's on request. None
 * of these places is special-cased: the answers come from the layer's data and the ranking rules.
 */
import { describe, expect, it } from 'vitest';
import { defaultIndex as index, loadDefaultIndexBeforeAll } from '../../../helpers/default-index.ts';
import { lookup } from '../../../../src/engine/lookup/index.ts';
import type { SearchRequest } from '../../../../src/contract/requests.ts';

loadDefaultIndexBeforeAll();

type Want = Partial<Record<'country_iso_2' | 'city' | 'zip' | 'state_name' | 'state_code' | 'county', string>>;
const a = (address: string, more: Partial<SearchRequest> = {}): SearchRequest => ({ address, ...more });

const CASES: [SearchRequest, Want, number][] = [
  // query, the fields it must have, the lowest relevance it may have
  // the well-known place, not the village of the same name (issue 18's examples)
  [a('Praha'), { country_iso_2: 'CZ', city: 'Praha', state_code: 'CZ-10' }, 90],
  [a('Nicosia'), { country_iso_2: 'CY' }, 90],
  [a('Geneva'), { country_iso_2: 'CH', city: 'Genève' }, 90],
  [a('Milan'), { country_iso_2: 'IT', city: 'Milano' }, 90],
  [a('Cracow'), { country_iso_2: 'PL', city: 'Kraków' }, 90],
  [a('Seville'), { country_iso_2: 'ES', city: 'Sevilla' }, 90],
  [a('Heidelberg'), { country_iso_2: 'DE', city: 'Heidelberg' }, 90],
  [a('Cologne'), { country_iso_2: 'DE', city: 'Köln' }, 90],
  [a('Αθήνα'), { country_iso_2: 'GR', city: 'Athens' }, 90],
  [a('Luxembourg'), { country_iso_2: 'LU', city: 'Luxembourg' }, 90],
  [a('Brasília'), { country_iso_2: 'BR', city: 'Brasília' }, 90],
  [a('Brasilia'), { country_iso_2: 'BR', city: 'Brasília' }, 90],
  [a('Wien'), { country_iso_2: 'AT', city: 'Wien' }, 100],
  [a('København'), { country_iso_2: 'DK', city: 'København' }, 100],
  [a('Den Haag'), { country_iso_2: 'NL', city: "'s-Gravenhage" }, 90],
  [a("'s-Gravenhage"), { country_iso_2: 'NL', city: "'s-Gravenhage" }, 100],
  [a('Berlin'), { country_iso_2: 'DE', city: 'Berlin', state_code: 'DE-BE' }, 100],
  // a city named by its first words over a postal place named in full (which has no size: it
  // weighs as a town): not the postal places Frankfurt (Oder) and Freiburg (Elbe)
  [a('Frankfurt'), { country_iso_2: 'DE', city: 'Frankfurt am Main' }, 0],
  [a('Freiburg'), { country_iso_2: 'DE', city: 'Freiburg im Breisgau' }, 0],
  // with a postcode the postcode's town is the city, not a namesake far away that shares a word
  [a('Frankfurt, 60311'), { country_iso_2: 'DE', city: 'Frankfurt am Main', zip: '60311' }, 90],
  [a('15230 Frankfurt'), { country_iso_2: 'DE', city: 'Frankfurt (Oder)', zip: '15230' }, 90],
  // words the issue does not quote: English, German and French exonyms of other places
  [a('Turin'), { country_iso_2: 'IT', city: 'Torino' }, 90],
  [a('Hanover'), { country_iso_2: 'DE', city: 'Hannover' }, 90],
  [a('Bâle'), { country_iso_2: 'CH', city: 'Basel' }, 90],
  [a('Prag'), { country_iso_2: 'CZ', city: 'Praha' }, 90],
  [a('Rome'), { country_iso_2: 'IT', city: 'Roma' }, 90],
  [a('Genf'), { country_iso_2: 'CH', city: 'Genève' }, 90],
  [a('Lisbonne'), { country_iso_2: 'PT', city: 'Lisboa' }, 90],
  [a('Brussels'), { country_iso_2: 'BE', city: 'Bruxelles' }, 90],
  [a('Bucharest'), { country_iso_2: 'RO', city: 'București' }, 90],
  [a('Λευκωσία'), { country_iso_2: 'CY' }, 90],
  // an exonym is written in its writer's letters, not the place's: Czech and Polish letters do not
  // keep the answer in CZ or PL (Vídeň is also a Czech village's postal name)
  [a('Kodaň'), { country_iso_2: 'DK', city: 'København' }, 90],
  [a('Vídeň'), { country_iso_2: 'AT', city: 'Wien' }, 90],
  [a('Wiedeń'), { country_iso_2: 'AT', city: 'Wien' }, 90],
  // a town's name abroad, under 50,000 people (one word, no place's own name; scripts/gen-default-layer.ts)
  [a('Ypres'), { country_iso_2: 'BE', city: 'Ieper' }, 90],
  [a('Coire'), { country_iso_2: 'CH', city: 'Chur' }, 90],
  [a('Mantua, Italy'), { country_iso_2: 'IT', city: 'Mantova' }, 90],
  [a('Marienbad'), { country_iso_2: 'CZ', city: 'Mariánské Lázně' }, 90],
  // the post's spelling of a city whose postal places carry a district number (`Plzeň 3-Doudlevce`):
  // GeoNames calls it Pilsen
  [a('Plzeň'), { country_iso_2: 'CZ', city: 'Plzeň' }, 100],
  [a('Pilsen'), { country_iso_2: 'CZ', city: 'Plzeň' }, 90],
  // a large city's county as its parts' postal places give it (GeoNames' code was voted by its villages)
  [{ city: 'Ostrava', country: 'CZ' }, { country_iso_2: 'CZ', city: 'Ostrava', county: 'Ostrava-město' }, 100],
  [{ city: 'Plzeň', country: 'CZ' }, { country_iso_2: 'CZ', city: 'Plzeň', county: 'Plzeň-město' }, 100],
  // Ireland's last lines: the district's number before the Eircode is no house number (was 30, 63)
  [a('Dublin 4, D04 F5P2'), { country_iso_2: 'IE', city: 'Dublin 4', zip: 'D04 F5P2' }, 95],
  [{ city: 'Dublin 4', zip: 'D04 F5P2' }, { country_iso_2: 'IE', city: 'Dublin 4', zip: 'D04 F5P2' }, 95],
  // CLDR's local spelling where GeoNames drops its marks
  [a('Riga'), { country_iso_2: 'LV', city: 'Rīga' }, 100],
  // Biel/Bienne's French name, which Vienna's list of other names also held
  [a('Bienne'), { country_iso_2: 'CH', city: 'Biel/Bienne' }, 90],
  // a place's own name stays that place's, though a town abroad has it as another name
  [a('Białawoda'), { country_iso_2: 'PL', city: 'Białawoda' }, 90],
  [a('Nowa Wieś'), { country_iso_2: 'PL', city: 'Nowa Wieś' }, 90],
  // the query's marks: the place spelled so, over a larger one that only folds to it
  [a('Türi'), { country_iso_2: 'EE', city: 'Türi' }, 90],
  // unless that one is ten times as important (León, ES, over Léon, FR)
  [a('Léon'), { country_iso_2: 'ES', city: 'León' }, 90],
  // a country's name in another language that is its capital's too
  [a('Luxemburg'), { country_iso_2: 'LU', city: 'Luxembourg' }, 90],
  // a short name from a language-tagged source (CLDR): Rome in Czech and Slovene
  [a('Řím'), { country_iso_2: 'IT', city: 'Roma' }, 90],
  [a('Rim'), { country_iso_2: 'IT', city: 'Roma' }, 90],
  // a place's designation is no part of the name people write
  [a('Logan'), { country_iso_2: 'AU', city: 'Logan City' }, 90],
  [a('Lussemburgo'), { country_iso_2: 'LU', city: 'Luxembourg' }, 90],
  // the village of that name when the query gives a reason: its country, its postcode, its state
  [a('Praha', { country: 'SK' }), { country_iso_2: 'SK', city: 'Praha' }, 90],
  [a('Praha, 985 11'), { country_iso_2: 'SK', city: 'Praha', zip: '985 11' }, 90],
  [a('Milan', { country: 'AR' }), { country_iso_2: 'AR' }, 90],
  [a('2474 Geneva'), { country_iso_2: 'AU', city: 'Geneva', zip: '2474' }, 90],
  [{ city: 'Cracow', state: 'Queensland' }, { country_iso_2: 'AU', city: 'Cracow' }, 90],
  [a('Nicosia', { country: 'IT' }), { country_iso_2: 'IT', city: 'Nicosia' }, 90],
];

describe('issue 18: the well-known place first, named as people write it', () => {
  for (const [q, want, minRel] of CASES) {
    it(JSON.stringify(q), () => {
      const r = lookup(index, q);
      expect(r).toMatchObject(want);
      expect(Number(r.relevance)).toBeGreaterThanOrEqual(minRel);
    });
  }
  it('a name alone shared abroad answers the more important place, as a guess below 90', () => {
    for (const [address, cc] of [['Turi', 'IT'], ['Kirchberg', 'DE']] as const) {
      const r = lookup(index, { address });
      expect(r.country_iso_2, address).toBe(cc);
      expect(Number(r.relevance), address).toBeLessThan(90);
    }
  });
  it('a query naming a state is not answered by a city at 90 or more: the state answers (state-answer-default.test.ts)', () => {
    for (const address of ['Toscana', 'Île-de-France, France']) {
      const r = lookup(index, { address });
      expect(r.city, address).toBe('');
    }
    // a city that bears its own state's name is no guess
    for (const address of ['Salzburg', 'Hamburg']) expect(Number(lookup(index, { address }).relevance), address).toBe(100);
  });
  it('a country outside the destinations named alone is a place of that very name, as a guess; else the country alone', () => {
    expect(lookup(index, { address: 'Cuba' })).toMatchObject({ country_iso_2: 'PT', city: 'Cuba' });
    expect(Number(lookup(index, { address: 'Cuba' }).relevance)).toBeLessThan(90);
    expect(lookup(index, { address: 'Jordan' })).toMatchObject({ country_iso_2: 'JO', city: '', relevance: '20' });
    // an ISO alpha-3 code alone is its country
    expect(lookup(index, { address: 'AUT' })).toMatchObject({ country_iso_2: 'AT', city: '', relevance: '20' });
  });
  it('a country name alone answers the place bearing that very name, else the country alone', () => {
    for (const address of ['Germany', 'France', 'Deutschland', 'Italia', 'Malta']) {
      const r = lookup(index, { address });
      expect(r.city, address).toBe('');
      expect(r.relevance, address).toBe('20');
    }
  });
});

describe('issue 18: local names by default, the locale\'s where a source has them', () => {
  it('city: the local name, else the locale\'s (CLDR exemplar cities)', () => {
    const city = (q: SearchRequest) => lookup(index, q).city;
    expect(city({ city: 'Prague' })).toBe('Praha');
    expect(city({ city: 'Praha', locale: 'en' })).toBe('Prague');
    expect(city({ city: 'Praha', locale: 'de' })).toBe('Prag');
    expect(city({ city: 'Wien', locale: 'fr' })).toBe('Vienne');
    expect(city({ city: 'Athens', locale: 'el' })).toBe('Αθήνα');
    expect(city({ city: 'Warszawa', locale: 'en' })).toBe('Warsaw');
    // a postal name that is a city and its part: the part in district
    expect(lookup(index, { zip: '1010', country: 'AUT' })).toMatchObject({ city: 'Wien', district: 'Innere Stadt' });
    // a locale without a name for the place: the local name
    expect(city({ city: 'Heidelberg', locale: 'fr' })).toBe('Heidelberg');
  });
  it('state_name: the local name by default (address-formatting), the locale\'s where a translation exists', () => {
    const st = (q: SearchRequest) => lookup(index, q).state_name;
    expect(st({ city: 'Amsterdam' })).toBe('Noord-Holland');
    expect(st({ city: 'Amsterdam', locale: 'en' })).toBe('North Holland');
    // without CLDR's footnote mark (`Île-de-France²`)
    expect(st({ city: 'Paris', locale: 'en' })).toBe('Île-de-France');
    expect(st({ city: 'Bern' })).toBe('Bern');
    expect(st({ city: 'Bern', locale: 'fr' })).toBe('Berne');
    expect(st({ city: 'Warszawa' })).toBe('województwo mazowieckie');
    expect(st({ city: 'München' })).toBe('Bayern');
    // no source names DK-84 in German: the local name
    expect(st({ city: 'København', locale: 'de' })).toBe('Region Hovedstaden');
  });
});
