/**
 * Stage 9 on the embedded default (no ../shared needed): free text typed without a comma between
 * the street and the town. A place named by the street's words (right after or before a street
 * type word, or before a house number) is the street's name when another place is named after
 * it (street-name.ts `withoutStreetNames`); a type word's guess of a postcode's country does not
 * beat a city named in full elsewhere (named-place.ts).
 */
import { describe, expect, it } from 'vitest';
import { defaultIndex as index, loadDefaultIndexBeforeAll } from '../../../helpers/default-index.ts';
import { lookup } from '../../../../src/engine/lookup/index.ts';

loadDefaultIndexBeforeAll();

const answer = (address: string) => {
  const r = lookup(index, { address });
  return `${r.city}|${r.country_iso_2}`;
};

describe('the street before the town, without a comma', () => {
  it('takes the town after the street, not a place the street is named after', () => {
    expect(answer('20 bd saint-martin paris')).toBe('Paris|FR'); // answered nothing: Saint-Martin is in FR, CH, BE…
    expect(answer('20 bd st martin paris')).toBe('Paris|FR'); // was Martin, SK
    expect(answer('10 rue saint-honoré paris')).toBe('Paris|FR'); // was the village Saint-Honoré
    expect(answer('via san marco 3 milano')).toBe('Milano|IT');
    expect(answer('calle san bernardo 5 madrid')).toBe('Madrid|ES'); // was San Bernardo, AR
    expect(answer('sankt-peter-straße 5 münchen')).toBe('München|DE');
    expect(answer('Baker Street London')).toBe('London|GB');
    expect(answer('Im Sand 44 Triesen')).toBe('Triesen|LI'); // a house number ends the street
    expect(answer('avenue de paris versailles')).toBe('Versailles|FR');
  });

  it("drops a place named by the street's words in a country its type word rules out, town or not", () => {
    expect(answer('58a Triq il-Wilga Paceville')).toBe('|'); // was Wilga, PL: no street there is a `Triq`
    expect(answer('10a Ulica ob starem zidovju Izola Slovenia')).toBe('Izola|SI'); // the country named decides
    expect(answer('Bundaberg East')).toBe('Bundaberg East|AU'); // no house number: `east` is the place's own word
    expect(answer('Bundaberg East, QLD')).toBe('Bundaberg East|AU'); // nothing before: `east` is no street type (street-words.generated.ts)
  });

  it('keeps a place the street words name when nothing names a town after them', () => {
    expect(answer('10 rue saint-honoré france')).toBe('Saint-Honoré|FR');
    expect(answer('Rue')).toBe('Rue|FR');
    expect(answer('Paris 15')).toBe('Paris 15|FR'); // the arrondissement's postal place (a district number, street-part.ts)
  });

  it('reads a two-letter abbreviation as a street type only after a house number', () => {
    expect(answer('St. Paul’s Bay')).not.toBe('Bay|FR');
    expect(answer('Pays de la Loire')).toBe('|FR'); // the state, not Loiré ("la" is also Lane)
  });

  it('does not take a designation for a town', () => {
    expect(answer('707 Queensbury Avenue North Vancouver City')).toBe('North Vancouver|CA');
  });

  it('does not let a type word guess a postcode country where the city named in full is elsewhere', () => {
    // 2902 is a postcode of Kambah, AU, and Vancouver Peninsula, AU, begins with Vancouver
    expect(answer('2902 Main Street Vancouver')).toBe('Vancouver|CA');
    expect(answer('1045 Commercial Drive Vancouver')).toBe('Vancouver|CA');
  });
});

describe("a district's number after the city's name", () => {
  it('names the post\'s place of that number', () => {
    expect(answer('Dublin 2')).toBe('Dublin 2|IE'); // was Dublin, relevance 50
    expect(answer('Dublin 6W')).toBe('Dublin 6W|IE');
    expect(answer('Paris 15')).toBe('Paris 15|FR');
    expect(answer('Paris 8')).toBe('Paris 08|FR'); // the post writes two digits
    expect(answer('Lyon 3')).toBe('Lyon 03|FR');
  });
  it('reads an ordinal and the word for a district (district-number.ts)', () => {
    expect(answer('Paris 8e')).toBe('Paris 08|FR'); // was Paris, relevance 50
    expect(answer('Paris 1er')).toBe('Paris 01|FR');
    expect(answer('Paris 16ème')).toBe('Paris 16|FR');
    expect(answer('Paris VIIIe')).toBe('Paris 08|FR');
    expect(answer('Paris 8e arrondissement')).toBe('Paris 08|FR'); // was Altona, DE
    expect(answer('9e arrondissement, Paris')).toBe('Paris 09|FR'); // the district's part before the city's
    expect(answer('IXe arrondissement Paris')).toBe('Paris 09|FR'); // libpostal's French case
    expect(answer('Marseille 13e')).toBe('Marseille 13|FR');
  });
  it('reads the number as a Roman one where the place names write it so', () => {
    expect(answer('Budapest 11')).toBe('Budapest XI. kerület|HU'); // was Budapest, relevance 50
    expect(answer('Budapest 11. kerület')).toBe('Budapest XI. kerület|HU'); // was Brent, GB
    expect(answer('Wien 3. Bezirk')).toBe('Wien|AT'); // answered nothing
  });
  it("names Vienna's postcode of the district, whose digits are its number (district-number.ts)", () => {
    const zip = (address: string) => lookup(index, { address }).zip;
    expect(zip('Wien 3')).toBe('1030'); // was Wien, relevance 50
    expect(zip('3. Bezirk, Wien')).toBe('1030');
    expect(zip('Wien, 12. Bezirk')).toBe('1120');
    expect(zip('Wien Hauptstraße 3')).toBe(''); // a house number, not a district
  });
  it('is a house number anywhere else', () => {
    expect(answer('Hauptstraße 2')).toBe('|');
  });
});
