/**
 * Read side of the address index: typed views over ONE shared buffer (no copies), plus the
 * lookups the pipeline needs (token ids, fuzzy neighbours, postings, documents, addresses).
 * Pure: no I/O. Opening costs a JSON header parse and a few dozen view constructions; the hash
 * directories (hash-directory.ts) are made on first use.
 */
import {
  COLUMNS, DOC_STREET, INDEX_FORMAT_VERSION, INDEX_MAGIC, fnv1a,
  type ColumnName, type IndexMeta,
} from './format.ts';
import { HashDirectory } from './hash-directory.ts';

type ViewOf<T> = T extends 'u8' ? Uint8Array : T extends 'u32' ? Uint32Array : Int32Array;
type Views = { [K in ColumnName]: ViewOf<(typeof COLUMNS)[K]> };

export class IndexFormatError extends Error {
  readonly code = 'INDEX_FORMAT';
}

const decoder = new TextDecoder();
const encoder = new TextEncoder();

export class AddressIndex {
  readonly c: Views;
  readonly meta: IndexMeta;
  readonly docCount: number;
  readonly tokenCount: number;
  private readonly scratch = new Uint8Array(1024);
  /**
   * Memos of the read-only index (exact: the index never changes). A lookup decodes the same
   * admin names, cities and countries and looks up the same common words again and again.
   * Each is bounded and simply emptied when full: at most MEMO_ENTRIES entries, at most
   * MEMO_CHARS characters of strings (each up to MEMO_STRING_LENGTH), tokens only up to
   * MEMO_TOKEN_LENGTH characters; together ≤ ≈ 7 MB per open index, i.e. per worker thread
   * (map entries ≈ 40 bytes, strings ≤ 2 bytes a character plus a ≈ 20-byte header).
   */
  private readonly strMemo = new Map<number, string>();
  private strMemoChars = 0;
  private readonly tokenMemo = new Map<string, number>();
  /** Directories over the token and typo-key hashes (hash-directory.ts), made on first use. */
  private tokDir: HashDirectory | undefined;
  private delDir: HashDirectory | undefined;

  /** Documents' token lists lie back to back in document order (true of every built index). */
  private readonly tokListsContiguous: boolean;
  /** Some document is a street (the embedded default holds none: places and postcodes only). */
  readonly holdsStreets: boolean;

  constructor(c: Views, meta: IndexMeta) {
    this.c = c;
    this.meta = meta;
    this.docCount = c.docKind.length;
    this.tokenCount = c.tokHash.length;
    let contiguous = true;
    const s = c.docTokStart, n = c.docTokCount;
    for (let d = 0; d + 1 < this.docCount && contiguous; d++) contiguous = s[d]! + n[d]! === s[d + 1];
    this.tokListsContiguous = contiguous;
    this.holdsStreets = c.docKind.includes(DOC_STREET);
  }

  /**
   * End (exclusive) of document `doc`'s token list. From the next document's start where the
   * lists are contiguous: one memory line read for both ends instead of two columns, which is
   * what a lookup pays per candidate document in an index of gigabytes.
   */
  docTokEnd(doc: number): number {
    const s = this.c.docTokStart;
    return this.tokListsContiguous && doc + 1 < this.docCount ? s[doc + 1]! : s[doc]! + this.c.docTokCount[doc]!;
  }

  /**
   * Whether document `doc` holds token `tok` in one of the roles of `roleMask` (bit 1 << role).
   * A document may hold a word in two roles ("la" of a street name and of its town's name).
   */
  docHolds(doc: number, tok: number, roleMask: number): boolean {
    const c = this.c;
    for (let j = c.docTokStart[doc]!, e = this.docTokEnd(doc); j < e; j++) {
      if (c.docTok[j] === tok && (roleMask >>> c.docTokRole[j]!) & 1) return true;
    }
    return false;
  }

  /** Metres between two documents' display points (equirectangular: exact enough within a country). */
  docDistance(a: number, b: number): number {
    const c = this.c;
    const la = c.docLat[a]! / 1e7, lo = c.docLon[a]! / 1e7, lb = c.docLat[b]! / 1e7, lob = c.docLon[b]! / 1e7;
    const x = (lob - lo) * Math.cos(((la + lb) / 2) * Math.PI / 180);
    return Math.sqrt(x * x + (lb - la) ** 2) * 111_320;
  }

  /** A string of the string table. */
  str(id: number): string {
    if (id === 0) return '';
    let s = this.strMemo.get(id);
    if (s === undefined) {
      const off = this.c.strOff;
      s = decoder.decode(this.c.strData.subarray(off[id]!, off[id + 1]!));
      if (s.length > MEMO_STRING_LENGTH) return s;
      if (this.strMemo.size >= MEMO_ENTRIES || this.strMemoChars + s.length > MEMO_CHARS) {
        this.strMemo.clear();
        this.strMemoChars = 0;
      }
      this.strMemo.set(id, s);
      this.strMemoChars += s.length;
    }
    return s;
  }

  /** Token id of a folded token, or -1. */
  tokenId(tok: string): number {
    if (tok.length > MEMO_TOKEN_LENGTH) return this.findToken(tok);
    let id = this.tokenMemo.get(tok);
    if (id === undefined) {
      id = this.findToken(tok);
      if (this.tokenMemo.size >= MEMO_ENTRIES) this.tokenMemo.clear();
      this.tokenMemo.set(tok, id);
    }
    return id;
  }

  private findToken(tok: string): number {
    const n = this.encode(tok);
    if (n < 0) return -1;
    const h = fnv1a(this.scratch, 0, n);
    const hashes = this.c.tokHash;
    for (let i = (this.tokDir ??= new HashDirectory(hashes)).lowerBound(h); i < hashes.length && hashes[i] === h; i++) {
      if (this.strEquals(this.c.tokStr[i]!, n)) return i;
    }
    return -1;
  }

  /** The folded text of a token id. */
  tokenText(id: number): string {
    return this.str(this.c.tokStr[id]!);
  }

  /** The length in bytes (UTF-8) of a token's text, read without decoding it. */
  tokenBytes(id: number): number {
    const s = this.c.tokStr[id]!;
    return s === 0 ? 0 : this.c.strOff[s + 1]! - this.c.strOff[s]!;
  }

  /** Token ids whose symmetric-delete keys share a hash with `key` (unverified candidates). */
  deleteNeighbours(key: string, out: Set<number>): void {
    const n = this.encode(key);
    if (n < 0) return;
    const h = fnv1a(this.scratch, 0, n);
    const hashes = this.c.delHash;
    for (let i = (this.delDir ??= new HashDirectory(hashes)).lowerBound(h); i < hashes.length && hashes[i] === h; i++) out.add(this.c.delTok[i]!);
  }

  /** True when the text of token `tok` starts with the UTF-8 bytes `prefix` (no decoding). */
  tokenStartsWith(tok: number, prefix: Uint8Array): boolean {
    const off = this.c.strOff;
    const id = this.c.tokStr[tok]!;
    const a = off[id]!;
    if (off[id + 1]! - a < prefix.length) return false;
    const d = this.c.strData;
    for (let i = 0; i < prefix.length; i++) if (d[a + i] !== prefix[i]) return false;
    return true;
  }

  postingCount(tok: number): number {
    return this.c.tokPostCount[tok]!;
  }

  postings(tok: number): Uint32Array {
    const s = this.c.tokPostStart[tok]!;
    return this.c.postings.subarray(s, s + this.c.tokPostCount[tok]!);
  }

  /** UTF-8 bytes of `s` into scratch; their count, or -1 when it does not fit. */
  private encode(s: string): number {
    // folded tokens are mostly ASCII: copy the code units rather than call into the encoder
    const n = s.length;
    if (n <= this.scratch.length) {
      let i = 0;
      for (; i < n; i++) {
        const ch = s.charCodeAt(i);
        if (ch >= 0x80) break;
        this.scratch[i] = ch;
      }
      if (i === n) return n;
    }
    const r = encoder.encodeInto(s, this.scratch);
    if (r.read !== s.length) return -1;
    return r.written;
  }

  private strEquals(id: number, n: number): boolean {
    const off = this.c.strOff;
    const a = off[id]!;
    if (off[id + 1]! - a !== n) return false;
    const d = this.c.strData;
    for (let i = 0; i < n; i++) if (d[a + i] !== this.scratch[i]) return false;
    return true;
  }
}

const ALIGN = 8;
/** Bounds of AddressIndex's memos (see there). */
const MEMO_ENTRIES = 32_768;
const MEMO_CHARS = 1_000_000;
const MEMO_STRING_LENGTH = 1_000;
/**
 * Longer tokens are not memoised: they are rare words, and V8 makes a slice of 13 or more
 * characters a view that keeps its whole source text (the request) alive as long as the key.
 */
const MEMO_TOKEN_LENGTH = 12;

interface Toc { sections: Record<string, [number, number]>; meta: IndexMeta }

/** Magic, version and table of contents of an index's first bytes. */
function readToc(head: Uint8Array, where: string): Toc {
  if (head.length < 16 || decoder.decode(head.subarray(0, 8)) !== INDEX_MAGIC) {
    throw new IndexFormatError(`${where}not an addrflow address index (bad magic)`);
  }
  const dv = new DataView(head.buffer, head.byteOffset, head.byteLength);
  const version = dv.getUint32(8, true);
  if (version !== INDEX_FORMAT_VERSION) {
    throw new IndexFormatError(`${where}index format version ${version}, this build reads ${INDEX_FORMAT_VERSION}; rebuild the index`);
  }
  const tocLen = dv.getUint32(12, true);
  if (16 + tocLen > head.length) throw new IndexFormatError(`${where}index truncated inside its table of contents`);
  try {
    return JSON.parse(decoder.decode(head.subarray(16, 16 + tocLen))) as Toc;
  } catch {
    throw new IndexFormatError(`${where}index table of contents is not valid JSON (damaged file)`);
  }
}

/** Views over an index buffer. Throws IndexFormatError on a wrong magic, version or size. */
export function openIndex(buffer: SharedArrayBuffer | ArrayBufferLike): AddressIndex {
  const bytes = new Uint8Array(buffer);
  const toc = readToc(bytes, '');
  const views = {} as Record<string, Uint8Array | Uint32Array | Int32Array>;
  for (const [name, type] of Object.entries(COLUMNS)) {
    const s = toc.sections[name];
    if (!s) throw new IndexFormatError(`index lacks section ${name}`);
    const [off, len] = s;
    if (off % ALIGN !== 0) throw new IndexFormatError(`section ${name} misaligned`);
    const end = off + len * (type === 'u8' ? 1 : 4);
    if (end > bytes.length) {
      throw new IndexFormatError(`index truncated: section ${name} ends at byte ${end} but the index has ${bytes.length} bytes; rebuild or copy it again`);
    }
    views[name] = type === 'u8' ? new Uint8Array(buffer, off, len)
      : type === 'u32' ? new Uint32Array(buffer, off, len) : new Int32Array(buffer, off, len);
  }
  return new AddressIndex(views as unknown as Views, toc.meta);
}

export { INDEX_FORMAT_VERSION };
