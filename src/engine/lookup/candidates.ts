/**
 * Stage 3: candidate documents. Query tokens are resolved to index tokens (exact forms and
 * abbreviation expansions); documents are counted over the postings of the matched tokens and
 * the best-covered ones become candidates. Typo neighbours (symmetric delete, distance 1,
 * verified with Damerau-Levenshtein) are looked up ONLY for tokens the exact pass left
 * unexplained, so the common path stays fast.
 */
import type { AddressIndex } from '../index/index.ts';
import { DocBits } from './doc-bits.ts';
import { editDistance } from './normalize.ts';
import type { ParsedQuery } from './parse.ts';
import { popcount, QueryBits } from './query-bits.ts';
import { intersectSorted, keepHeld, sortedUnique } from './sorted-lists.ts';

export interface TokenMatch {
  tok: number;
  /** 1 exact, < 1 for an expansion or a typo neighbour. */
  quality: number;
  kind: 'exact' | 'expansion' | 'typo';
}

export const EXPANSION_QUALITY = 0.95;
export const TYPO_QUALITY = 0.3;
/** Postings longer than this are not counted (very common words); they still score. */
const COMMON_POSTINGS = 40_000;
export const MAX_CANDIDATES = 200;
/** After the rarest token, tokens with more postings than this are not counted. */
const COUNT_LIMIT = 1500;
/**
 * A word of the city field is counted up to this many postings: at national size a town's name
 * is in thousands of documents (its streets, and other towns of that name), and a wrong postcode
 * leaves the town's name as the only way to the street the query names.
 */
const PLACE_COUNT_LIMIT = 6000;
const FUZZY_MIN_LEN = 4;
/** Candidates probed for the tokens not counted (beyond this, the rank cut-off applies as is). */
const PROBE_LIMIT = 60_000;

export function exactMatches(index: AddressIndex, q: ParsedQuery): TokenMatch[][] {
  return q.tokens.map((t) => {
    const out: TokenMatch[] = [];
    t.alts.forEach((a, i) => {
      const id = index.tokenId(a);
      if (id >= 0 && !out.some((m) => m.tok === id)) {
        out.push({ tok: id, quality: i === 0 ? 1 : EXPANSION_QUALITY, kind: i === 0 ? 'exact' : 'expansion' });
      }
    });
    return out;
  });
}

/** Distance-1 neighbours of a folded token that have postings. */
export function typoMatches(index: AddressIndex, text: string): TokenMatch[] {
  if (text.length < FUZZY_MIN_LEN || /^\d+$/.test(text)) return [];
  const cands = new Set<number>();
  index.deleteNeighbours(text, cands);
  for (let k = 0; k < text.length; k++) index.deleteNeighbours(text.slice(0, k) + text.slice(k + 1), cands);
  const out: TokenMatch[] = [];
  for (const id of cands) {
    if (index.postingCount(id) === 0) continue;
    const s = index.tokenText(id);
    if (s !== text && editDistance(s, text, 1) <= 1) out.push({ tok: id, quality: TYPO_QUALITY, kind: 'typo' });
  }
  return out;
}

/** The intersection is not tried when the rarest strong token has more postings than this. */
const INTERSECT_LIMIT = 5000;

/** How many postings a query token's matches have together (a document may be counted twice). */
export function postingsOfMatches(index: AddressIndex, ms: TokenMatch[]): number {
  let n = 0;
  for (const m of ms) n += index.postingCount(m.tok);
  return n;
}

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

/** The candidate table of this thread (sized by one lookup's candidates, not by the index). */
const found = new DocBits();

/**
 * Adds the uncounted query tokens each candidate holds. A token whose postings are short next to
 * the candidates is found by reading its postings (sequential) and marking the candidates among
 * them; the others in each candidate's own token list (one random read per candidate, the costly
 * part at national size; `narrowed`: the candidates are one postcode's documents, neighbours in
 * the index, whose token lists are read side by side). Those reads go best first: a candidate
 * that could not reach one below the best total even with every token left is not read, since it
 * would fall under the floor of candidateDocs anyway.
 */
function probeUncounted(index: AddressIndex, matches: TokenMatch[][], sizes: number[], touched: Int32Array, uncounted: number, narrowed: boolean): void {
  let left = 0;
  const scanPerCandidate = narrowed ? SCAN_PER_NEIGHBOUR : SCAN_PER_CANDIDATE;
  for (let ti = 0; ti < matches.length && ti < 32; ti++) {
    const bit = (1 << ti) >>> 0;
    if (!(uncounted & bit)) continue;
    if (sizes[ti]! > scanPerCandidate * touched.length) { left |= bit; continue; }
    for (const m of matches[ti]!) {
      const p = index.postings(m.tok);
      for (let i = 0; i < p.length; i++) found.orIfPresent(p[i]!, bit);
    }
  }
  if (left === 0) return;
  const bits = new QueryBits(matches);
  const most = popcount(left);
  // the candidates by known count, highest first, each group in document order (neighbouring
  // documents share pages of the token columns): one sort, then a counting sort by count
  const docs = touched.slice();
  if (!ascending(docs)) docs.sort();
  const known = new Uint8Array(docs.length);
  const perCount = new Int32Array(34);
  for (let k = 0; k < docs.length; k++) {
    const c = popcount(found.get(docs[k]!));
    known[k] = c;
    perCount[c]!++;
  }
  const from = new Int32Array(34);
  for (let c = 32, at = 0; c >= 0; c--) { from[c] = at; at += perCount[c]!; }
  const order = new Int32Array(docs.length);
  const fill = from.slice();
  for (let k = 0; k < docs.length; k++) order[fill[known[k]!]!++] = docs[k]!;
  let best = 0;
  for (let c = 32; c >= 1 && c + most >= best - 1; c--) {
    for (let k = from[c]!, end = k + perCount[c]!; k < end; k++) {
      const d = order[k]!;
      const more = bits.inDoc(index, d) & left;
      if (more !== 0) found.or(d, more);
      const total = c + popcount(more);
      if (total > best) best = total;
    }
  }
}

/** Whether the documents are in ascending order (those of one postings list, counted alone, are). */
function ascending(docs: Int32Array): boolean {
  for (let k = 1; k < docs.length; k++) if (docs[k]! < docs[k - 1]!) return false;
  return true;
}

/** Postings read per candidate rather than reading candidates' token lists (cost ratio of the two). */
const SCAN_PER_CANDIDATE = 16;
/**
 * The same when the candidates are neighbours (one postcode's documents): their token lists lie
 * side by side, so reading them costs less than marking a token's postings, unless those are few
 * (measured at 30M: 0.25 takes structured unknown streets 1.13× faster than 16).
 */
const SCAN_PER_NEIGHBOUR = 0.25;

/** A binding postcode narrows the candidates to its documents when it has at most this many. */
const WITHIN_LIMIT = 20_000;

/** Whether the query token `within` (-1 none) narrows candidateDocs to its documents. */
export function narrowsCandidates(index: AddressIndex, matches: TokenMatch[][], within: number): boolean {
  if (within < 0) return false;
  const n = postingsOfMatches(index, matches[within]!);
  return n > 0 && n <= WITHIN_LIMIT;
}

/**
 * Documents ranked by how many query tokens their postings cover; at most MAX_CANDIDATES,
 * only those within one token of the best coverage. `within` (a query token, -1 none) is a
 * postcode that binds the answer (valid, and agreeing with the city named): a street outside it
 * cannot be the answer, so only its documents are candidates. `placeWords`: a mask of the query
 * tokens of the city and district fields (counted up to PLACE_COUNT_LIMIT); `numberWords`: a mask
 * of the number-like tokens that are not the postcode (not counted while other words are).
 */
export function candidateDocs(index: AddressIndex, matches: TokenMatch[][], within = -1, placeWords = 0, numberWords = 0): number[] {
  found.clear();
  // rarest tokens first; once one token has been counted, very common ones are only scored
  const sizes = matches.map((ms) => postingsOfMatches(index, ms));
  const order = matches.map((_, i) => i).filter((i) => sizes[i]! > 0).sort((a, b) => sizes[a]! - sizes[b]!);
  // number-like words are not counted while there are others: a house number's postings are the
  // streets named with that number ("Rue du 8 Mai 1945"), which it would add as candidates
  // without leading to the street (they still score)
  const words = order.some((ti) => !((numberWords >>> ti) & 1));
  const narrowed = narrowsCandidates(index, matches, within);
  let counted = 0;
  let countedBits = 0;
  for (const ti of narrowed ? [within] : order) {
    if (words && (numberWords >>> ti) & 1) continue;
    if (counted > 0 && sizes[ti]! > COUNT_LIMIT) {
      if (sizes[ti]! > PLACE_COUNT_LIMIT) break;
      if (!((placeWords >>> ti) & 1)) continue;
    }
    counted++;
    const bit = (1 << ti) >>> 0;
    countedBits |= bit;
    for (const m of matches[ti]!) {
      const n = index.postingCount(m.tok);
      if (n === 0 || (n > COMMON_POSTINGS && !narrowed)) continue;
      const p = index.postings(m.tok);
      for (let i = 0; i < p.length; i++) found.or(p[i]!, bit);
    }
  }
  const touched = found.docs.subarray(0, found.size);
  // At national scale a common street ("Hauptstraße") is in thousands of towns: when the
  // counted tokens leave more candidates than the cut-off keeps, the tokens not counted (the
  // city, a common postcode) are looked up in each candidate's own token list, so that the
  // place the query names narrows the candidates BEFORE the rank cut-off could drop the right one.
  let uncounted = 0;
  for (const ti of order) if (!(countedBits & (1 << ti))) uncounted |= (1 << ti) >>> 0;
  if (uncounted !== 0 && (narrowed || touched.length > MAX_CANDIDATES) && touched.length <= PROBE_LIMIT) {
    probeUncounted(index, matches, sizes, touched, uncounted, narrowed);
  }
  const count = new Uint8Array(touched.length);
  let max = 0;
  for (let k = 0; k < touched.length; k++) {
    const n = popcount(found.get(touched[k]!));
    count[k] = n;
    if (n > max) max = n;
  }
  const floor = Math.max(1, max - 1);
  const out: number[] = [];
  const outCount: number[] = [];
  for (let k = 0; k < touched.length; k++) if (count[k]! >= floor) { out.push(touched[k]!); outCount.push(count[k]!); }
  if (out.length > MAX_CANDIDATES) {
    const rank = out.map((d) => index.c.docRank[d]!);
    const idx = out.map((_, k) => k);
    idx.sort((a, b) => outCount[b]! - outCount[a]! || rank[b]! - rank[a]!);
    return idx.slice(0, MAX_CANDIDATES).map((k) => out[k]!);
  }
  return out;
}
