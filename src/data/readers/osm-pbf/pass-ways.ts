/**
 * Pass 2, per way blob (worker side): which node ids the build will need (every node of an
 * address, street or interpolation way and of the ways marked by pass 1), the node lists of the
 * marked ways (kept for the relations), and the nodes of interpolation ways (whose address tags
 * the node pass keeps). Everything leaves as typed arrays.
 */
import type { PrimitiveBlock } from './proto.ts';
import { BlockStrings, hasFlaggedKey } from './block-strings.ts';
import { isStreet, WAY_KEYS } from './elements.ts';
import { indexOfId } from './sorted-ids.ts';
import type { WayRefsPart } from './way-refs.ts';

export interface WaysPassResult {
  neededNodes: Float64Array;
  interpolationNodes: Float64Array;
  members: WayRefsPart;
}

export function waysPass(block: PrimitiveBlock, markedWays: Float64Array): WaysPassResult {
  const strings = new BlockStrings(block);
  const flags = strings.flags(WAY_KEYS);
  const needed: number[] = [];
  const interp: number[] = [];
  const mIds: number[] = [], mOffsets: number[] = [0], mRefs: number[] = [];
  for (const g of block.primitivegroup) {
    for (const w of g.ways) {
      let wanted = false, interpolation = false;
      if (hasFlaggedKey(flags, w.keys)) {
        const t = strings.tags(w.keys, w.vals);
        interpolation = !!t['addr:interpolation'];
        wanted = isStreet(t) || !!t['addr:housenumber'] || interpolation;
      }
      const marked = markedWays.length > 0 && indexOfId(markedWays, w.id) >= 0;
      if (!wanted && !marked) continue;
      let ref = 0;
      for (let i = 0; i < w.refs.length; i++) {
        ref += w.refs[i]!;
        needed.push(ref);
        if (interpolation) interp.push(ref);
        if (marked) mRefs.push(ref);
      }
      if (marked) { mIds.push(w.id); mOffsets.push(mRefs.length); }
    }
  }
  return {
    neededNodes: Float64Array.from(needed),
    interpolationNodes: Float64Array.from(interp),
    members: { ids: Float64Array.from(mIds), offsets: Float64Array.from(mOffsets), refs: Float64Array.from(mRefs) },
  };
}
