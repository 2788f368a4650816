/**
 * Place and postcode documents a query's words hit, with what the named-place fallback needs of
 * each: the query tokens found (a 32-bit mask; a query has at most 24 tokens, see ../parse/parse.ts), the
 * sum of their match qualities, and whether one match was not a typo. One open-addressing table
 * per worker thread, emptied per lookup, in place of a Map entry and an object per document (a
 * common place word hits thousands of them at national size).
 */
const DEFAULT_CAPACITY = 4096;
/** A table grown past this many slots for one broad lookup is not kept (4 MB). */
const SHRINK_ABOVE = 1 << 18;

export class PlaceEntries {
  private keys = new Int32Array(DEFAULT_CAPACITY).fill(-1);
  /** Slot → entry number. */
  private entryOf = new Int32Array(DEFAULT_CAPACITY);
  private hmask = DEFAULT_CAPACITY - 1;
  /** Per entry, in the order the documents were first added: */
  doc = new Int32Array(DEFAULT_CAPACITY >> 1);
  tokens = new Uint32Array(DEFAULT_CAPACITY >> 1);
  quality = new Float64Array(DEFAULT_CAPACITY >> 1);
  exact = new Uint8Array(DEFAULT_CAPACITY >> 1);
  size = 0;

  /** The entry of `doc`, or -1. */
  find(doc: number): number {
    let h = Math.imul(doc, 0x9e3779b1) >>> 0 & this.hmask;
    for (;;) {
      const k = this.keys[h]!;
      if (k === doc) return this.entryOf[h]!;
      if (k === -1) return -1;
      h = (h + 1) & this.hmask;
    }
  }

  /** A new, empty entry for `doc` (which has none). */
  add(doc: number): number {
    if (this.size >= this.doc.length) this.grow();
    let h = Math.imul(doc, 0x9e3779b1) >>> 0 & this.hmask;
    while (this.keys[h] !== -1) h = (h + 1) & this.hmask;
    const e = this.size++;
    this.keys[h] = doc;
    this.entryOf[h] = e;
    this.doc[e] = doc;
    this.tokens[e] = 0;
    this.quality[e] = 0;
    this.exact[e] = 0;
    return e;
  }

  /** Empties the table (cost proportional to what it held); a table grown large is let go. */
  clear(): void {
    if (this.keys.length > SHRINK_ABOVE) this.allocate(DEFAULT_CAPACITY);
    else if (this.size * 8 < this.keys.length) {
      for (let e = 0; e < this.size; e++) {
        let h = Math.imul(this.doc[e]!, 0x9e3779b1) >>> 0 & this.hmask;
        while (this.keys[h] !== this.doc[e]) h = (h + 1) & this.hmask;
        this.keys[h] = -1;
      }
    } else this.keys.fill(-1);
    this.size = 0;
  }

  private allocate(capacity: number): void {
    this.keys = new Int32Array(capacity).fill(-1);
    this.entryOf = new Int32Array(capacity);
    this.hmask = capacity - 1;
    this.doc = new Int32Array(capacity >> 1);
    this.tokens = new Uint32Array(capacity >> 1);
    this.quality = new Float64Array(capacity >> 1);
    this.exact = new Uint8Array(capacity >> 1);
  }

  /** Doubles the capacity, keeping the entries and their order. */
  private grow(): void {
    const { doc, tokens, quality, exact, size } = this;
    this.allocate(this.keys.length * 2);
    this.size = 0;
    for (let e = 0; e < size; e++) {
      const n = this.add(doc[e]!);
      this.tokens[n] = tokens[e]!;
      this.quality[n] = quality[e]!;
      this.exact[n] = exact[e]!;
    }
  }
}
