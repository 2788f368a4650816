/**
 * Stage 5 (candidates, see ../index.ts): the broad search's candidate documents. Documents are
 * counted over the postings of the query tokens' matches (stage 3), and the best-covered ones
 * become candidates for scoring (stage 6).
 */
import type { AddressIndex } from '../../index/index.ts';
import { postingsOfMatches } from '../match/matches.ts';
import { popcount, QueryBits } from '../match/query-bits.ts';
import type { TokenMatch } from '../match/token-match.ts';
import { DocBits } from './doc-bits.ts';

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
/** Candidates probed for the tokens not counted (beyond this, the rank cut-off applies as is). */
const PROBE_LIMIT = 60_000;

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
