/**
 * The folded words of a document's city name as index token ids, cached per worker thread in
 * typed arrays of fixed size. The named-place fallback compares names with the query's words for
 * hundreds of documents per lookup; decoding and folding a name costs far more than comparing
 * ids, and a cache of string arrays would cost each thread tens of MB at national size.
 *
 * Comparing by id is comparing the text: the index holds each token text once (the builder
 * interns them), and every word of a place's or postal place's name is one of its tokens. A name
 * with a word that is no token (possible only in an index written otherwise) is not held: the
 * caller compares its text.
 */
import type { AddressIndex } from '../../index/index.ts';
import { foldTokens } from '../normalize/normalize.ts';

/** Documents held (a power of two); the table has twice as many slots. */
const MAX_DOCS = 1 << 16;
/** Word ids held in all (4 bytes each): names average 2–3 words. */
const MAX_WORDS = 1 << 18;
/** Longest name held, in words. */
const MAX_NAME_WORDS = 255;

/**
 * Worst case per thread and index: 2 × MAX_DOCS slots × 12 bytes = 1.5 MB, and MAX_WORDS × 4
 * bytes = 1 MB of word ids. When full it is emptied, and fills again from the next lookups.
 */
export class NameWords {
  /**
   * Per slot, side by side (one cache line per probe): the document (-1 for a free slot), where
   * its word ids start in `words`, and its word count | the first word's length << 8.
   */
  private readonly slots = new Int32Array(MAX_DOCS * 2 * 3);
  private readonly mask = MAX_DOCS * 2 - 1;
  private docs = 0;
  /** The word ids of every name held; a slot's are `words[start(slot) … start(slot) + count(slot))`. */
  readonly words = new Int32Array(MAX_WORDS);
  private used = 0;
  private readonly index: AddressIndex;

  constructor(index: AddressIndex) {
    this.index = index;
    this.clear();
  }

  /**
   * The slot of `doc`'s name (decoded and added on a miss), valid until the next call; -1 when the
   * name is not held (a word that is no index token, or a name too long): compare its text.
   */
  slot(doc: number): number {
    let h = Math.imul(doc, 0x9e3779b1) >>> 0 & this.mask;
    for (;;) {
      const k = this.slots[h * 3]!;
      if (k === doc) return h;
      if (k === -1) return this.add(doc, h);
      h = (h + 1) & this.mask;
    }
  }

  start(slot: number): number { return this.slots[slot * 3 + 1]!; }
  count(slot: number): number { return this.slots[slot * 3 + 2]! & 0xff; }
  /** Length of the first word in UTF-16 units (at most 255; 0 for an empty name). */
  firstLength(slot: number): number { return this.slots[slot * 3 + 2]! >>> 8; }

  private add(doc: number, h: number): number {
    const words = foldedName(this.index, doc);
    if (words.length > MAX_NAME_WORDS) return -1;
    const ids = new Int32Array(words.length);
    for (let i = 0; i < words.length; i++) if ((ids[i] = this.index.tokenId(words[i]!)) < 0) return -1;
    if (this.docs >= MAX_DOCS || this.used + ids.length > MAX_WORDS) {
      this.clear();
      h = Math.imul(doc, 0x9e3779b1) >>> 0 & this.mask;
    }
    this.slots[h * 3] = doc;
    this.slots[h * 3 + 1] = this.used;
    this.slots[h * 3 + 2] = ids.length | (Math.min(words[0]?.length ?? 0, 255) << 8);
    this.words.set(ids, this.used);
    this.used += ids.length;
    this.docs++;
    return h;
  }

  private clear(): void {
    for (let h = 0; h <= this.mask; h++) this.slots[h * 3] = -1;
    this.docs = 0;
    this.used = 0;
  }
}

const tables = new WeakMap<AddressIndex, NameWords>();

/** This thread's name table for `index`. */
export function nameWords(index: AddressIndex): NameWords {
  let t = tables.get(index);
  if (!t) tables.set(index, (t = new NameWords(index)));
  return t;
}

/**
 * The folded words of a document's city name, decoded (the path for names not held by
 * name-words.ts). A trailing part in brackets qualifies the name and is not part of it: GeoNames
 * writes Spain's postal places with their parish (`Chelos (Irixo, O)`), Canada's with their
 * districts (`Calgary (Bridgeland / Riverside)`); people write `Chelos`.
 */
export function foldedName(index: AddressIndex, doc: number): string[] {
  const name = index.str(index.c.docCity[doc]!);
  const bare = name.replace(QUALIFIER, '');
  return foldTokens(bare === '' ? name : bare);
}

const QUALIFIER = /\s*\([^()]*\)\s*$/;
