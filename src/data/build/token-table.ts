/**
 * The token side of the index in typed arrays: token ids for interned strings, each document's
 * (token, role) list appended in document order, then — once every document is known — the
 * tokens ordered by hash (radix sort), postings by a counting sort over the document-token
 * column, and the symmetric-delete table (distance 1) as sorted (hash, token) runs.
 */
import { deleteKeyHashes } from './delete-keys.ts';
import { radixSortPairs } from './grouping.ts';
import { Grow, growI32, growU32, growU8 } from './growable.ts';
import type { StringInterner } from './interner.ts';

/** Symmetric-delete keys are generated for tokens at least this long. */
export { FUZZY_MIN_LEN } from './delete-keys.ts';

export class TokenTable {
  /** string id → token id (-1: not a token) */
  private readonly ofStr = growI32(1 << 12);
  /** token id → string id */
  readonly str = growU32(1 << 12);
  readonly docTok = growU32(1 << 16);
  readonly docTokRole = growU8(1 << 16);
  private readonly stamp = growI32(1 << 12);
  /** Roles the current document already has for a token (bit per role). */
  private readonly roles = growU8(1 << 12);
  private doc = -1;

  private readonly strings: StringInterner;
  constructor(strings: StringInterner) {
    this.strings = strings;
  }

  get count(): number {
    return this.str.n;
  }

  /** The token id of an interned string (created when new). */
  tokenOf(strId: number): number {
    if (strId >= this.ofStr.n) this.ofStr.resize(Math.max(strId + 1, this.ofStr.n * 2), -1);
    let t = this.ofStr.a[strId]!;
    if (t < 0) {
      t = this.str.push(strId);
      this.ofStr.a[strId] = t;
      this.stamp.push(-1);
      this.roles.push(0);
    }
    return t;
  }

  /** Starts the token list of document `doc` (documents come in order); returns its start. */
  beginDoc(doc: number): number {
    this.doc = doc;
    return this.docTok.n;
  }

  /**
   * Adds a token to the current document, once per role: "la" of "Rue de la Luye" in
   * "La Bâtie-Neuve" is both a name and a city word, and a query naming both explains both.
   */
  add(strId: number, role: number): void {
    if (strId === 0) return;
    const t = this.tokenOf(strId);
    const bit = 1 << role;
    if (this.stamp.a[t] === this.doc) {
      if (this.roles.a[t]! & bit) return;
      this.roles.a[t]! |= bit;
    } else {
      this.stamp.a[t] = this.doc;
      this.roles.a[t] = bit;
    }
    this.docTok.push(t);
    this.docTokRole.push(role);
  }

  /**
   * Orders tokens by hash and builds postings and the delete table. Returns the columns and
   * `newId` (old token id → final id) for columns written with the old ids (addrHnTok).
   */
  finish(docCount: number, docTokStart: Uint32Array): {
    newId: Uint32Array; tokHash: Uint32Array; tokStr: Uint32Array; tokPostStart: Uint32Array; tokPostCount: Uint32Array;
    postings: Uint32Array; delHash: Uint32Array; delTok: Uint32Array; docTok: Uint32Array; docTokRole: Uint8Array;
  } {
    const n = this.count;
    const S = this.strings;
    const hashes = new Uint32Array(n);
    const ids = new Uint32Array(n);
    for (let t = 0; t < n; t++) { hashes[t] = S.hash(this.str.a[t]!); ids[t] = t; }
    const [tokHash, order] = radixSortPairs(hashes, ids);
    const newId = new Uint32Array(n);
    const tokStr = new Uint32Array(n);
    for (let i = 0; i < n; i++) { newId[order[i]!] = i; tokStr[i] = this.str.a[order[i]!]!; }
    this.ofStr.a = new Int32Array(0); this.ofStr.n = 0;
    const docTok = this.docTok.trimmed();
    this.docTok.a = new Uint32Array(0); this.docTok.n = 0;
    for (let i = 0; i < docTok.length; i++) docTok[i] = newId[docTok[i]!]!;
    // postings: documents per token, ascending (documents are visited in order), a document
    // once per token however many roles it has the token in
    const tokPostCount = new Uint32Array(n);
    const lastDoc = new Int32Array(n).fill(-1);
    for (let d = 0; d < docCount; d++) {
      for (let p = docTokStart[d]!, e = docTokStart[d + 1]!; p < e; p++) {
        const t = docTok[p]!;
        if (lastDoc[t] !== d) { lastDoc[t] = d; tokPostCount[t]!++; }
      }
    }
    const tokPostStart = new Uint32Array(n);
    let sum = 0;
    for (let t = 0; t < n; t++) { tokPostStart[t] = sum; sum += tokPostCount[t]!; }
    const fill = tokPostStart.slice();
    const postings = new Uint32Array(sum);
    lastDoc.fill(-1);
    for (let d = 0; d < docCount; d++) {
      for (let p = docTokStart[d]!, e = docTokStart[d + 1]!; p < e; p++) {
        const t = docTok[p]!;
        if (lastDoc[t] !== d) { lastDoc[t] = d; postings[fill[t]!++] = d; }
      }
    }
    // symmetric deletes (distance 1) over tokens that have postings
    const dh = new Grow(Uint32Array, 1 << 16), dt = new Grow(Uint32Array, 1 << 16);
    for (let t = 0; t < n; t++) {
      if (tokPostCount[t] === 0) continue;
      for (let k = deleteKeyHashes(S.bytes(tokStr[t]!), dh); k > 0; k--) dt.push(t);
    }
    const [delHash, delTok] = radixSortPairs(dh.trimmed(), dt.trimmed());
    return { newId, tokHash, tokStr, tokPostStart, tokPostCount, postings, delHash, delTok, docTok, docTokRole: this.docTokRole.trimmed() };
  }
}
