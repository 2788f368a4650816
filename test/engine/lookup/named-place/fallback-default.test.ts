/**
 * Issue 10's table, on the embedded default (assets/default-layer, no ../shared needed): queries
 * for addresses whose street the default does not hold are answered with the city and postcode
 * they name, in the right country, with the state, at general level and a relevance below 90.
 * The default index is built on first use into .cache (about a minute), then read from there.
 */
import { describe, expect, it } from 'vitest';
import { defaultIndex as index, loadDefaultIndexBeforeAll } from '../../../helpers/default-index.ts';
import { lookup } from '../../../../src/engine/lookup/index.ts';
import type { SearchRequest } from '../../../../src/contract/requests.ts';

loadDefaultIndexBeforeAll();

type Want = Partial<Record<'country_iso_2' | 'city' | 'zip' | 'state_code' | 'state_name' | 'county' | 'country' | 'matchlevel', string>>;

const TABLE: [SearchRequest, Want, number][] = [
  // query, the fields it must have, the highest relevance it may have
  [{ address: 'Unter den Linden 77, 10117 Berlin' }, { country_iso_2: 'DE', city: 'Berlin', zip: '10117', state_code: 'DE-BE', matchlevel: 'general' }, 89],
  [{ address: 'Calle Mayor 5, 28013 Madrid' }, { country_iso_2: 'ES', city: 'Madrid', zip: '28013', state_code: 'ES-MD', county: 'Madrid', matchlevel: 'general' }, 89],
  [{ address: 'Kerkstraat 12, 1017 GC Amsterdam' }, { country_iso_2: 'NL', city: 'Amsterdam', zip: '1017 GC', state_code: 'NL-NH', matchlevel: 'general' }, 89],
  [{ address: 'ul. Marszałkowska 10, 00-590 Warszawa' }, { country_iso_2: 'PL', city: 'Warszawa', zip: '00-590', state_code: 'PL-14', matchlevel: 'general' }, 89],
  [{ address: 'Rua Augusta 100, 1100-053 Lisboa' }, { country_iso_2: 'PT', city: 'Lisboa', zip: '1100-053', state_code: 'PT-11', matchlevel: 'general' }, 89],
  [{ address: '12 Rue de la République, 69002 Lyon' }, { country_iso_2: 'FR', city: 'Lyon', zip: '69002', state_code: 'FR-ARA', county: 'Rhône', matchlevel: 'general' }, 89],
  [{ address: '10115 Berlin' }, { country_iso_2: 'DE', city: 'Berlin', zip: '10115', state_code: 'DE-BE', state_name: 'Berlin' }, 100],
  [{ zip: '1010', country: 'AUT' }, { country_iso_2: 'AT', zip: '1010', state_code: 'AT-9', state_name: 'Wien' }, 100],
  // a code shared with villages across the state line (1140: also Mauerbach and Purkersdorf, NÖ):
  // the postal place the query names, with its own state and point
  [{ address: '1140 Wien' }, { country_iso_2: 'AT', city: 'Wien', zip: '1140', state_code: 'AT-9', state_name: 'Wien' }, 100],
  [{ address: 'Wien 21' }, { country_iso_2: 'AT', city: 'Wien', zip: '1210', state_code: 'AT-9' }, 100],
  // NL's four digits alone, beside a Dutch city (the street words named no country): its PC4
  [{ address: '1012 Amsterdam' }, { country_iso_2: 'NL', city: 'Amsterdam', zip: '1012', state_code: 'NL-NH' }, 100],
  [{ address: 'Groningen 9711' }, { country_iso_2: 'NL', city: 'Groningen', zip: '9711' }, 100],
  // (and the commune named, not its neighbour of the same code: Mende's point, not Badaroux's)
  [{ zip: '48000', city: 'Mende' }, { country_iso_2: 'FR', city: 'Mende', zip: '48000', state_code: 'FR-OCC' }, 100],
  // the city is the local name by default, the locale's where CLDR's exemplar cities have it; the
  // country and the state follow the locale (no German name of DK-84 in any source: the local one)
  [{ city: 'Copenhagen' }, { country_iso_2: 'DK', city: 'København', state_code: 'DK-84', state_name: 'Region Hovedstaden' }, 90],
  [{ city: 'Copenhagen', locale: 'de' }, { country_iso_2: 'DK', city: 'Kopenhagen', country: 'Dänemark', state_code: 'DK-84', state_name: 'Region Hovedstaden' }, 90],
  [{ city: 'Copenhagen', locale: 'en' }, { city: 'Copenhagen', country: 'Denmark', state_code: 'DK-84', state_name: 'Capital Region' }, 90],
  // a valid postcode of Manosque with a street the data does not hold: Manosque, not Mexico City
  [{ address: '5 rue Saint-Lazare, 04100 Manosque' }, { country_iso_2: 'FR', city: 'Manosque', zip: '04100', state_code: 'FR-PAC' }, 89],
  // partial postcode data: the area by its longest known prefix, the full code in `zip`
  [{ address: 'Baker Street 221b, London NW1 6XE' }, { country_iso_2: 'GB', city: 'London', zip: 'NW1 6XE', state_code: 'GB-ENG' }, 89],
  [{ street: 'Rue Sainte-Catherine', housenumber: '1000', zip: 'h3b1a1', city: 'Montréal' }, { country_iso_2: 'CA', zip: 'H3B 1A1' }, 89],
  [{ address: '1 Main Street, D02 X285 Dublin' }, { country_iso_2: 'IE', city: 'Dublin', zip: 'D02 X285' }, 89],
  // GR has no postcode data: the named city, the code echoed normalised, counted half
  [{ address: 'Ermou 10, 105 63 Athens' }, { country_iso_2: 'GR', city: 'Athens', zip: '105 63' }, 89],
  // postcode and city disagree and nothing else decides: the postcode wins, the relevance says so
  [{ zip: '10115', city: 'München', country: 'DE' }, { country_iso_2: 'DE', zip: '10115', state_code: 'DE-BE' }, 80],
];

describe('issue 10: the embedded default answers what the query names', () => {
  for (const [q, want, maxRel] of TABLE) {
    it(JSON.stringify(q), () => {
      const r = lookup(index, q);
      expect(r).toMatchObject(want);
      expect(Number(r.relevance)).toBeLessThanOrEqual(maxRel);
      expect(Number(r.relevance)).toBeGreaterThan(0);
      expect(r.latitude).not.toBe('');
    });
  }
  it("a code shared by several communes answers with the named one's point (48000 Mende, not Badaroux 4 km away)", () => {
    const r = lookup(index, { zip: '48000', city: 'Mende' });
    expect(Math.abs(Number(r.latitude) - 44.518)).toBeLessThan(0.02);
    expect(Math.abs(Number(r.longitude) - 3.5)).toBeLessThan(0.02);
  });
  it('a village named in five countries by a street\'s word does not make a four-digit code Dutch', () => {
    // (Triesen's 9495 exists in LI, HU, BG and as NL's PC4 of Winde; Winkel is a village of NL and four more)
    expect(lookup(index, { address: 'Oberer Winkel 5, 9495' }).country_iso_2).not.toBe('NL');
  });
  it('nothing found and no country: an empty record with relevance 0', () => {
    for (const address of ['qwzx plorb 17', '1010', 'Zzyzx Plorbstraße 5']) {
      const r = lookup(index, { address });
      expect(r.relevance, address).toBe('0');
      expect(r.country_iso_2, address).toBe('');
    }
  });
  it('a street named with only a country: the country, relevance at most 20', () => {
    const r = lookup(index, { street: 'Hauptstraße', housenumber: '5', country: 'DE' });
    expect(r.country_iso_2).toBe('DE');
    expect(Number(r.relevance)).toBeLessThanOrEqual(20);
  });
  it('the house number after the street words is not a postcode of another country', () => {
    for (const [address, city] of [['Rue de la Poujade 6247, Saint-Geniez-d\'Olt', 'Saint-Geniez-d\'Olt'], ['Route du village 1240, Furiani', 'Furiani']]) {
      expect(lookup(index, { address }), address).toMatchObject({ country_iso_2: 'FR', city, zip: '' });
    }
  });
  it('words of the street\'s part do not name a place when a later part may ("Wilga" is in PL, "Street" in GB)', () => {
    for (const address of ['Triq il-Wilga 58a, Paceville', 'Merchants Street 21, Vallettaa', 'Triq San Ġorġ 5, St. Julians']) {
      const r = lookup(index, { address });
      expect(r.country_iso_2, address).not.toMatch(/^(PL|GB|CZ)$/);
    }
    expect(lookup(index, { address: 'An der Schütt 48, Krems' })).toMatchObject({ country_iso_2: 'AT' });
  });
  it('a type word does not choose a bare postcode\'s country when the city the query names is nowhere', () => {
    // 1010 is a code in AT, AU, BE, CH, DK, …; "Street" alone would point to AU. OSM's misspelt
    // city is found as the misspelling it is, in the last resort (search/misspelt-place.ts)
    const r = lookup(index, { address: 'Merchants Street 21, 1010 Vallettaa' });
    expect(r).toMatchObject({ country_iso_2: 'MT', city: 'Valletta', zip: '' });
    expect(Number(r.relevance)).toBeLessThan(30);
    // a French type word still decides where the named city agrees
    expect(lookup(index, { address: 'Rue X 5, 04100 Manosque' })).toMatchObject({ country_iso_2: 'FR', zip: '04100' });
  });
  it('a Maltese code in two parts keeps the answer in Malta', () => {
    expect(lookup(index, { address: 'Old Bakery Street 198, VLT 1455 Valletta' })).toMatchObject({ country_iso_2: 'MT', city: 'Valletta', zip: 'VLT 1455' });
    expect(lookup(index, { address: 'Triq San Ġorġ 5, STJ1963 St. Julians' })).toMatchObject({ country_iso_2: 'MT', zip: 'STJ 1963' });
  });
  it('a city named only by a typo, in a country the street type word rules out, is not named', () => {
    const r = lookup(index, { street: 'Triq Paceville', housenumber: '41', city: 'St. Julians' });
    expect(r.country_iso_2).not.toBe('ES');
  });
  it('the letters of a street name choose among the countries of a bare postcode', () => {
    expect(lookup(index, { street: 'Sjælør Boulevard', housenumber: '20', zip: '2450' })).toMatchObject({ country_iso_2: 'DK', zip: '2450' });
    expect(lookup(index, { street: 'Sønder Boulevard', housenumber: '34', zip: '1720' })).toMatchObject({ country_iso_2: 'DK', zip: '1720' });
    // letters many languages write (ô, é) say nothing: the French type word decides
    expect(lookup(index, { street: 'Rue de la Côte Blanche', housenumber: '33', zip: '15000' })).toMatchObject({ country_iso_2: 'FR', zip: '15000' });
  });
  it('a name two countries share, and nothing decides: no answer rather than a guess abroad', () => {
    const r = lookup(index, { address: 'Rue Sous Châtillon 5, Velaines' });
    expect(r).toMatchObject({ country_iso_2: '', relevance: '0' });
    // the postcode decides
    expect(lookup(index, { address: 'Rue Sous Châtillon 5, 55500 Velaines' })).toMatchObject({ country_iso_2: 'FR', city: 'Velaines' });
  });
  it('an elided article after the postcode is not a house-number letter ("32600 L\'Isle-Jourdain")', () => {
    expect(lookup(index, { address: 'Rue des Chênes 19, 32600 L\'Isle-Jourdain' })).toMatchObject({ country_iso_2: 'FR', city: 'L\'Isle-Jourdain', zip: '32600' });
  });
  it('common words never pull the answer to a place the query does not name', () => {
    const r = lookup(index, { address: 'Rue de la Paix 3, 75002 Paris' });
    expect(r).toMatchObject({ country_iso_2: 'FR', city: 'Paris', zip: '75002' });
  });
});
