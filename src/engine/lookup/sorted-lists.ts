/**
 * Operations on postings lists (document ids in ascending order): merges that read the lists
 * front to back, so that intersecting a short list with one of millions touches a few cache
 * lines of the long one instead of probing it at random.
 */

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

/** The first position ≥ `from` in sorted `p` whose value is ≥ `d`. */
export function gallop(p: Uint32Array, from: number, d: number): number {
  let lo = from, step = 1, hi = from;
  while (hi < p.length && p[hi]! < d) { lo = hi + 1; hi += step; step *= 2; }
  if (hi > p.length) hi = p.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (p[mid]! < d) lo = mid + 1; else hi = mid;
  }
  return lo;
}

