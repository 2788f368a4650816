/** OSM place tags → a Place: population, type, name:xx names and the seat of government from `capital`. */
import { describe, expect, it } from 'vitest';
import { placeOf } from '../../../src/data/readers/osm-pbf/elements.ts';

describe('placeOf', () => {
  it('reads the seat of government from `capital` (yes/2 national, 4 first level, 5/6 second level)', () => {
    const seat = (capital?: string) => placeOf({ place: 'city', name: 'X', ...(capital ? { capital } : {}) }, 0, 0).seat;
    expect([seat('yes'), seat('2'), seat('4'), seat('5'), seat('6'), seat('8'), seat('no'), seat()]).toEqual([1, 1, 2, 3, 3, undefined, undefined, undefined]);
  });
  it('keeps population and the names per language', () => {
    const p = placeOf({ place: 'town', name: 'Vaduz', population: '5700', 'name:de': 'Vaduz', 'name:rm': 'Vaduz Cità', capital: 'yes' }, 47.14, 9.52);
    expect(p).toMatchObject({ name: 'Vaduz', population: 5700, type: 'town', seat: 1, names: { de: 'Vaduz', rm: 'Vaduz Cità' } });
  });
});
