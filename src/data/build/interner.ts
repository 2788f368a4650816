/**
 * String interning without JS strings or Maps: UTF-8 bytes in one growable byte pool, an
 * offsets column, and an open-addressing hash table (FNV-1a) in an Int32Array. Ids are dense,
 * 0 is the empty string. The pool and offsets ARE the index's string table (`strData`,
 * `strOff`), so interning a string costs its bytes once, whatever the number of rows using it,
 * and there is no 2^24-entry ceiling as with a Map.
 */
import { fnv1a } from '../../engine/index/format.ts';
import { Grow, growU32 } from './growable.ts';

const decoder = new TextDecoder();
const encoder = new TextEncoder();

export class StringInterner {
  private data = new Grow(Uint8Array, 1 << 16);
  private readonly off = growU32(1 << 12);
  private readonly hashes = growU32(1 << 12);
  private table = new Int32Array(1 << 12).fill(-1);
  private mask = (1 << 12) - 1;
  private scratch = new Uint8Array(4096);

  constructor() {
    this.off.push(0);
    this.off.push(0); // id 0: ''
    this.hashes.push(0);
  }

  get count(): number {
    return this.off.n - 1;
  }

  get byteLength(): number {
    return this.data.n;
  }

  /** The id of `s`, adding it when new. */
  intern(s: string): number {
    if (s.length === 0) return 0;
    const n = this.encode(s);
    return this.internBytes(this.scratch, n);
  }

  /** The id of `s`, or -1 when it was never interned. */
  find(s: string): number {
    if (s.length === 0) return 0;
    const n = this.encode(s);
    const h = fnv1a(this.scratch, 0, n);
    for (let slot = h & this.mask; ; slot = (slot + 1) & this.mask) {
      const id = this.table[slot]!;
      if (id < 0) return -1;
      if (this.hashes.a[id] === h && this.equals(id, this.scratch, n)) return id;
    }
  }

  internBytes(bytes: Uint8Array, n: number): number {
    if (n === 0) return 0;
    const h = fnv1a(bytes, 0, n);
    let slot = h & this.mask;
    for (; ; slot = (slot + 1) & this.mask) {
      const id = this.table[slot]!;
      if (id < 0) break;
      if (this.hashes.a[id] === h && this.equals(id, bytes, n)) return id;
    }
    const id = this.count;
    const start = this.data.n;
    this.data.reserve(start + n);
    this.data.a.set(bytes.subarray(0, n), start);
    this.data.n = start + n;
    this.off.push(this.data.n);
    this.hashes.push(h);
    this.table[slot] = id;
    if (this.count * 2 > this.table.length) this.rehash();
    return id;
  }

  str(id: number): string {
    if (id === 0) return '';
    return decoder.decode(this.data.a.subarray(this.off.a[id]!, this.off.a[id + 1]!));
  }

  bytes(id: number): Uint8Array {
    return this.data.a.subarray(this.off.a[id]!, this.off.a[id + 1]!);
  }

  /** FNV-1a of the string's bytes (what the index's token table is ordered by). */
  hash(id: number): number {
    return this.hashes.a[id]!;
  }

  /** The string table columns: offsets (count + 1) and bytes. */
  finish(): [Uint32Array, Uint8Array] {
    return [this.off.trimmed(), this.data.trimmed()];
  }

  private encode(s: string): number {
    if (s.length * 3 > this.scratch.length) this.scratch = new Uint8Array(s.length * 3 + 16);
    return encoder.encodeInto(s, this.scratch).written;
  }

  private equals(id: number, bytes: Uint8Array, n: number): boolean {
    const a = this.off.a[id]!;
    if (this.off.a[id + 1]! - a !== n) return false;
    const d = this.data.a;
    for (let i = 0; i < n; i++) if (d[a + i] !== bytes[i]) return false;
    return true;
  }

  private rehash(): void {
    const size = this.table.length * 2;
    this.table = new Int32Array(size).fill(-1);
    this.mask = size - 1;
    const hs = this.hashes.a;
    for (let id = 1; id < this.off.n - 1; id++) {
      let slot = hs[id]! & this.mask;
      while (this.table[slot]! >= 0) slot = (slot + 1) & this.mask;
      this.table[slot] = id;
    }
  }
}

/**
 * A derived id per interned string, computed once (fold, house-number key, postcode key):
 * `of(id, () => …)` so that a function of a string runs once per distinct string, not per row.
 */
export class DerivedIds {
  private readonly ids = new Grow(Int32Array, 1 << 12);
  of(id: number, make: () => number): number {
    if (id >= this.ids.n) this.ids.resize(id + 1, -1);
    let v = this.ids.a[id]!;
    if (v < 0) { v = make(); this.ids.a[id] = v; }
    return v;
  }
}
