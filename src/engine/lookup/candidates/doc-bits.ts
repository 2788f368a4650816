/**
 * Candidate documents → the query tokens found for each (a 32-bit mask), in an open-addressing
 * table sized by the candidates of one lookup, not by the index: a worker thread keeps a table of
 * a few hundred KB however many million documents the index holds (a dense counter per document
 * would cost every thread 6 bytes × documents). One table per thread, cleared between lookups.
 */
const DEFAULT_CAPACITY = 4096;
/** A table grown past this many slots (4 MB) for one broad lookup is not kept. */
const SHRINK_ABOVE = 1 << 19;

export class DocBits {
  private keys: Int32Array;
  private bits: Uint32Array;
  private mask: number;
  /** Documents in the order they were first added. */
  docs: Int32Array;
  size = 0;

  constructor(capacity = DEFAULT_CAPACITY) {
    this.keys = new Int32Array(capacity).fill(-1);
    this.bits = new Uint32Array(capacity);
    this.mask = capacity - 1;
    this.docs = new Int32Array(capacity >> 1);
  }

  /** Adds `bit` to document `doc`. */
  or(doc: number, bit: number): void {
    let h = Math.imul(doc, 0x9e3779b1) >>> 0 & this.mask;
    for (;;) {
      const k = this.keys[h]!;
      if (k === doc) { this.bits[h]! |= bit; return; }
      if (k === -1) break;
      h = (h + 1) & this.mask;
    }
    if (this.size >= this.docs.length) { this.grow(); this.or(doc, bit); return; }
    this.keys[h] = doc;
    this.bits[h] = bit;
    this.docs[this.size++] = doc;
  }

  /** Adds `bit` to document `doc` when it is in the table. */
  orIfPresent(doc: number, bit: number): void {
    let h = Math.imul(doc, 0x9e3779b1) >>> 0 & this.mask;
    for (;;) {
      const k = this.keys[h]!;
      if (k === doc) { this.bits[h]! |= bit; return; }
      if (k === -1) return;
      h = (h + 1) & this.mask;
    }
  }

  /** The bits of `doc` (0 when absent). */
  get(doc: number): number {
    let h = Math.imul(doc, 0x9e3779b1) >>> 0 & this.mask;
    for (;;) {
      const k = this.keys[h]!;
      if (k === doc) return this.bits[h]!;
      if (k === -1) return 0;
      h = (h + 1) & this.mask;
    }
  }

  /** Empties the table (cost proportional to what it held); a table grown large is let go. */
  clear(): void {
    if (this.keys.length > SHRINK_ABOVE) {
      this.keys = new Int32Array(DEFAULT_CAPACITY).fill(-1);
      this.bits = new Uint32Array(DEFAULT_CAPACITY);
      this.mask = DEFAULT_CAPACITY - 1;
      this.docs = new Int32Array(DEFAULT_CAPACITY >> 1);
    } else if (this.size * 8 < this.keys.length) {
      for (let i = 0; i < this.size; i++) {
        let h = Math.imul(this.docs[i]!, 0x9e3779b1) >>> 0 & this.mask;
        while (this.keys[h] !== this.docs[i]) h = (h + 1) & this.mask;
        this.keys[h] = -1;
      }
    } else this.keys.fill(-1);
    this.size = 0;
  }

  private grow(): void {
    const docs = this.docs.subarray(0, this.size);
    const bits = docs.map((d) => this.get(d));
    const cap = this.keys.length * 2;
    this.keys = new Int32Array(cap).fill(-1);
    this.bits = new Uint32Array(cap);
    this.mask = cap - 1;
    const old = docs.slice();
    this.docs = new Int32Array(cap >> 1);
    this.size = 0;
    for (let i = 0; i < old.length; i++) this.or(old[i]!, bits[i]!);
  }
}
