import { describe, expect, it } from 'vitest';
import { findPostcodes, normalisePostcode, postcodeCountries, postcodeKeysToTry, postcodeSpellings } from '../../../../src/engine/lookup/parse/postcodes.ts';
import { subdivisionName } from '../../../../src/engine/lookup/record/subdivisions.ts';
import { hintOf, hintedCountries, letterCountries, streetWordEvidence } from '../../../../src/engine/lookup/named-place/street-countries.ts';

describe('postcodes by country shape', () => {
  it('recognises codes written in parts, with the countries whose shape they have', () => {
    const f = (t: string) => findPostcodes(t).map((p) => [p.key, p.countries.includes('NL') || p.countries.includes('PL') || p.countries.includes('GB') || p.countries.includes('PT')]);
    expect(f('Kerkstraat 12, 1017 GC Amsterdam')).toEqual([['1017gc', true]]);
    expect(f('ul. Marszałkowska 10, 00-590 Warszawa')).toEqual([['00590', true]]);
    expect(f('Baker Street 221b, London NW1 6XE')).toEqual([['nw16xe', true]]);
    expect(f('Rua Augusta 100, 1100-053 Lisboa')).toEqual([['1100053', true]]);
  });
  it('keeps street numbers and directions out of two-part codes', () => {
    expect(findPostcodes('1900 SE F ST, SAN FRANCISCO').map((p) => p.raw)).toEqual(['1900']);
    expect(postcodeCountries('123 MAIN')).toEqual([]); // IE's loose shape, refused by the stricter rule
  });
  it('drops a country letter prefix ("D-10115") and keeps LV\'s own', () => {
    expect(findPostcodes('D-10115 Berlin')[0]!.key).toBe('10115');
    expect(findPostcodes('LV-1050 Rīga')[0]!.key).toBe('lv1050');
  });
  it('reads the country a prefix names: the code is that country\'s only', () => {
    expect(postcodeCountries('D-10115')).toEqual(['DE']); // 10115 alone: DE, EE, RO…
    expect(postcodeCountries('DE-10115')).toEqual(['DE']);
    expect(postcodeCountries('L-1511')).toEqual(['LU']); // never Ljubljana's 1511
    expect(postcodeCountries('SLO-1000')).toEqual(['SI']);
    expect(postcodeCountries('LT-01100')).toEqual(['LT']);
    expect(postcodeCountries('NL-4011')).toEqual(['NL']); // the four digits NL's data holds alone
    expect(postcodeCountries('D-1234')).toEqual([]); // not DE's shape
    expect(postcodeCountries('10115').length).toBeGreaterThan(1);
  });
  it('spells LU\'s codes as its post and data do, `L-1508`', () => {
    expect(postcodeSpellings('LU', '1508')).toEqual(['l1508']);
    expect(postcodeSpellings('DE', '1508')).toEqual([]);
  });
  it('reads Malta\'s codes written in two parts, as the post writes them (capitals)', () => {
    expect(findPostcodes('Old Bakery Street 198, VLT 1455 Valletta').map((p) => [p.key, p.countries])).toEqual([['vlt1455', ['MT']]]);
    expect(findPostcodes('Rue de la 1re DFL 31, 90200 Giromagny').map((p) => p.key)).toEqual(['90200']);
    expect(findPostcodes('Avenue Napoleon III 28, 20110 Propriano').map((p) => p.key)).toEqual(['20110']);
    expect(findPostcodes('Via 12, Roma').map((p) => p.key)).toEqual([]);
  });
  it('reads only the letter groups Malta\'s codes use: an Australian state before its postcode is no Maltese code', () => {
    expect(findPostcodes('Sydney NSW 2000').map((p) => [p.key, p.countries.includes('AU')])).toEqual([['2000', true]]);
    expect(findPostcodes('Melbourne VIC 3000').map((p) => p.key)).toEqual(['3000']);
    expect(findPostcodes('Triq il-Kbira, Mosta MST 1010').map((p) => p.key)).toEqual(['mst1010']);
  });
  it('reads Malta\'s letters in lower case when the whole text is written so, not in a text that writes capitals', () => {
    expect(findPostcodes('12 triq il-kbira, msida msd 1234').map((p) => [p.key, p.countries])).toEqual([['msd1234', ['MT']]]);
    expect(findPostcodes('Triq il-Kbira 12, msd 1234').map((p) => p.key)).toEqual(['1234']);
    // a date in a street's name is none
    expect(findPostcodes('4 place du 8 mai 1945 25000 besancon').map((p) => p.key)).toEqual(['1945', '25000']);
    // nor a street and its house number before the postcode
    expect(findPostcodes('chemin du col 2040, 05100 briancon').map((p) => p.key)).toEqual(['2040', '05100']);
  });
  it('normalises for the country, or gives nothing when invalid there', () => {
    expect(normalisePostcode('NL', '1017gc')).toBe('1017 GC');
    expect(normalisePostcode('GB', 'nw16xe')).toBe('NW1 6XE');
    expect(normalisePostcode('DE', '1017')).toBe('');
  });
  it('tries the longest known prefix where the data knows only part of a code', () => {
    expect(postcodeKeysToTry('GB', 'nw16xe')).toEqual(['nw16xe', 'nw16', 'nw1', 'nw']);
    expect(postcodeKeysToTry('NL', '1017gc')).toEqual(['1017gc', '1017']);
    expect(postcodeKeysToTry('DE', '10115')).toEqual(['10115']);
  });
});

describe('subdivision names and street hints', () => {
  it('names a state in English from the pinned CLDR table, in other languages where address-formatting has the name, nothing otherwise', () => {
    expect(subdivisionName('DE-BY', 'en')).toBe('Bavaria');
    // the local name, in a country with one official language
    expect(subdivisionName('DE-BY', 'de-AT')).toBe('Bayern');
    // alt_xx names of a multilingual country
    expect(subdivisionName('CH-GE', 'de')).toBe('Genf');
    expect(subdivisionName('CH-GE', 'fr')).toBe('Genève');
    expect(subdivisionName('CA-QC', 'fr')).toBe('Québec');
    // no name in that language anywhere: nothing (the caller keeps the local name), never a guess
    expect(subdivisionName('DE-BY', 'fi')).toBe('');
    expect(subdivisionName('LV-RIX', 'de')).toBe('');
  });
  it('points a street type word to its countries', () => {
    expect([...hintedCountries(streetWordEvidence(['vesterbrogade']))]).toEqual(['DK']);
    expect(hintedCountries(streetWordEvidence(['triq', 'il', 'wilga'])).has('MT')).toBe(true);
    expect(hintedCountries(streetWordEvidence(['main'])).size).toBe(0);
  });
  it('points distinctive letters to the languages that write them; the letters outweigh a borrowed type word', () => {
    expect([...letterCountries('Sjælør Boulevard')]).toEqual(['DK']);
    expect([...letterCountries('Triq San Ġorġ')]).toEqual(['MT']);
    expect([...letterCountries('ul. Żwirki i Wigury, Łódź')]).toEqual(['PL']);
    expect(letterCountries('Rue de la Paix, Genève').size).toBe(0);
    expect(letterCountries('Rue de la Côte Blanche').size).toBe(0);
    expect([...hintOf(streetWordEvidence(['sonder', 'boulevard']), letterCountries('Sønder Boulevard'))]).toEqual(['DK']);
    expect(hintOf(streetWordEvidence(['rue', 'de', 'la', 'paix']), letterCountries('Rue de la Paix')).has('FR')).toBe(true);
  });
});
