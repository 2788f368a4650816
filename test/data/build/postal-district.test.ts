/** Postal place names that are a city and its part: per country, as data. */
import { describe, expect, it } from 'vitest';
import { postalCityAndDistrict } from '../../../src/data/build/postal-district.ts';

describe('postalCityAndDistrict', () => {
  it('splits AT postal names into the city and its part', () => {
    expect(postalCityAndDistrict('AT', 'Wien, Innere Stadt')).toEqual(['Wien', 'Innere Stadt']);
    expect(postalCityAndDistrict('AT', 'Klagenfurt,08.Bez.:Villacher Vorstadt')).toEqual(['Klagenfurt', 'Villacher Vorstadt']);
    expect(postalCityAndDistrict('AT', 'Graz')).toEqual(['Graz', '']);
  });
  it('leaves other countries\' commas alone (ES: an article after the name, AR: parentheses)', () => {
    expect(postalCityAndDistrict('ES', 'Nudos, Los (Tabernas)')).toEqual(['Nudos, Los (Tabernas)', '']);
    expect(postalCityAndDistrict('AR', 'MIRAFLORES (TALA, DPTO. CANDELARIA)')).toEqual(['MIRAFLORES (TALA, DPTO. CANDELARIA)', '']);
  });
});
