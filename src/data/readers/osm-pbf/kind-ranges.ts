/**
 * In a file sorted by type then id (header feature `Sort.Type_then_ID`, what osmium and Geofabrik
 * write) the blobs hold nodes, then ways, then relations. Two binary searches over the blobs find
 * where the ways and the relations start, so pass 1 decompresses about 2·log2(blobs) probes plus
 * the relation blobs instead of the whole file. The later passes check every block they decode
 * against the kinds assumed here (see `assumedKinds`), so a file that claims to be sorted and is
 * not fails with a clear error instead of yielding wrong rows.
 */
import { KIND_NODES, KIND_RELATIONS, KIND_WAYS } from './blob-file.ts';

/** First index in [lo, hi) where `pred` holds, for a predicate that is monotone over the blobs. */
async function firstWhere(lo: number, hi: number, pred: (i: number) => Promise<boolean>): Promise<number> {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (await pred(mid)) hi = mid; else lo = mid + 1;
  }
  return lo;
}

export interface KindRanges {
  /** first blob holding anything but nodes */
  waysFrom: number;
  /** first blob holding relations */
  relationsFrom: number;
}

/** `probe(i)` decodes blob i and returns its exact kinds (cached by the caller). */
export async function findKindRanges(count: number, probe: (i: number) => Promise<number>): Promise<KindRanges> {
  const waysFrom = await firstWhere(0, count, async (i) => ((await probe(i)) & ~KIND_NODES) !== 0);
  const relationsFrom = await firstWhere(waysFrom, count, async (i) => ((await probe(i)) & KIND_RELATIONS) !== 0);
  return { waysFrom, relationsFrom };
}

/** The kinds each blob holds by its position (exact where `probed` is set). */
export function assumedKinds(kinds: Uint8Array, probed: Uint8Array, count: number, r: KindRanges): void {
  for (let i = 0; i < count; i++) {
    if (probed[i]) continue;
    kinds[i] = i < r.waysFrom ? KIND_NODES : i < r.relationsFrom ? KIND_WAYS : KIND_RELATIONS;
  }
}
