/**
 * The documents that hold every one of a set of query tokens: the exact path's candidates
 * (stage 4, see ../index.ts), and the test of the typo retry (stage 8) whether a postcode's
 * documents could hold a word at all. An intersection of sorted postings, cheap when the
 * rarest token is rare.
 */
import type { AddressIndex } from '../../index/index.ts';
import { postingsOfMatches } from '../match/matches.ts';
import { QueryBits } from '../match/query-bits.ts';
import type { TokenMatch } from '../match/token-match.ts';
import type { ParsedQuery } from '../parse/parse.ts';
import { intersectSorted, keepHeld, sortedUnique } from './sorted-lists.ts';

/** The intersection is not tried when the rarest strong token has more postings than this. */
const INTERSECT_LIMIT = 5000;

/**
 * The query's "strong" tokens: those that cannot be a house number, and `alsoRequired` (a
 * number-like token, the postcode in free text; -1 none).
 */
export function strongTokens(q: ParsedQuery, alsoRequired = -1): number[] {
  const out: number[] = [];
  for (let i = 0; i < q.tokens.length; i++) if (!q.tokens[i]!.hnLike || i === alsoRequired) out.push(i);
  return out;
}

/**
 * The exact path's candidates: documents that hold every "strong" query token, in any of its
 * exact or expanded forms. Returns null when some strong token matched nothing, when there is
 * no strong token, or when even the rarest one is too common for the intersection to be cheap.
 */
export function intersectDocs(index: AddressIndex, q: ParsedQuery, matches: TokenMatch[][], alsoRequired = -1): number[] | null {
  const docs = holdingAll(index, matches, strongTokens(q, alsoRequired));
  return docs && docs.length > 0 ? docs : null;
}

/**
 * The documents that hold every token of `toks` (query token indexes), in any of its matched
 * forms: [] when one of them has no postings; null when there is no token or even the rarest
 * has too many postings for the intersection to be cheap. Postings are sorted by document, so
 * the rarest tokens' lists are merged (galloping), and once a few documents are left their own
 * token lists are checked for the others.
 */
export function holdingAll(index: AddressIndex, matches: TokenMatch[][], toks: number[]): number[] | null {
  if (toks.length === 0) return null;
  const sizes: number[] = [];
  for (const i of toks) {
    const n = postingsOfMatches(index, matches[i]!);
    if (n === 0) return [];
    sizes.push(n);
  }
  const order = toks.map((_, k) => k).sort((a, b) => sizes[a]! - sizes[b]!);
  if (sizes[order[0]!]! > INTERSECT_LIMIT) return null;
  // the rarest token's documents: its postings as they are (no copy) when it has one form
  const first = matches[toks[order[0]!]!]!;
  let docs: ArrayLike<number>;
  if (first.length === 1) docs = index.postings(first[0]!.tok);
  else {
    const all: number[] = [];
    for (const m of first) {
      const p = index.postings(m.tok);
      for (let k = 0; k < p.length; k++) all.push(p[k]!);
    }
    docs = sortedUnique(all);
  }
  // the next rarest tokens by a galloping merge of sorted postings (sequential reads), while
  // more than a few documents are left; the rest in each document's own token list
  let o = 1;
  for (; o < order.length && docs.length > FEW_DOCS; o++) {
    const next = matches[toks[order[o]!]!]!;
    docs = next.length === 1 ? intersectSorted(docs, index.postings(next[0]!.tok)) : keepHeld(docs, next.map((m) => index.postings(m.tok)));
  }
  const out: number[] = [];
  if (o === order.length) {
    for (let k = 0; k < docs.length; k++) out.push(docs[k]!);
    return out;
  }
  const bits = new QueryBits(matches);
  let need = 0;
  for (; o < order.length; o++) need |= (1 << toks[order[o]!]!) >>> 0;
  need >>>= 0;
  for (let k = 0; k < docs.length; k++) {
    const d = docs[k]!;
    if ((bits.inDoc(index, d) & need) >>> 0 === need) out.push(d);
  }
  return out;
}

/** Below this many documents, the intersection reads the documents' token lists instead. */
const FEW_DOCS = 16;
