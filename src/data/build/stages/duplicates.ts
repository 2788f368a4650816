/**
 * Duplicates across sources (build/dedup), only when two sources or more gave addresses: merged
 * points are marked in the returned `dead` column, and the winner takes the loser's other city
 * names and, when it differs, its city as another name.
 */
import { NAMES_US } from '../../../engine/index/format.ts';
import { mergeDuplicates } from '../dedup.ts';
import type { StringInterner } from '../interner.ts';
import type { PointStore } from '../point-store.ts';
import type { BuildProgress } from '../progress.ts';
import type { StringKeys } from '../string-keys.ts';

export function dropDuplicates(P: PointStore, S: StringInterner, keys: StringKeys, addressSources: number, pr: BuildProgress): { dead: Uint8Array; merged: number } {
  const dead = new Uint8Array(P.count);
  if (addressSources < 2) return { dead, merged: 0 };
  pr.phase('duplicates', P.count);
  const merged = mergeDuplicates(P, dead, {
    streetKey: (i) => keys.fold(P.street.a[i]!),
    hnKey: (i) => keys.houseNumber(P.hn.a[i]!),
    postcodeKey: (i) => keys.postcode(P.postcode.a[i]!),
    mergedAlternatives: (win, lose) => {
      const names = new Set<string>();
      for (const id of [P.alt.a[win]!, P.alt.a[lose]!]) if (id) for (const x of S.str(id).split(NAMES_US)) names.add(x);
      const lc = P.city.a[lose]!;
      if (lc && keys.fold(lc) !== keys.fold(P.city.a[win]!)) names.add(S.str(lc));
      names.delete('');
      return names.size ? S.intern([...names].join(NAMES_US)) : 0;
    },
  }, pr);
  return { dead, merged };
}
