/**
 * The words of a query's street that tell streets apart. "Allée", "Rue", "des", "de", "la" and
 * "Saint" each name a large share of a country's streets; "Chardonnerets" or "Bouleaux" name a
 * few. A street is not the answer to a street the index does not hold merely because both are
 * an "Allée des …" (choose.ts): when the query leaves such a word unexplained, explains none of
 * them, and the street has such a word of its own that the query does not name ("Allée des
 * Bouleaux" for "Allée des Chardonnerets"), the two are different streets, unless the street's
 * name is a misspelling of the query's word. What counts as common is read from the index (the
 * share of its street documents that hold the word), so the rule needs no word list per
 * language.
 */
import { ROLE_NAME } from '../../index/format.ts';
import type { AddressIndex } from '../../index/index.ts';
import type { QueryBits } from '../match/query-bits.ts';
import type { TokenMatch } from '../match/token-match.ts';
import { streetDocCount, streetPostings } from '../named-place/place-docs.ts';
import type { ParsedQuery } from '../parse/parse.ts';

/**
 * A word held by at least this share of the street documents does not tell streets apart. At
 * national size (2.6M street documents of France): "rue" 55 %, "de" 33 %, "saint" 13 %, "jean"
 * 2.6 %, "allée" 2.5 %, "église" 1.6 %, "pierre" 1.5 % are common; "gare" 0.6 %, "tilleuls"
 * 0.3 %, "chardonnerets" 0.07 % are not. (At 2 %, "allée" fell on either side of the line in an
 * index of three départements, and "Rue Pierre Brossolette" answered "Rue Pierre Curie".)
 */
export const COMMON_STREET_SHARE = 0.01;

/**
 * Whether at least COMMON_STREET_SHARE of the street documents hold the token (places and
 * postcode areas do not count), and it is not a town's name: a word that names a few places
 * ("Valdoie", "Belfort") is held by every street of those towns as their city, which says
 * nothing of how many streets it names ("Rue de Valdoie").
 */
export function commonWord(index: AddressIndex, tok: number): boolean {
  let known = commonness.get(index);
  if (!known) commonness.set(index, (known = new Map()));
  let common = known.get(tok);
  if (common === undefined) {
    if (known.size >= COMMONNESS_CACHE) known.clear();
    known.set(tok, (common = commonWordOf(index, tok)));
  }
  return common;
}

/** Per index, the answers of commonWord so far (the same words recur in query after query). */
const commonness = new WeakMap<AddressIndex, Map<number, boolean>>();
/** Words remembered per index and thread before the memory starts over (a Map entry each). */
const COMMONNESS_CACHE = 1 << 16;

function commonWordOf(index: AddressIndex, tok: number): boolean {
  const threshold = COMMON_STREET_SHARE * streetDocCount(index);
  const all = index.postingCount(tok);
  if (all < threshold) return false;
  const streets = streetPostings(index, tok);
  if (streets < threshold) return false;
  const places = all - streets;
  return places === 0 || places > TOWN_NAME_PLACES;
}

/** A word in this many place and postcode documents or fewer (and more than none) is a town's name. */
const TOWN_NAME_PLACES = 8;

/** Two masks over the query's tokens (bit i = token i). */
export interface StreetWords {
  /** Street and free-text words, not number-like, held by the index and in no form common. */
  rare: number;
  /** `rare` and the words the index does not hold as written or expanded (a typo, a street it lacks, an addition). */
  rareOrUnknown: number;
}

/**
 * The query's words that tell streets apart (typo matches play no part; numbers are not, since a
 * house number may stand in the street field). Computed once per query.
 */
export function distinctiveStreetWords(index: AddressIndex, q: ParsedQuery, matches: TokenMatch[][]): StreetWords {
  let w = cache.get(q);
  if (w === undefined) cache.set(q, (w = classify(index, q, matches)));
  return w;
}

const cache = new WeakMap<ParsedQuery, StreetWords>();

function classify(index: AddressIndex, q: ParsedQuery, matches: TokenMatch[][]): StreetWords {
  let rare = 0, rareOrUnknown = 0;
  for (let i = 0; i < q.tokens.length && i < 32; i++) {
    const t = q.tokens[i]!;
    if ((t.field !== 'street' && t.field !== 'free') || t.hnLike || /^\d+$/.test(t.text)) continue;
    let known = false, common = false;
    for (const m of matches[i]!) {
      if (m.kind === 'typo') continue;
      known = true;
      if (commonWord(index, m.tok)) { common = true; break; }
    }
    if (common) continue;
    rareOrUnknown |= 1 << i;
    if (known) rare |= 1 << i;
  }
  return { rare: rare >>> 0, rareOrUnknown: rareOrUnknown >>> 0 };
}

/** The street document has a word of its name that no query word matches and that is not common ("Dames"). */
export function ownRareName(index: AddressIndex, bits: QueryBits, doc: number): boolean {
  const c = index.c;
  for (let j = c.docTokStart[doc]!, e = index.docTokEnd(doc); j < e; j++) {
    if (c.docTokRole[j] !== ROLE_NAME) continue;
    const tok = c.docTok[j]!;
    if (bits.of(tok) === 0 && !commonWord(index, tok)) return true;
  }
  return false;
}
