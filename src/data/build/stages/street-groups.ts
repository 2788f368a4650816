/**
 * Street groups: the live points grouped by (country, folded street, folded city) with a typed
 * hash (build/grouping), then ordered by group with a counting sort. The grouper stays open: the
 * line-only streets look their groups up in it.
 */
import { orderByGroup, TripleGrouper } from '../grouping.ts';
import type { PointStore } from '../point-store.ts';
import type { BuildProgress } from '../progress.ts';
import type { StringKeys } from '../string-keys.ts';

export interface StreetGroups {
  grouper: TripleGrouper;
  /** Groups of points (the grouper may get more, from lines, later). */
  count: number;
  /** count + 1 offsets into `order`. */
  start: Uint32Array;
  /** Point indexes, group by group, in input order inside a group (dead points left out). */
  order: Uint32Array;
}

export function groupStreets(P: PointStore, dead: Uint8Array, keys: StringKeys, pr: BuildProgress): StreetGroups {
  const n = P.count;
  pr.phase('street grouping', n);
  const grouper = new TripleGrouper(Math.max(1024, n >>> 3));
  const docOf = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    if ((i & 0xffff) === 0) pr.tick(i);
    docOf[i] = dead[i] ? -1 : grouper.id(P.country.a[i]!, keys.fold(P.street.a[i]!), keys.fold(P.city.a[i]!));
  }
  const count = grouper.count;
  const { start, order } = orderByGroup(docOf, count);
  return { grouper, count, start, order };
}
