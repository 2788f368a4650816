/**
 * The address index file format, shared by the builder (src/data) and the read side.
 *
 * One flat little-endian buffer:
 *   magic "ADDRIDX1" (8 bytes) · format version (u32) · table-of-contents length (u32) ·
 *   table of contents (UTF-8 JSON: { sections: { name: [byteOffset, length, type] }, meta }) ·
 *   sections, each aligned to 8 bytes.
 * Every section is a typed column; all readers are views over the one buffer, never copies, so
 * worker threads share one copy through a SharedArrayBuffer.
 */
export const INDEX_MAGIC = 'ADDRIDX1';
export const INDEX_FORMAT_VERSION = 4;
export const INDEX_FILE_NAME = 'index.bin';

export type ColumnType = 'u8' | 'u32' | 'i32';

/** Column names and their types. Order is the write order. */
export const COLUMNS = {
  strOff: 'u32', strData: 'u8',
  tokHash: 'u32', tokStr: 'u32', tokPostStart: 'u32', tokPostCount: 'u32', postings: 'u32',
  delHash: 'u32', delTok: 'u32',
  docKind: 'u8', docCountry: 'u32', docName: 'u32', docCity: 'u32', docDistrict: 'u32',
  docPostcode: 'u32', docLat: 'i32', docLon: 'i32', docNavLat: 'i32', docNavLon: 'i32',
  docAdmin: 'u32', docAddrStart: 'u32', docAddrCount: 'u32', docTokStart: 'u32', docTokCount: 'u32',
  docRank: 'u32', docNames: 'u32',
  docTok: 'u32', docTokRole: 'u8',
  addrHnTok: 'u32', addrHn: 'u32', addrLat: 'i32', addrLon: 'i32', addrNavLat: 'i32', addrNavLon: 'i32',
  addrPostcode: 'u32', addrAdmin: 'u32',
  admState: 'u32', admStateName: 'u32', admStateCode: 'u32', admCounty: 'u32',
} as const satisfies Record<string, ColumnType>;

export type ColumnName = keyof typeof COLUMNS;

/** Document kinds. */
export const DOC_STREET = 0;
export const DOC_PLACE = 1;
export const DOC_POSTCODE = 2;

/** Roles of a document's tokens. */
export const ROLE_NAME = 0;
export const ROLE_CITY = 1;
export const ROLE_ZIP = 2;
export const ROLE_DISTRICT = 3;
export const ROLE_ADMIN = 4;
/** The roles of a town's words: city and district (a mask for AddressIndex.docHolds). */
export const PLACE_ROLES = (1 << ROLE_CITY) | (1 << ROLE_DISTRICT);

/**
 * Coordinates are stored as integer 1e-7 degrees; this marks "no point". `addrNavLat` and
 * `addrNavLon` are empty (length 0) when no address has a navigation point (an index built
 * without street geometry): read them as NO_COORD.
 */
export const NO_COORD = -0x80000000;
export const COORD_SCALE = 1e7;

/** Separators inside a localised-names string: `lang US name RS lang US name`. */
export const NAMES_RS = '\u001e';
export const NAMES_US = '\u001f';

/** FNV-1a over UTF-8 bytes. */
export function fnv1a(bytes: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) {
    h ^= bytes[i]!;
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export interface IndexMeta {
  formatVersion: number;
  builtAt: string;
  sources: string[];
  counts: Record<string, number>;
  attribution: string[];
}
