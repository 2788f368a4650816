/** House-number order: the rank of every live house-number key by its text, the order of the addresses in a street document. */
import type { StringInterner } from '../interner.ts';
import type { PointStore } from '../point-store.ts';
import type { StringKeys } from '../string-keys.ts';

/** Rank by house-number key id (a sparse column: ids that are not live keys are 0). */
export function houseNumberRanks(P: PointStore, dead: Uint8Array, S: StringInterner, keys: StringKeys): Uint32Array {
  const seen = new Set<number>();
  for (let i = 0; i < P.count; i++) if (!dead[i]) seen.add(keys.houseNumber(P.hn.a[i]!));
  const ids = [...seen];
  const text = new Map(ids.map((id) => [id, S.str(id)]));
  ids.sort((a, b) => { const x = text.get(a)!, y = text.get(b)!; return x < y ? -1 : x > y ? 1 : 0; });
  let max = 0;
  for (const id of ids) if (id > max) max = id;
  const rank = new Uint32Array(max + 1);
  ids.forEach((id, r) => { rank[id] = r; });
  return rank;
}
