/**
 * Stage 9 (named place): how important the place is that a postal place is named after. A code
 * the post gives several places (FR 48000: Mende, Badaroux and three more; AT 3500: Krems an der
 * Donau and Egelsee), asked alone (`{zip: "48000", country: "FR"}`, `3500, Austria`), names none
 * of them: the answer is the code's main place, the one named after the most important place
 * (its rank: population, weighted for a seat), not the first in the data's order.
 *
 * The namesake is a place document of the same country with the same name (folded, without a
 * bracketed qualifier) within NAMESAKE_METERS of the postal place's point; found among the place
 * postings of the name's rarest word. The answer is a function of the index alone: it is kept per
 * index in a table of bounded size, since the same codes come back in a stream of addresses.
 */
import { DOC_PLACE } from '../../index/format.ts';
import type { AddressIndex } from '../../index/index.ts';
import { foldedName } from './name-words.ts';
import { placeDocs } from './place-docs.ts';

/** A place this far from a postal place of its name is another place of that name. */
const NAMESAKE_METERS = 15_000;
/** Postal places whose namesake rank is kept, per index (a Map entry each; cleared when full). */
const CACHE_MAX = 1 << 16;

const caches = new WeakMap<AddressIndex, Map<number, number>>();

/** The rank of the place postal place `doc` is named after (0 when the index holds none near it). */
export function namesakeRank(index: AddressIndex, doc: number): number {
  let cache = caches.get(index);
  if (!cache) caches.set(index, (cache = new Map()));
  let rank = cache.get(doc);
  if (rank === undefined) {
    rank = findNamesakeRank(index, doc);
    if (cache.size >= CACHE_MAX) cache.clear();
    cache.set(doc, rank);
  }
  return rank;
}

function findNamesakeRank(index: AddressIndex, doc: number): number {
  const words = foldedName(index, doc);
  if (words.length === 0) return 0;
  let rarest = -1;
  for (const w of words) {
    const tok = index.tokenId(w);
    if (tok < 0) return 0;
    if (rarest < 0 || index.postingCount(tok) < index.postingCount(rarest)) rarest = tok;
  }
  const c = index.c;
  const city = c.docCity[doc]!, country = c.docCountry[doc]!;
  let name: string | undefined;
  let best = 0;
  for (const d of placeDocs(index, rarest)) {
    if (c.docKind[d] !== DOC_PLACE || c.docCountry[d] !== country || c.docRank[d]! <= best) continue;
    if (index.docDistance(doc, d) > NAMESAKE_METERS) continue;
    // (the same string is the same name; another is folded to compare)
    if (c.docCity[d] !== city && foldedName(index, d).join(' ') !== (name ??= words.join(' '))) continue;
    best = c.docRank[d]!;
  }
  return best;
}
