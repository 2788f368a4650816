/**
 * Point countries and cities: a point without a country takes the nearest place's; a point
 * without a city takes its postcode's place name, else the nearest town-or-larger place of its
 * country within 10 km. The postcode answer depends on (postcode, country) only: cached.
 */
import { COORD_SCALE } from '../../../engine/index/format.ts';
import type { PointGrid } from '../../geo.ts';
import type { Place } from '../../source-types.ts';
import type { AdminIndex } from '../admin-index.ts';
import type { StringInterner } from '../interner.ts';
import { packCountry, unpackCountry, type PointStore } from '../point-store.ts';
import type { BuildProgress } from '../progress.ts';

export function fillCountriesAndCities(P: PointStore, S: StringInterner, placeGrid: PointGrid<Place>, admin: AdminIndex, pr: BuildProgress): void {
  const n = P.count;
  pr.phase('countries and cities', n);
  const cityByPc = new Map<number, number>();
  for (let i = 0; i < n; i++) {
    if ((i & 0xffff) === 0) pr.tick(i);
    const lat = P.lat.a[i]! / COORD_SCALE, lon = P.lon.a[i]! / COORD_SCALE;
    if (P.country.a[i] === 0) {
      const nb = placeGrid.nearest(lat, lon, 2);
      P.country.a[i] = nb ? packCountry(nb[0].country) : 0;
    }
    if (P.city.a[i] === 0) {
      const c = P.country.a[i]!, pc = P.postcode.a[i]!;
      const key = pc * 65536 + c;
      let city = pc ? cityByPc.get(key) : undefined;
      if (city === undefined) {
        const e = admin.postcodeEntry(unpackCountry(c), S.str(pc));
        if (e) city = S.intern(e.place);
        else {
          const cc = unpackCountry(c);
          const nb = placeGrid.nearest(lat, lon, 1, (p) => p.country === cc && p.type !== 'locality');
          city = nb && nb[1] < 10_000 ? S.intern(nb[0].name) : 0;
        }
        if (pc && e) cityByPc.set(key, city);
      }
      P.city.a[i] = city;
    }
  }
}
