/** The build stage place countries: a place without a country takes the nearest place's with one. */
import { describe, expect, it } from 'vitest';
import { placeCountries } from '../../../../src/data/build/stages/place-countries.ts';
import { place } from './rows.ts';

describe('place countries', () => {
  it('fills a missing country from the nearest place that has one, and leaves a place with no neighbour alone', () => {
    const places = [
      place({ name: 'Schaan', country: 'LI', lat: 47.165, lon: 9.51 }),
      place({ name: 'Buchs', country: 'CH', lat: 47.167, lon: 9.48 }),
      place({ name: 'Planken', country: '', lat: 47.185, lon: 9.545 }),
      place({ name: 'Far away', country: '', lat: 10, lon: 10 }),
    ];
    const grid = placeCountries(places);
    expect(places.map((p) => p.country)).toEqual(['LI', 'CH', 'LI', '']);
    // the grid answers with the places that have a country, the filled one included
    expect(grid.nearest(47.185, 9.545, 1)![0].name).toBe('Planken');
    expect(grid.nearest(10, 10, 2)).toBeUndefined();
  });
});
