/**
 * The place and postcode documents among a token's postings, for the named-place fallback.
 *
 * The builder writes every street document before the places and postcode areas, so that the
 * documents that are not streets are the ids from one point on, and a postings list (ascending
 * document ids) holds them as its tail: found by one binary search and returned as a view, with
 * no copy and no cache. A token such as `saint` has hundreds of thousands of street postings at
 * national size and a few thousand place ones; scanning it cost a pass over all of them.
 * An index laid out otherwise is scanned, and the result cached in a table of bounded size.
 */
import type { AddressIndex } from '../../index/index.ts';

/**
 * Postings looked at per token (the first ones, in document order). At national size a very
 * common word's place documents may lie beyond this many street postings: they are then not
 * found, as before this module.
 */
export const SCAN_LIMIT = 200_000;

/** The scan fallback's cache: at most this many document ids (4 bytes each) in all … */
const CACHE_MAX_DOCS = 1 << 20;
/** … and at most this many tokens (a Map entry each). */
const CACHE_MAX_TOKENS = 16_384;

interface Layout {
  /** First document that is not a street when the non-streets are a tail of the ids; -1 otherwise. */
  firstPlace: number;
  cache: Map<number, Uint32Array>;
  cachedDocs: number;
  /** Street documents counted in an index laid out otherwise (-1 not yet). */
  streets: number;
}

const layouts = new WeakMap<AddressIndex, Layout>();

function layoutOf(index: AddressIndex): Layout {
  let l = layouts.get(index);
  if (!l) layouts.set(index, (l = { firstPlace: nonStreetTail(index.c.docKind), cache: new Map(), cachedDocs: 0, streets: -1 }));
  return l;
}

/** The first non-street document when every later one is also not a street (kind 0), else -1. */
function nonStreetTail(kind: Uint8Array): number {
  let first = kind.length;
  for (let d = 0; d < kind.length; d++) if (kind[d] !== 0) { first = d; break; }
  for (let d = first; d < kind.length; d++) if (kind[d] === 0) return -1;
  return first;
}

/** The first document id that may be a place or postcode area: every one before it is a street (0 when the index is laid out otherwise). */
export function firstNonStreetDoc(index: AddressIndex): number {
  return Math.max(0, layoutOf(index).firstPlace);
}

/** Place and postcode documents among the first SCAN_LIMIT postings of `tok`, in document order. */
export function placeDocs(index: AddressIndex, tok: number): Uint32Array {
  const l = layoutOf(index);
  const p = index.postings(tok);
  const n = Math.min(p.length, SCAN_LIMIT);
  if (l.firstPlace >= 0) return p.subarray(tailStart(p, n, l.firstPlace), n);
  return scanned(index, l, tok, p, n);
}

/**
 * The first position < n of sorted `p` whose value is ≥ `first` (n when none): an exponential
 * search back from n, since the tail is short beside the street postings before it.
 */
function tailStart(p: Uint32Array, n: number, first: number): number {
  let hi = n, step = 1;
  while (hi > 0 && p[Math.max(0, hi - step)]! >= first) { hi = Math.max(0, hi - step); step *= 2; }
  let lo = Math.max(0, hi - step);
  // p[lo] < first (or lo is 0), p[hi …) ≥ first
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (p[mid]! < first) lo = mid + 1; else hi = mid;
  }
  return hi;
}

/**
 * How many street documents hold `tok` (in any role): its postings up to their tail of places.
 * An index laid out otherwise counts all its postings.
 */
export function streetPostings(index: AddressIndex, tok: number): number {
  const l = layoutOf(index);
  const p = index.postings(tok);
  return l.firstPlace < 0 ? p.length : tailStart(p, p.length, l.firstPlace);
}

/** The number of street documents (the ids before the tail of places, or counted once). */
export function streetDocCount(index: AddressIndex): number {
  const l = layoutOf(index);
  if (l.firstPlace >= 0) return l.firstPlace;
  if (l.streets < 0) {
    const kind = index.c.docKind;
    let n = 0;
    for (let d = 0; d < kind.length; d++) if (kind[d] === 0) n++;
    l.streets = n;
  }
  return l.streets;
}

function scanned(index: AddressIndex, l: Layout, tok: number, p: Uint32Array, n: number): Uint32Array {
  const hit = l.cache.get(tok);
  if (hit) return hit;
  const kind = index.c.docKind;
  const out: number[] = [];
  for (let i = 0; i < n; i++) if (kind[p[i]!] !== 0) out.push(p[i]!);
  const r = Uint32Array.from(out);
  if (l.cachedDocs + r.length > CACHE_MAX_DOCS || l.cache.size >= CACHE_MAX_TOKENS) { l.cache.clear(); l.cachedDocs = 0; }
  l.cache.set(tok, r);
  l.cachedDocs += r.length;
  return r;
}
