/**
 * Grouping rows by a composite key without a Map: a triple of u32 ids → a dense group id through
 * an open-addressing table in an Int32Array, then the rows ordered by group with a counting sort
 * (two linear passes over typed arrays). Stable: rows of one group keep their input order.
 */
import { Grow, growU32 } from './growable.ts';

function mix(a: number, b: number, c: number): number {
  let h = Math.imul(a ^ 0x9e3779b1, 0x85ebca77) ^ Math.imul(b + 0x7f4a7c15, 0xc2b2ae3d) ^ Math.imul(c + 0x165667b1, 0x27d4eb2f);
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  h ^= h >>> 12;
  return h >>> 0;
}

export class TripleGrouper {
  private readonly keys = growU32(3 << 10);
  private table: Int32Array;
  private mask: number;

  constructor(expected = 1 << 10) {
    let size = 1 << 10;
    while (size < expected * 2) size *= 2;
    this.table = new Int32Array(size).fill(-1);
    this.mask = size - 1;
  }

  get count(): number {
    return this.keys.n / 3;
  }

  /** The group of (a, b, c), created when new. */
  id(a: number, b: number, c: number): number {
    const k = this.keys.a;
    let slot = mix(a, b, c) & this.mask;
    for (; ; slot = (slot + 1) & this.mask) {
      const g = this.table[slot]!;
      if (g < 0) break;
      const o = g * 3;
      if (k[o] === a && k[o + 1] === b && k[o + 2] === c) return g;
    }
    const g = this.count;
    this.keys.push(a); this.keys.push(b); this.keys.push(c);
    this.table[slot] = g;
    if (this.count * 2 > this.table.length) this.rehash();
    return g;
  }

  /** The group of (a, b, c), or -1. */
  get(a: number, b: number, c: number): number {
    const k = this.keys.a;
    for (let slot = mix(a, b, c) & this.mask; ; slot = (slot + 1) & this.mask) {
      const g = this.table[slot]!;
      if (g < 0) return -1;
      const o = g * 3;
      if (k[o] === a && k[o + 1] === b && k[o + 2] === c) return g;
    }
  }

  key(g: number, part: 0 | 1 | 2): number {
    return this.keys.a[g * 3 + part]!;
  }

  /** Frees the hash table (keys stay readable). */
  dropTable(): void {
    this.table = new Int32Array(0);
  }

  private rehash(): void {
    const size = this.table.length * 2;
    this.table = new Int32Array(size).fill(-1);
    this.mask = size - 1;
    const k = this.keys.a;
    for (let g = 0; g < this.count; g++) {
      let slot = mix(k[g * 3]!, k[g * 3 + 1]!, k[g * 3 + 2]!) & this.mask;
      while (this.table[slot]! >= 0) slot = (slot + 1) & this.mask;
      this.table[slot] = g;
    }
  }
}

/**
 * Counting sort of rows by group: `group[i]` is row i's group (or -1 to leave it out).
 * Returns `start` (groups + 1 offsets) and `order` (row ids, grouped, stable).
 */
export function orderByGroup(group: Int32Array, groups: number): { start: Uint32Array; order: Uint32Array } {
  const start = new Uint32Array(groups + 1);
  let kept = 0;
  for (let i = 0; i < group.length; i++) {
    const g = group[i]!;
    if (g >= 0) { start[g + 1]!++; kept++; }
  }
  for (let g = 0; g < groups; g++) start[g + 1]! += start[g]!;
  const fill = start.slice(0, groups);
  const order = new Uint32Array(kept);
  for (let i = 0; i < group.length; i++) {
    const g = group[i]!;
    if (g >= 0) order[fill[g]!++] = i;
  }
  return { start, order };
}

/**
 * Stable LSD radix sort of (key, value) pairs by the u32 key, 8 bits per pass (four passes, so
 * the result lands back in the input arrays, which are returned). Equal keys keep their input
 * order, so values generated in ascending order stay ascending within a key.
 */
export function radixSortPairs(keys: Uint32Array, vals: Uint32Array): [Uint32Array, Uint32Array] {
  const n = keys.length;
  let k1: Uint32Array = keys, v1: Uint32Array = vals;
  let k2: Uint32Array = new Uint32Array(n), v2: Uint32Array = new Uint32Array(n);
  const count = new Uint32Array(256);
  for (let shift = 0; shift < 32; shift += 8) {
    count.fill(0);
    for (let i = 0; i < n; i++) count[(k1[i]! >>> shift) & 255]!++;
    let sum = 0;
    for (let b = 0; b < 256; b++) { const c = count[b]!; count[b] = sum; sum += c; }
    for (let i = 0; i < n; i++) {
      const k = k1[i]!;
      const p = count[(k >>> shift) & 255]!++;
      k2[p] = k; v2[p] = v1[i]!;
    }
    [k1, k2] = [k2, k1];
    [v1, v2] = [v2, v1];
  }
  return [k1, v1];
}

export { Grow };
