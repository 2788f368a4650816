/**
 * Place countries: a place without a country takes the country of the nearest place that has one
 * (within two grid rings). Returns the grid of the places with a country, which the later stages
 * ask for a point's country and city.
 */
import { PointGrid } from '../../geo.ts';
import type { Place } from '../../source-types.ts';

export function placeCountries(places: Place[]): PointGrid<Place> {
  const placeGrid = new PointGrid<Place>(0.25);
  for (const p of places) if (p.country) placeGrid.add(p.lat, p.lon, p);
  for (const p of places) {
    if (p.country) continue;
    const nb = placeGrid.nearest(p.lat, p.lon, 2);
    if (nb) { p.country = nb[0].country; placeGrid.add(p.lat, p.lon, p); }
  }
  return placeGrid;
}
