/**
 * The words of a query's street that tell streets apart. "Allée", "Rue", "des", "de", "la" and
 * "Saint" each name a large share of a country's streets; "Chardonnerets" or "Bouleaux" name a
 * few. A street is not the answer to a street the index does not hold merely because both are
 * an "Allée des …": a street answer must explain one of these words when the query has one that
 * it leaves unexplained (choose.ts), unless its name is a misspelling of it. What counts as common is read from the index (the share of
 * its street documents holding the word), so the rule needs no word list per language.
 */
import type { AddressIndex } from '../index/index.ts';
import type { TokenMatch } from './candidates.ts';
import type { ParsedQuery } from './parse.ts';
import { streetShare } from './place-docs.ts';

/**
 * A word held by at least this share of the street documents does not tell streets apart. At
 * national size (2.6M street documents of France): "rue" 55 %, "de" 33 %, "saint" 13 %, "allée"
 * 2.5 %, "jean" 2.6 % are common; "église" 1.6 %, "tilleuls" 0.3 %, "chardonnerets" 0.07 % are not.
 */
export const COMMON_STREET_SHARE = 0.02;

/**
 * The query tokens (bit i = token i) of the street or free-text fields that tell streets apart:
 * not a number (a house number may stand in the street field), held by the index as written or
 * expanded, and in none of those forms a common street word. A word the index does not hold at
 * all is not one: it may be a typo, or an addition no street has ("Hauptstraße 4, Hinterhaus"),
 * and the street that explains the rest stays the answer. Typo matches play no part. Computed
 * once per query.
 */
export function distinctiveStreetWords(index: AddressIndex, q: ParsedQuery, matches: TokenMatch[][]): number {
  let mask = masks.get(q);
  if (mask === undefined) masks.set(q, (mask = distinctiveOf(index, q, matches)));
  return mask;
}

const masks = new WeakMap<ParsedQuery, number>();

function distinctiveOf(index: AddressIndex, q: ParsedQuery, matches: TokenMatch[][]): number {
  let mask = 0;
  for (let i = 0; i < q.tokens.length && i < 32; i++) {
    const t = q.tokens[i]!;
    if ((t.field !== 'street' && t.field !== 'free') || t.hnLike || /^\d+$/.test(t.text)) continue;
    let known = false, common = false;
    for (const m of matches[i]!) {
      if (m.kind === 'typo') continue;
      known = true;
      if (streetShare(index, m.tok) >= COMMON_STREET_SHARE) { common = true; break; }
    }
    if (known && !common) mask |= 1 << i;
  }
  return mask >>> 0;
}
