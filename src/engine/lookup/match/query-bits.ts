/**
 * Which query tokens a document holds, as a 32-bit mask (a query has at most 24 tokens, see
 * ../parse/parse.ts), read from the document's own token list; built from the matches of stage 3
 * (see ../index.ts). The candidate stage uses it instead of a binary search per (document, token)
 * in postings lists that hold millions of documents at national size: a document has a dozen
 * tokens, stored side by side, so one pass over them answers for every query token at once.
 */
import { ROLE_NAME } from '../../index/format.ts';
import type { AddressIndex } from '../../index/index.ts';
import type { TokenMatch } from './token-match.ts';

/**
 * Index token id → bit of every query token it matches; a small open-addressing table. Keys are
 * stored as token id + 1, so that a new (zeroed) table is empty. Plain arrays of small integers,
 * not typed arrays: a lookup builds four of these tables, and a typed array of 64 slots or more is
 * an allocation outside V8's heap (malloc, then a sweep to free it), 4 % of a lookup's CPU
 * (docs/performance.md, 2026-11-26).
 */
export class QueryBits {
  private keys: number[];
  private bits: number[];
  private mask: number;

  /** Fills the table from the query's matches (token i → bit i). */
  constructor(matches: TokenMatch[][]) {
    let n = 0;
    for (const ms of matches) n += ms.length;
    let cap = 64;
    while (cap < n * 2) cap *= 2;
    this.keys = new Array<number>(cap).fill(0);
    this.bits = new Array<number>(cap).fill(0);
    this.mask = cap - 1;
    for (let i = 0; i < matches.length && i < 32; i++) {
      for (const m of matches[i]!) this.add(m.tok, (1 << i) >>> 0);
    }
  }

  private add(tok: number, bit: number): void {
    const key = tok + 1;
    let h = Math.imul(tok, 0x9e3779b1) >>> 0 & this.mask;
    while (this.keys[h] !== 0 && this.keys[h] !== key) h = (h + 1) & this.mask;
    this.keys[h] = key;
    this.bits[h] = (this.bits[h]! | bit) >>> 0;
  }

  /** The bits of the query tokens matching index token `tok` (0 when none). */
  of(tok: number): number {
    const key = tok + 1;
    let h = Math.imul(tok, 0x9e3779b1) >>> 0 & this.mask;
    for (;;) {
      const k = this.keys[h]!;
      if (k === key) return this.bits[h]!;
      if (k === 0) return 0;
      h = (h + 1) & this.mask;
    }
  }

  /** The query tokens document `doc` holds (one pass over its token list). */
  inDoc(index: AddressIndex, doc: number): number {
    const c = index.c;
    const s = c.docTokStart[doc]!, e = index.docTokEnd(doc);
    const tok = c.docTok;
    let out = 0;
    for (let j = s; j < e; j++) out |= this.of(tok[j]!);
    return out >>> 0;
  }

  /** The query tokens document `doc` holds as words of its name (inDoc, role ROLE_NAME only). */
  namesInDoc(index: AddressIndex, doc: number): number {
    const c = index.c;
    let out = 0;
    for (let j = c.docTokStart[doc]!, e = index.docTokEnd(doc); j < e; j++) if (c.docTokRole[j] === ROLE_NAME) out |= this.of(c.docTok[j]!);
    return out >>> 0;
  }
}

/** Number of set bits of a 32-bit mask. */
export function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24);
}
