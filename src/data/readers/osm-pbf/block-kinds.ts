/** Which kinds of element a decoded block holds (see KIND_* in blob-file.ts). */
import type { PrimitiveBlock } from './proto.ts';
import { KIND_NODES, KIND_RELATIONS, KIND_WAYS } from './blob-file.ts';

export function blockKinds(block: PrimitiveBlock): number {
  let k = 0;
  for (const g of block.primitivegroup) {
    if (g.nodes.length > 0 || g.dense) k |= KIND_NODES;
    if (g.ways.length > 0) k |= KIND_WAYS;
    if (g.relations.length > 0) k |= KIND_RELATIONS;
  }
  return k;
}

/** Un-delta a delta-coded list (way refs, relation member ids). */
export function undelta(d: readonly number[]): number[] {
  const out = new Array<number>(d.length);
  let v = 0;
  for (let i = 0; i < d.length; i++) { v += d[i]!; out[i] = v; }
  return out;
}
