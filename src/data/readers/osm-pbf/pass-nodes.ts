/**
 * Pass 3, per node blob (worker side): writes the location of every needed node of the blob into
 * the shared NodeLocations arrays, and turns tagged nodes into address points and places. The
 * address points of nodes that lie on interpolation ways are also returned with their ids, for the
 * interpolation in pass 4. Dense nodes are walked column by column; no per-node object is made
 * except for the tagged nodes that yield a row.
 */
import type { AddressPoint } from '../../source-types.ts';
import { granularityOf, type PrimitiveBlock } from './proto.ts';
import { BlockStrings, hasFlaggedKey, type Tags } from './block-strings.ts';
import { addressOf, isPlace, NODE_KEYS, placeOf } from './elements.ts';
import { nanoToUnits, NodeLocations } from './node-locations.ts';
import { indexOfId } from './sorted-ids.ts';
import { addAddress, emptyRows, type RowBatch } from './row-batch.ts';

export interface NodesPassResult {
  rows: RowBatch;
  /** [node id, its address point] for address nodes on interpolation ways. */
  interpolationEnds: [number, AddressPoint][];
}

export function nodesPass(block: PrimitiveBlock, store: NodeLocations, interpolationNodes: Float64Array): NodesPassResult {
  const rows = emptyRows();
  const ends: [number, AddressPoint][] = [];
  const strings = new BlockStrings(block);
  const flags = strings.flags(NODE_KEYS);
  const g = granularityOf(block);
  const latOff = block.lat_offset, lonOff = block.lon_offset;
  // the old reader's degree arithmetic, kept so that emitted coordinates are bit-identical
  const granDeg = 1e-9 * g, latOffDeg = 1e-9 * latOff, lonOffDeg = 1e-9 * lonOff;
  const plainUnits = g === 100 && latOff === 0 && lonOff === 0;

  const tagged = (id: number, t: Tags, latRaw: number, lonRaw: number): void => {
    const lat = latOffDeg + granDeg * latRaw, lon = lonOffDeg + granDeg * lonRaw;
    if (t['addr:housenumber']) {
      const a = addressOf(t, lat, lon);
      addAddress(rows, a);
      if (interpolationNodes.length > 0 && indexOfId(interpolationNodes, id) >= 0) ends.push([id, a]);
    }
    if (isPlace(t)) rows.places.push(placeOf(t, lat, lon));
  };
  const locate = (id: number, latRaw: number, lonRaw: number): void => {
    const k = store.seek(id);
    if (k < 0) return;
    store.lat[k] = plainUnits ? latRaw : nanoToUnits(latOff + g * latRaw);
    store.lon[k] = plainUnits ? lonRaw : nanoToUnits(lonOff + g * lonRaw);
  };

  for (const grp of block.primitivegroup) {
    const d = grp.dense;
    if (d) {
      const kv = d.keys_vals;
      let id = 0, lat = 0, lon = 0, p = 0;
      for (let i = 0; i < d.id.length; i++) {
        id += d.id[i]!; lat += d.lat[i]!; lon += d.lon[i]!;
        locate(id, lat, lon);
        if (p >= kv.length) continue;
        // this node's (key, value)* 0 run starts at p
        const start = p;
        let interesting = false;
        while (p < kv.length && kv[p] !== 0) { if (flags[kv[p]!]) interesting = true; p += 2; }
        p++;
        if (interesting) tagged(id, strings.denseTags(kv, start), lat, lon);
      }
    }
    for (const n of grp.nodes) {
      locate(n.id, n.lat, n.lon);
      if (hasFlaggedKey(flags, n.keys)) tagged(n.id, strings.tags(n.keys, n.vals), n.lat, n.lon);
    }
  }
  return { rows, interpolationEnds: ends };
}
