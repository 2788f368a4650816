/**
 * Sets of OSM ids as sorted Float64Arrays (ids reach 2^34 today; doubles hold integers exactly up
 * to 2^53). `SortedIdCollector` gathers ids block by block into fixed-size chunks, sorts and
 * de-duplicates each full chunk, and merges the chunks at the end into one array allocated on a
 * SharedArrayBuffer, so that worker threads read it without a copy. No per-id JS object.
 */

/** Index of `id` in the sorted `ids`, or -1. */
export function indexOfId(ids: Float64Array, id: number, lo = 0, hi = ids.length - 1): number {
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const v = ids[mid]!;
    if (v < id) lo = mid + 1;
    else if (v > id) hi = mid - 1;
    else return mid;
  }
  return -1;
}

/** First index in sorted `ids` whose value is ≥ `id` (ids.length when none). */
export function lowerBound(ids: Float64Array, id: number): number {
  let lo = 0, hi = ids.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ids[mid]! < id) lo = mid + 1; else hi = mid;
  }
  return lo;
}

/** Sorts in place and returns the de-duplicated prefix (a view of the same memory). */
export function sortUnique(a: Float64Array): Float64Array {
  a.sort();
  let n = 0;
  for (let i = 0; i < a.length; i++) if (i === 0 || a[i] !== a[n - 1]) a[n++] = a[i]!;
  return a.subarray(0, n);
}

export function sharedFloat64(n: number): Float64Array {
  return new Float64Array(new SharedArrayBuffer(Math.max(1, n) * 8), 0, n);
}

export class SortedIdCollector {
  private readonly chunkSize: number;
  private chunks: Float64Array[] = [];
  private cur: Float64Array;
  private n = 0;

  constructor(chunkSize = 1 << 22) {
    this.chunkSize = chunkSize;
    this.cur = new Float64Array(chunkSize);
  }

  add(ids: ArrayLike<number>): void {
    for (let i = 0; i < ids.length; i++) {
      if (this.n === this.chunkSize) this.seal();
      this.cur[this.n++] = ids[i]!;
    }
  }

  private seal(): void {
    const u = sortUnique(this.cur.subarray(0, this.n));
    // keep only the unique part; a chunk that shrank a lot gives its memory back
    this.chunks.push(u.length < this.chunkSize / 2 ? u.slice() : u);
    this.cur = new Float64Array(this.chunkSize);
    this.n = 0;
  }

  /** All ids added, sorted and unique, on a SharedArrayBuffer. The collector is spent. */
  finish(): Float64Array {
    if (this.n > 0) this.seal();
    const chunks = this.chunks;
    this.chunks = [];
    this.cur = new Float64Array(0);
    let total = 0;
    for (const c of chunks) total += c.length;
    const out = sharedFloat64(total);
    // k-way merge: k is small (ids / 4M), so a linear scan for the minimum is enough
    const pos = new Int32Array(chunks.length);
    let n = 0;
    for (;;) {
      let best = -1, bestV = Infinity;
      for (let k = 0; k < chunks.length; k++) {
        const p = pos[k]!;
        if (p < chunks[k]!.length && chunks[k]![p]! < bestV) { bestV = chunks[k]![p]!; best = k; }
      }
      if (best < 0) break;
      pos[best] = pos[best]! + 1;
      if (n === 0 || out[n - 1] !== bestV) out[n++] = bestV;
    }
    return out.subarray(0, n);
  }
}
