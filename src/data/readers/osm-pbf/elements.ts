/**
 * OSM element (tags + geometry) → index source rows: the meaning of the tags, shared by every pass.
 * Pure functions; the passes decide when they run.
 *
 * - address points: any element with `addr:housenumber` and a street (`addr:street`, or
 *   `addr:place` for addresses named after a place); without one it is rejected
 *   (`address-without-street`): the index groups addresses by street and cannot use it;
 * - places: nodes with a `place` of the kinds below and a `name`;
 * - street lines: ways with `highway` and `name`;
 * - admin areas: relations with `boundary=administrative`, `admin_level` and `name`.
 */
import type { AddressPoint, AdminArea, Place, StreetLine } from '../../source-types.ts';
import { keySet, type Tags } from './block-strings.ts';

export const PLACE_TYPES = new Set(['city', 'town', 'village', 'hamlet', 'suburb', 'locality', 'neighbourhood', 'quarter', 'isolated_dwelling', 'borough']);

/** Keys that make a node worth building tags for. */
export const NODE_KEYS = keySet(['addr:housenumber', 'place']);
/** Keys that make a way worth building tags for. */
export const WAY_KEYS = keySet(['highway', 'addr:housenumber', 'addr:interpolation']);
/** Keys that make a relation worth building tags for. */
export const RELATION_KEYS = keySet(['boundary', 'addr:housenumber']);

export function localNames(tags: Tags): Record<string, string> | undefined {
  let out: Record<string, string> | undefined;
  for (const k in tags) {
    if (k.length !== 7 || !k.startsWith('name:')) continue;
    const m = /^name:([a-z]{2})$/.exec(k);
    if (m) (out ??= {})[m[1]!] = tags[k]!;
  }
  return out;
}

export function countryTag(tags: Tags): string {
  const c = (tags['addr:country'] ?? '').trim().toUpperCase();
  return /^[A-Z]{2}$/.test(c) ? c : '';
}

export function addressOf(tags: Tags, lat: number, lon: number): AddressPoint {
  return {
    country: countryTag(tags),
    street: tags['addr:street'] || tags['addr:place'] || '',
    housenumber: tags['addr:housenumber'] ?? '',
    postcode: tags['addr:postcode'] ?? '',
    city: (tags['addr:city'] ?? '').replace(/\s*\((FL|LI)\)\s*$/, ''),
    district: tags['addr:suburb'] ?? '',
    lat, lon,
  };
}

export function isPlace(tags: Tags): boolean {
  return !!tags.place && PLACE_TYPES.has(tags.place) && !!tags.name;
}

export function placeOf(tags: Tags, lat: number, lon: number): Place {
  const names = localNames(tags);
  return {
    country: countryTag(tags), name: tags.name!, lat, lon,
    population: Number(tags.population) || 0, type: tags.place!, ...(names ? { names } : {}),
    ...(tags.capital && SEATS[tags.capital] ? { seat: SEATS[tags.capital] } : {}),
  };
}

/**
 * OSM's `capital` tag → the place's seat (Place.seat): `yes`/`2` a national capital, `4` the seat
 * of a first-level division (a state's capital), `5`/`6` of a second-level one.
 */
const SEATS: Record<string, number> = { yes: 1, 2: 1, 4: 2, 5: 3, 6: 3 };

export function isStreet(tags: Tags): boolean {
  return !!tags.highway && !!tags.name;
}

export function lineOf(tags: Tags, coords: number[]): StreetLine {
  const names = localNames(tags);
  return { name: tags.name!, coords: Float64Array.from(coords), ...(names ? { names } : {}) };
}

export function isAdmin(tags: Tags): boolean {
  return tags.boundary === 'administrative' && !!tags.admin_level && !!tags.name;
}

/** Relations whose outer member ways the build needs. */
export function wantsRings(tags: Tags): boolean {
  return isAdmin(tags) || !!tags['addr:housenumber'];
}

/** Member roles that make a way part of the outer boundary. */
export function isOuterRole(role: string): boolean {
  return role === 'outer' || role === '';
}

export function adminOf(tags: Tags, rings: number[][]): AdminArea {
  let minLon = Infinity, minLat = Infinity, maxLon = -Infinity, maxLat = -Infinity;
  for (const c of rings) for (let i = 0; i < c.length; i += 2) {
    minLon = Math.min(minLon, c[i]!); maxLon = Math.max(maxLon, c[i]!);
    minLat = Math.min(minLat, c[i + 1]!); maxLat = Math.max(maxLat, c[i + 1]!);
  }
  const iso = tags['ISO3166-2'] ?? '';
  const names = localNames(tags);
  return {
    country: (tags['ISO3166-1'] ?? iso.split('-')[0] ?? '').toUpperCase(), level: Number(tags.admin_level) || 0,
    name: tags.name!, iso, rings: rings.map((c) => Float64Array.from(c)), bbox: [minLon, minLat, maxLon, maxLat],
    ...(names ? { names } : {}),
  };
}
