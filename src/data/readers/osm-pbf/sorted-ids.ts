/**
 * Sets of OSM ids as sorted Float64Arrays (ids reach 2^34 today; doubles hold integers exactly up
 * to 2^53). `SortedIdCollector` gathers ids block by block into fixed-size chunks, sorts and
 * de-duplicates each full chunk, and merges the chunks at the end into one array allocated on a
 * SharedArrayBuffer, so that worker threads read it without a copy. No per-id JS object. Past a
 * memory budget the sorted chunks are spilled to disk as runs (id-runs.ts) and merged from there.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileRun, memoryRun, mergeRuns, writeRun } from './id-runs.ts';

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

export interface CollectorOptions {
  /** ids per chunk: a full chunk is sorted and de-duplicated (default 4M = 32 MiB) */
  chunkSize?: number;
  /**
   * Bytes of sorted chunks kept in memory before they are spilled to disk as runs (default
   * 256 MiB). Needs `spillDir`; without it nothing is spilled.
   */
  memoryBytes?: number;
  /** a directory of this collector's own for spilled runs (the caller creates and removes it) */
  spillDir?: string;
}

export class SortedIdCollector {
  private readonly chunkSize: number;
  private readonly memoryBytes: number;
  private readonly spillDir: string | undefined;
  private chunks: Float64Array[] = [];
  private chunkBytes = 0;
  private spilled: { path: string; count: number }[] = [];
  private cur: Float64Array;
  private n = 0;

  constructor(opts: CollectorOptions = {}) {
    this.chunkSize = opts.chunkSize ?? 1 << 22;
    this.memoryBytes = opts.memoryBytes ?? 256 * 1024 * 1024;
    this.spillDir = opts.spillDir;
    this.cur = new Float64Array(this.chunkSize);
  }

  private runsWritten = 0;

  /** Runs written to disk so far (counting those of `finish`). */
  get spilledRuns(): number { return this.runsWritten; }

  add(ids: ArrayLike<number>): void {
    for (let i = 0; i < ids.length; i++) {
      if (this.n === this.chunkSize) this.seal();
      this.cur[this.n++] = ids[i]!;
    }
  }

  private seal(): void {
    const u = sortUnique(this.cur.subarray(0, this.n));
    this.n = 0;
    if (this.spillDir && this.chunkBytes + u.byteLength > this.memoryBytes) {
      // over budget: this run goes to disk; `cur` is reused
      const path = join(this.spillDir, `ids-${this.spilled.length}.f64`);
      writeRun(path, u);
      this.spilled.push({ path, count: u.length });
      this.runsWritten++;
      return;
    }
    // keep only the unique part; a chunk that shrank a lot gives its memory back
    this.chunks.push(u.length < this.chunkSize / 2 ? u.slice() : u);
    this.chunkBytes += u.byteLength;
    this.cur = new Float64Array(this.chunkSize);
  }

  /** All ids added, sorted and unique, on a SharedArrayBuffer. The collector is spent. */
  finish(): Float64Array {
    if (this.n > 0) this.seal();
    let total = 0;
    for (const c of this.chunks) total += c.length;
    for (const r of this.spilled) total += r.count;
    const out = sharedFloat64(total);
    const runs = [...this.chunks.map(memoryRun), ...this.spilled.map((r) => fileRun(r.path, r.count))];
    this.chunks = [];
    this.cur = new Float64Array(0);
    const n = mergeRuns(runs, out);
    for (const r of this.spilled) rmSync(r.path, { force: true });
    this.spilled = [];
    return out.subarray(0, n);
  }
}
