/** The build stage point cities: a point's missing country and city from the places and postcode entries. */
import { describe, expect, it } from 'vitest';
import { AdminIndex } from '../../../../src/data/build/admin-index.ts';
import { unpackCountry } from '../../../../src/data/build/point-store.ts';
import { placeCountries } from '../../../../src/data/build/stages/place-countries.ts';
import { fillCountriesAndCities } from '../../../../src/data/build/stages/point-cities.ts';
import { intakeOf, place, postcodeEntry, pt, recorder } from './rows.ts';

describe('point countries and cities', () => {
  it('fills the country from the nearest place, the city from the postcode entry, else from the nearest town within 10 km', () => {
    const { S, intake } = intakeOf([
      pt({ country: '', city: '', postcode: '9490' }), // no country, postcode known: both filled
      pt({ city: '', postcode: '', lat: 47.166, lon: 9.511 }), // no postcode: nearest town (Schaan)
      pt({ city: '', postcode: '9999', lat: 47.166, lon: 9.511 }), // unknown postcode: nearest town too
      pt({ city: '', postcode: '', lat: 47.30, lon: 9.51 }), // nearest town 15 km away: none
      pt({ city: 'Vaduz', postcode: '9494' }), // has a city: kept
    ]);
    const places = [place({}), place({ name: 'Schaan', lat: 47.165, lon: 9.51 }), place({ name: 'Feld', type: 'locality', lat: 47.30, lon: 9.51 })];
    const grid = placeCountries(places);
    const admin = new AdminIndex([], [postcodeEntry({ code: '9490', place: 'Vaduz' }), postcodeEntry({ code: '9494', place: 'Schaan' })]);
    const pr = recorder();
    const P = intake.points!;
    fillCountriesAndCities(P, S, grid, admin, pr);
    expect(pr.phases).toEqual(['countries and cities']);
    expect(unpackCountry(P.country.a[0]!)).toBe('LI');
    expect([0, 1, 2, 3, 4].map((i) => S.str(P.city.a[i]!))).toEqual(['Vaduz', 'Schaan', 'Schaan', '', 'Vaduz']);
  });
});
