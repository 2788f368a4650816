/**
 * The same address from two sources becomes one (points of one source are that source's own
 * business and are all kept): same country, same folded street, same
 * house-number key, the same postcode (or none on one side) and at most 100 m apart. Points are
 * grouped by (country, street, number) with a typed hash and a counting sort, and each group is
 * swept in latitude order, so only points within 100 m north-south are compared. The point of the
 * source given first wins; each field it lacks (postcode, city, district, unit) is taken from the
 * point merged into it, and the other point's city names become other names of the winner's
 * city (still matched, as BAN's old commune names are).
 */
import { COORD_SCALE } from '../../engine/index/format.ts';
import { distanceMeters } from '../geo.ts';
import { orderByGroup, TripleGrouper } from './grouping.ts';
import type { PointStore } from './point-store.ts';

export const DEDUP_METERS = 100;
const LAT_WINDOW = Math.ceil((DEDUP_METERS / 111_000) * COORD_SCALE) + 1;

export interface DedupKeys {
  streetKey(i: number): number;
  hnKey(i: number): number;
  postcodeKey(i: number): number;
  /** The winner's other-city-names id after taking the loser's city and other names. */
  mergedAlternatives(win: number, lose: number): number;
}

/** Marks merged points in `dead` (1) and returns how many were merged. */
export function mergeDuplicates(P: PointStore, dead: Uint8Array, keys: DedupKeys, progress?: { tick(n: number): void }): number {
  const n = P.count;
  const grouper = new TripleGrouper(Math.max(1024, n >>> 1));
  const group = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    if ((i & 0xffff) === 0) progress?.tick(i >>> 1);
    group[i] = dead[i] ? -1 : grouper.id(P.country.a[i]!, keys.streetKey(i), keys.hnKey(i));
  }
  const groups = grouper.count;
  grouper.dropTable();
  const { start, order } = orderByGroup(group, groups);
  const lat = P.lat.a, lon = P.lon.a;
  let merged = 0;
  let members = new Uint32Array(64);
  const byLat = (x: number, y: number) => lat[x]! - lat[y]! || x - y;
  for (let g = 0; g < groups; g++) {
    if ((g & 0xffff) === 0) progress?.tick((n >>> 1) + Math.floor((g / groups) * (n >>> 1)));
    const s = start[g]!, e = start[g + 1]!, k = e - s;
    if (k < 2) continue;
    if (members.length < k) members = new Uint32Array(k * 2);
    const m = members.subarray(0, k);
    m.set(order.subarray(s, e));
    m.sort(byLat);
    for (let a = 0; a < k; a++) {
      let i = m[a]!;
      if (dead[i]) continue;
      for (let b = a + 1; b < k; b++) {
        const j = m[b]!;
        if (lat[j]! - lat[i]! > LAT_WINDOW) break;
        if (dead[j] || P.source.a[i] === P.source.a[j]) continue;
        const pi = keys.postcodeKey(i), pj = keys.postcodeKey(j);
        if (pi && pj && pi !== pj) continue;
        if (distanceMeters(lat[i]! / COORD_SCALE, lon[i]! / COORD_SCALE, lat[j]! / COORD_SCALE, lon[j]! / COORD_SCALE) > DEDUP_METERS) continue;
        const [win, lose] = P.source.a[j]! < P.source.a[i]! ? [j, i] : [i, j];
        P.alt.a[win] = keys.mergedAlternatives(win, lose);
        for (const c of [P.postcode, P.city, P.district, P.unit]) if (c.a[win] === 0) c.a[win] = c.a[lose]!;
        dead[lose] = 1;
        merged++;
        if (win === j) { i = j; }
      }
    }
  }
  return merged;
}
