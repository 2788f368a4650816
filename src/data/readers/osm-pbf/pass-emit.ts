/**
 * Pass 4, per way or relation blob (worker side): the rows that need geometry. Ways: street lines,
 * address points at the centroid of a building (or the mean of an open way), interpolated house
 * numbers. Relations: admin areas and address points of multipolygons, from rings assembled out of
 * the member ways that pass 2 kept. Coordinates come from the shared NodeLocations.
 *
 * Rejected (counted per reason): `way-missing-nodes` (none of a street's or address way's nodes
 * is in the file, or an interpolation way lacks any), `interpolation-unusable` (no two numbered end nodes to interpolate between),
 * `relation-missing-members` (none of the outer ways is in the file), `relation-unclosed-ring`
 * (the outer ways do not close into a ring), `address-without-street`.
 */
import type { AddressPoint } from '../../source-types.ts';
import { meanPoint, ringArea, ringCentroid } from '../../geo.ts';
import { interpolateAddresses } from '../interpolation.ts';
import type { PrimitiveBlock } from './proto.ts';
import { BlockStrings, hasFlaggedKey } from './block-strings.ts';
import { undelta } from './block-kinds.ts';
import { addressOf, adminOf, isAdmin, isOuterRole, isStreet, lineOf, RELATION_KEYS, WAY_KEYS, wantsRings } from './elements.ts';
import type { NodeLocations } from './node-locations.ts';
import { assembleRings } from './rings.ts';
import { MEMBER_WAY } from './pass-relations.ts';
import { addAddress, emptyRows, reject, type RowBatch } from './row-batch.ts';
import type { WayRefs } from './way-refs.ts';

export function emitPass(
  block: PrimitiveBlock, store: NodeLocations, memberWays: WayRefs, ends: ReadonlyMap<number, AddressPoint>,
): RowBatch {
  const rows = emptyRows();
  const strings = new BlockStrings(block);
  let wayFlags: Uint8Array | undefined, relFlags: Uint8Array | undefined;
  for (const g of block.primitivegroup) {
    for (const w of g.ways) {
      wayFlags ??= strings.flags(WAY_KEYS);
      if (!hasFlaggedKey(wayFlags, w.keys)) continue;
      const t = strings.tags(w.keys, w.vals);
      const street = isStreet(t), hn = !!t['addr:housenumber'], interp = t['addr:interpolation'];
      if (!street && !hn && !interp) continue;
      const refs = undelta(w.refs);
      const c: number[] = [];
      const missing = store.coordsOf(refs, c);
      if (street) {
        if (c.length >= 2) rows.lines.push(lineOf(t, c)); // one node is still a place on the street
        else reject(rows, 'way-missing-nodes');
      }
      if (hn) {
        if (c.length >= 2) {
          const closed = refs.length > 3 && refs[0] === refs[refs.length - 1];
          const [lat, lon] = closed ? ringCentroid(c.slice(0, -2)) : meanPoint(c);
          addAddress(rows, addressOf(t, lat, lon));
        } else reject(rows, 'way-missing-nodes');
      }
      if (interp) {
        if (missing > 0) { reject(rows, 'way-missing-nodes'); continue; }
        const pts = interpolateAddresses(refs, c, ends, interp);
        if (pts.length === 0) reject(rows, 'interpolation-unusable');
        for (const a of pts) addAddress(rows, a);
      }
    }
    for (const r of g.relations) {
      relFlags ??= strings.flags(RELATION_KEYS);
      if (!hasFlaggedKey(relFlags, r.keys)) continue;
      const t = strings.tags(r.keys, r.vals);
      if (!wantsRings(t)) continue;
      const memids = undelta(r.memids);
      const outer: number[][] = [];
      for (let i = 0; i < memids.length; i++) {
        if (r.types[i] !== MEMBER_WAY || !isOuterRole(strings.get(r.roles_sid[i] ?? 0))) continue;
        const refs = memberWays.get(memids[i]!);
        if (refs) outer.push(refs);
      }
      if (outer.length === 0) { reject(rows, 'relation-missing-members'); continue; }
      const rings = assembleRings(outer).map((ring) => { const c: number[] = []; store.coordsOf(ring, c); return c; }).filter((c) => c.length >= 8);
      if (rings.length === 0) { reject(rows, 'relation-unclosed-ring'); continue; }
      if (t['addr:housenumber']) {
        const largest = rings.reduce((a, c) => (ringArea(c) > ringArea(a) ? c : a));
        const [lat, lon] = ringCentroid(largest.slice(0, -2));
        addAddress(rows, addressOf(t, lat, lon));
      }
      if (isAdmin(t)) rows.admins.push(adminOf(t, rings));
    }
  }
  return rows;
}
