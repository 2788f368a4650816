/**
 * A directory over a sorted array of 32-bit hashes (the index's token and typo-key hashes): for
 * each value of the top `bits` bits, where its hashes begin. A lookup then searches one bucket of
 * about BUCKET_TARGET hashes, a cache line or two, instead of binary-searching the whole array:
 * 21 steps over 9 MB of typo keys in the embedded index, most of them cache misses, for each of
 * the dozen keys a misspelt word asks (match/matches.ts typoMatches). The answer is the same
 * index the full binary search gives.
 *
 * Built once per open index and thread, on first use, in one pass: at most 2^MAX_BITS + 1
 * offsets (1 MB), whatever the index's size.
 */

/** Hashes per bucket aimed at. */
const BUCKET_TARGET = 16;
const MIN_BITS = 4;
const MAX_BITS = 18;

export class HashDirectory {
  private readonly hashes: Uint32Array;
  private readonly shift: number;
  /** starts[b]: the first position whose hash's top bits are ≥ b; starts[2^bits] = length. */
  private readonly starts: Uint32Array;

  constructor(sortedHashes: Uint32Array) {
    this.hashes = sortedHashes;
    const n = sortedHashes.length;
    const bits = Math.min(MAX_BITS, Math.max(MIN_BITS, Math.ceil(Math.log2(Math.max(1, n / BUCKET_TARGET)))));
    this.shift = 32 - bits;
    const buckets = 1 << bits;
    const starts = new Uint32Array(buckets + 1);
    let b = 0;
    for (let i = 0; i < n; i++) {
      const top = sortedHashes[i]! >>> this.shift;
      while (b <= top) starts[b++] = i;
    }
    while (b <= buckets) starts[b++] = n;
    this.starts = starts;
  }

  /** The first position whose hash is ≥ `h` (as a binary search of the whole array answers). */
  lowerBound(h: number): number {
    const b = h >>> this.shift;
    let lo = this.starts[b]!;
    let hi = this.starts[b + 1]!;
    const hashes = this.hashes;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (hashes[mid]! < h) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
