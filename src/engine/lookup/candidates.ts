/**
 * Stage 3: candidate documents. Query tokens are resolved to index tokens (exact forms and
 * abbreviation expansions); documents are counted over the postings of the matched tokens and
 * the best-covered ones become candidates. Typo neighbours (symmetric delete, distance 1,
 * verified with Damerau-Levenshtein) are looked up ONLY for tokens the exact pass left
 * unexplained, so the common path stays fast.
 */
import type { AddressIndex } from '../index/index.ts';
import { editDistance } from './normalize.ts';
import type { ParsedQuery } from './parse.ts';

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

/** True when the sorted postings list `p` holds `d`. */
function holds(p: Uint32Array, d: number): boolean {
  let lo = 0, hi = p.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const v = p[mid]!;
    if (v === d) return true;
    if (v < d) lo = mid + 1; else hi = mid;
  }
  return false;
}

/**
 * The exact path's candidates: documents that hold every "strong" query token (one that cannot
 * be a house number), in any of its exact or expanded forms. Postings are sorted by document, so
 * this walks the rarest token's postings and probes the others by binary search. Returns null
 * when some strong token matched nothing, when there is no strong token, or when even the
 * rarest one is too common for the intersection to be cheap.
 */
export function intersectDocs(index: AddressIndex, q: ParsedQuery, matches: TokenMatch[][]): number[] | null {
  const strong: number[] = [];
  const sizes: number[] = [];
  for (let i = 0; i < q.tokens.length; i++) {
    if (q.tokens[i]!.hnLike) continue;
    const ms = matches[i]!;
    let n = 0;
    for (const m of ms) n += index.postingCount(m.tok);
    if (n === 0) return null;
    strong.push(i);
    sizes.push(n);
  }
  if (strong.length === 0) return null;
  const order = strong.map((_, k) => k).sort((a, b) => sizes[a]! - sizes[b]!);
  if (sizes[order[0]!]! > INTERSECT_LIMIT) return null;
  const first = matches[strong[order[0]!]!]!;
  let docs: number[] = [];
  for (const m of first) {
    const p = index.postings(m.tok);
    for (let k = 0; k < p.length; k++) docs.push(p[k]!);
  }
  if (first.length > 1) {
    docs.sort((a, b) => a - b);
    docs = docs.filter((d, k) => k === 0 || docs[k - 1] !== d);
  }
  for (let o = 1; o < order.length && docs.length > 0; o++) {
    const ms = matches[strong[order[o]!]!]!;
    const lists = ms.map((m) => index.postings(m.tok));
    let w = 0;
    for (let k = 0; k < docs.length; k++) {
      const d = docs[k]!;
      for (const p of lists) {
        if (holds(p, d)) { docs[w++] = d; break; }
      }
    }
    docs.length = w;
  }
  return docs;
}

const counters = new WeakMap<AddressIndex, { count: Uint16Array; stamp: Uint32Array; gen: number }>();

/**
 * Documents ranked by how many query tokens their postings cover; at most MAX_CANDIDATES,
 * only those within one token of the best coverage.
 */
export function candidateDocs(index: AddressIndex, matches: TokenMatch[][]): number[] {
  let st = counters.get(index);
  if (!st) {
    st = { count: new Uint16Array(index.docCount), stamp: new Uint32Array(index.docCount), gen: 0 };
    counters.set(index, st);
  }
  const { count, stamp } = st;
  const touched: number[] = [];
  // rarest tokens first; once one token has been counted, very common ones are only scored
  const sizes = matches.map((ms) => ms.reduce((a, m) => a + index.postingCount(m.tok), 0));
  const order = matches.map((_, i) => i).filter((i) => sizes[i]! > 0).sort((a, b) => sizes[a]! - sizes[b]!);
  let counted = 0;
  const countedSet = new Set<number>();
  for (const ti of order) {
    if (counted > 0 && sizes[ti]! > COUNT_LIMIT) break;
    counted++;
    countedSet.add(ti);
    const ms = matches[ti]!;
    st.gen = (st.gen + 1) >>> 0 || 1;
    const g = st.gen;
    for (const m of ms) {
      const n = index.postingCount(m.tok);
      if (n === 0 || n > COMMON_POSTINGS) continue;
      const p = index.postings(m.tok);
      for (let i = 0; i < p.length; i++) {
        const d = p[i]!;
        if (stamp[d] === g) continue;
        stamp[d] = g;
        if (count[d] === 0) touched.push(d);
        count[d]! += 1;
      }
    }
  }
  // At national scale a common street ("Hauptstraße") is in thousands of towns: when the
  // counted tokens leave more candidates than the cut-off keeps, the tokens not counted (the
  // city, a common postcode) are probed for each candidate by binary search, so that the
  // place the query names narrows the candidates BEFORE the rank cut-off could drop the right one.
  if (touched.length > MAX_CANDIDATES && touched.length <= PROBE_LIMIT) {
    for (const ti of order) {
      if (countedSet.has(ti)) continue;
      const lists = matches[ti]!.map((m) => index.postings(m.tok)).filter((p) => p.length > 0);
      if (lists.length === 0) continue;
      for (const d of touched) {
        for (const p of lists) if (holds(p, d)) { count[d]! += 1; break; }
      }
    }
  }
  let max = 0;
  for (const d of touched) if (count[d]! > max) max = count[d]!;
  const floor = Math.max(1, max - 1);
  const out: number[] = [];
  for (const d of touched) if (count[d]! >= floor) out.push(d);
  if (out.length > MAX_CANDIDATES) {
    out.sort((a, b) => count[b]! - count[a]! || index.c.docRank[b]! - index.c.docRank[a]!);
    out.length = MAX_CANDIDATES;
  }
  for (const d of touched) count[d] = 0;
  return out;
}
