/**
 * Operations on postings lists (document ids in ascending order): merges that read the lists
 * front to back, so that intersecting a short list with one of millions touches a few cache
 * lines of the long one instead of probing it at random.
 */

/** `docs` sorted, each once (in place; answers the same array). */
export function sortedUnique(docs: number[]): number[] {
  docs.sort((a, b) => a - b);
  let w = 0;
  for (let k = 0; k < docs.length; k++) if (k === 0 || docs[k] !== docs[k - 1]) docs[w++] = docs[k]!;
  docs.length = w;
  return docs;
}

/** The sorted `docs` that one of the sorted lists holds (exponential search from a cursor per list). */
export function keepHeld(docs: ArrayLike<number>, lists: Uint32Array[]): number[] {
  const out: number[] = [];
  const at = new Array<number>(lists.length).fill(0);
  for (let k = 0; k < docs.length; k++) {
    const d = docs[k]!;
    for (let l = 0; l < lists.length; l++) {
      const p = lists[l]!;
      const i = gallop(p, at[l]!, d);
      at[l] = i;
      if (i < p.length && p[i] === d) { out.push(d); break; }
    }
  }
  return out;
}

/**
 * The values both sorted lists hold, galloping in whichever list is behind: the cost grows with
 * how often the two lists interleave, not with their lengths (a town's streets, a few runs of
 * neighbouring documents, against a street word's postings scattered over the country).
 */
export function intersectSorted(a: ArrayLike<number>, b: ArrayLike<number>): number[] {
  const out: number[] = [];
  let i = 0, j = 0;
  while (i < a.length && j < b.length) {
    const x = a[i]!, y = b[j]!;
    if (x === y) { out.push(x); i++; j++; }
    else if (x < y) i = gallop(a, i + 1, y);
    else j = gallop(b, j + 1, x);
  }
  return out;
}

/** Whether two sorted lists share a value (intersectSorted's walk, stopping at the first). */
export function shareAny(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  let i = 0, j = 0;
  while (i < a.length && j < b.length) {
    const x = a[i]!, y = b[j]!;
    if (x === y) return true;
    if (x < y) i = gallop(a, i + 1, y);
    else j = gallop(b, j + 1, x);
  }
  return false;
}

/** The first position ≥ `from` in sorted `p` whose value is ≥ `d`. */
export function gallop(p: ArrayLike<number>, from: number, d: number): number {
  let lo = from, step = 1, hi = from;
  while (hi < p.length && p[hi]! < d) { lo = hi + 1; hi += step; step *= 2; }
  if (hi > p.length) hi = p.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (p[mid]! < d) lo = mid + 1; else hi = mid;
  }
  return lo;
}

