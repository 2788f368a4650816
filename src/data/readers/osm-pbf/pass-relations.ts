/**
 * Pass 1, per blob (worker side): the blob's element kinds, and the ids of the ways that the
 * boundary and address relations of the blob use as outer members. Node and way payloads are not
 * even decoded (relations-only view of the schema).
 */
import type { PrimitiveBlock } from './proto.ts';
import { BlockStrings, hasFlaggedKey } from './block-strings.ts';
import { blockKinds } from './block-kinds.ts';
import { isOuterRole, RELATION_KEYS, wantsRings } from './elements.ts';

/** Relation member type WAY (osmformat.proto, Relation.MemberType). */
export const MEMBER_WAY = 1;

export interface RelationsPassResult {
  kinds: number;
  memberWays: Float64Array;
}

export function relationsPass(block: PrimitiveBlock): RelationsPassResult {
  const kinds = blockKinds(block);
  const ways: number[] = [];
  const strings = new BlockStrings(block);
  let flags: Uint8Array | undefined;
  for (const g of block.primitivegroup) {
    for (const r of g.relations) {
      flags ??= strings.flags(RELATION_KEYS);
      if (!hasFlaggedKey(flags, r.keys)) continue;
      if (!wantsRings(strings.tags(r.keys, r.vals))) continue;
      let id = 0;
      for (let i = 0; i < r.memids.length; i++) {
        id += r.memids[i]!;
        if (r.types[i] === MEMBER_WAY && isOuterRole(strings.get(r.roles_sid[i] ?? 0))) ways.push(id);
      }
    }
  }
  return { kinds, memberWays: Float64Array.from(ways) };
}
