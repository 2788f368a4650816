/** A place's postcode: the nearest namesake entry in the place's 0.1° cell and the eight around it, as a grid search over every entry gives. */
import { describe, expect, it } from 'vitest';
import { NamedPostcodes } from '../../../src/data/build/named-postcodes.ts';
import { PointGrid } from '../../../src/data/geo.ts';
import type { PostcodeEntry } from '../../../src/data/source-types.ts';
import { postcodeEntry } from './stages/rows.ts';

/** The search the place documents made before: a grid of every entry, one ring around, filtered. */
function gridNearest(entries: PostcodeEntry[], folds: string[], country: string, fold: string, lat: number, lon: number) {
  const grid = new PointGrid<{ e: PostcodeEntry; fold: string }>(0.1);
  entries.forEach((e, i) => grid.add(e.lat, e.lon, { e, fold: folds[i]! }));
  const nb = grid.nearest(lat, lon, 1, (x) => x.e.country === country && x.fold === fold);
  return nb && [nb[0].e, nb[1]];
}

describe('named postcodes', () => {
  it('finds the nearest namesake of the same country, not a nearer other place or a namesake abroad', () => {
    const entries = [
      postcodeEntry({ code: '9490', place: 'Vaduz', lat: 47.141, lon: 9.521 }),
      postcodeEntry({ code: '9494', place: 'Schaan', lat: 47.1405, lon: 9.5205 }),
      postcodeEntry({ code: '9999', place: 'Vaduz', country: 'CH', lat: 47.1406, lon: 9.5206 }),
      postcodeEntry({ code: '9491', place: 'Vaduz', lat: 47.3, lon: 9.6 }),
    ];
    const folds = ['vaduz', 'schaan', 'vaduz', 'vaduz'];
    const named = new NamedPostcodes(entries, folds, [['LI', 'vaduz']]);
    expect(named.nearest('LI', 'vaduz', 47.14, 9.52)?.[0].code).toBe('9490');
    expect(named.nearest('LI', 'schaan', 47.14, 9.52)).toBeUndefined(); // not asked for at construction
    expect(named.nearest('LI', 'vaduz', 48.5, 9.52)).toBeUndefined(); // no namesake in the nine cells
  });

  it('answers as the grid search over every entry, ties included, on random entries', () => {
    let seed = 11;
    const rnd = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
    const names = ['a', 'b', 'c'];
    const entries: PostcodeEntry[] = [], folds: string[] = [];
    for (let i = 0; i < 400; i++) {
      // coordinates on a coarse lattice, so that equal distances (ties) and cell edges occur
      const lat = 47 + Math.round(rnd() * 40) / 100, lon = 9 + Math.round(rnd() * 40) / 100;
      entries.push(postcodeEntry({ code: String(i), country: rnd() < 0.8 ? 'LI' : 'CH', lat, lon }));
      folds.push(names[Math.floor(rnd() * names.length)]!);
    }
    const wanted: [string, string][] = ['LI', 'CH'].flatMap((c) => names.map((n): [string, string] => [c, n]));
    const named = new NamedPostcodes(entries, folds, wanted);
    for (let q = 0; q < 300; q++) {
      const lat = 47 + Math.round(rnd() * 40) / 100, lon = 9 + Math.round(rnd() * 40) / 100;
      const [country, fold] = wanted[q % wanted.length]!;
      expect(named.nearest(country, fold, lat, lon), `${country} ${fold} ${lat} ${lon}`).toEqual(gridNearest(entries, folds, country, fold, lat, lon));
    }
  });
});
