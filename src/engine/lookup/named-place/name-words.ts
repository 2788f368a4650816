/**
 * The folded words of a document's city name as index token ids, cached per worker thread in
 * typed arrays. The named-place fallback compares names with the query's words for
 * hundreds of documents per lookup; decoding and folding a name costs far more than comparing
 * ids, and a cache of string arrays would cost each thread tens of MB at national size.
 *
 * Comparing by id is comparing the text: the index holds each token text once (the builder
 * interns them), and every word of a place's or postal place's name is one of its tokens. A name
 * with a word that is no token (possible only in an index written otherwise) is not held: the
 * caller compares its text.
 */
import { DOC_STREET } from '../../index/format.ts';
import type { AddressIndex } from '../../index/index.ts';
import { foldTokens } from '../normalize/normalize.ts';

/** Longest name held, in words. */
const MAX_NAME_WORDS = 255;
/** Entries' words (4 bytes each) held at most before the table is emptied: 16 MB. */
const DEFAULT_MAX_WORDS = 1 << 22;
/** First size of the entries' array (grown by doubling). */
const INITIAL_WORDS = 1 << 16;

/** A last word that designates a place's status, not its name (GeoNames' Australian local government areas). */
export const CITY_WORD = 'city';

/**
 * One entry per document, made on its first use and kept: a place name is folded once per thread,
 * however many lookups name it. (A hash table of 65,536 documents, emptied whenever it filled,
 * was emptied again and again by lookups of varied places, which then folded the same names anew:
 * 12 % of the people sets' lookup CPU in a profile, 21 % less CPU once kept; docs/performance.md.)
 * Memory per thread: 4 bytes per document from the first place or postcode document on (streets
 * come first in an index and are never asked for), and the entries themselves, about 14 bytes per
 * document used; at most 16 MB of them, then the table is emptied and fills again.
 */
export class NameWords {
  /** Per document from `first` on: where its entry starts in `words`, + 1; 0 not made yet; -1 not held. */
  private readonly at: Int32Array;
  private readonly first: number;
  /**
   * The entries side by side: the word count | the first word's length << 8, then the word ids.
   * Replaced when it grows: read it after `slot`.
   */
  words = new Int32Array(INITIAL_WORDS);
  private used = 0;
  private readonly index: AddressIndex;
  private readonly maxWords: number;

  constructor(index: AddressIndex, maxWords = DEFAULT_MAX_WORDS) {
    this.index = index;
    this.maxWords = maxWords;
    const kind = index.c.docKind as Uint8Array | undefined;
    let first = 0;
    if (kind) while (first < kind.length && kind[first] === DOC_STREET) first++;
    this.first = first;
    this.at = new Int32Array(index.c.docCity.length - first);
  }

  /**
   * The slot of `doc`'s name (decoded and added on first use), valid until the next call; -1 when
   * the name is not held (a word that is no index token, a name too long, a street): compare its text.
   */
  slot(doc: number): number {
    const i = doc - this.first;
    if (i < 0) return -1;
    const a = this.at[i]!;
    if (a > 0) return a - 1;
    return a < 0 ? -1 : this.add(doc, i);
  }

  start(slot: number): number { return slot + 1; }
  count(slot: number): number { return this.words[slot]! & 0xff; }
  /** Length of the first word in UTF-16 units (at most 255; 0 for an empty name). */
  firstLength(slot: number): number { return this.words[slot]! >>> 8; }

  private add(doc: number, i: number): number {
    const name = foldedName(this.index, doc);
    if (name.length > MAX_NAME_WORDS) return (this.at[i] = -1);
    const need = 1 + name.length;
    if (this.used + need > this.maxWords) {
      this.at.fill(0);
      this.used = 0;
    }
    if (this.used + need > this.words.length) {
      const grown = new Int32Array(Math.min(this.maxWords, Math.max(this.words.length * 2, this.used + need)));
      grown.set(this.words.subarray(0, this.used));
      this.words = grown;
    }
    const slot = this.used, w = this.words;
    for (let k = 0; k < name.length; k++) {
      const id = this.index.tokenId(name[k]!);
      if (id < 0) return (this.at[i] = -1);
      w[slot + 1 + k] = id;
    }
    w[slot] = name.length | (Math.min(name[0]?.length ?? 0, 255) << 8);
    this.used += need;
    this.at[i] = slot + 1;
    return slot;
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
