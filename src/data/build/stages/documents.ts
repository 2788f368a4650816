/**
 * What the document stages (street, line-only, place, postcode documents) share and append to:
 * the string table, the documents' columns, the token table, and the admin ids.
 */
import { foldText } from '../../../engine/lookup/normalize/normalize.ts';
import type { PostcodeEntry } from '../../source-types.ts';
import { AdminIndex } from '../admin-index.ts';
import { DocColumns } from '../doc-columns.ts';
import type { StringInterner } from '../interner.ts';
import { unpackCountry } from '../point-store.ts';
import type { StringKeys } from '../string-keys.ts';
import { TokenLists } from '../token-lists.ts';
import { TokenTable } from '../token-table.ts';

export class Documents {
  readonly D = new DocColumns();
  readonly T: TokenTable;
  readonly toks: TokenLists;
  readonly S: StringInterner;
  readonly keys: StringKeys;
  readonly admin: AdminIndex;
  private readonly adminByPc = new Map<number, number>();
  private readonly countryIds = new Map<number, number>();
  private placeFolds: { of: PostcodeEntry[]; folds: string[] } | undefined;

  constructor(S: StringInterner, keys: StringKeys, admin: AdminIndex) {
    this.S = S;
    this.keys = keys;
    this.admin = admin;
    this.T = new TokenTable(S);
    this.toks = new TokenLists(S);
  }

  /** The interned ISO code of a packed country (interned on first use). */
  countryId(cc: number): number {
    let id = this.countryIds.get(cc);
    if (id === undefined) { id = this.S.intern(unpackCountry(cc)); this.countryIds.set(cc, id); }
    return id;
  }

  /**
   * foldText of each postcode entry's place name, computed once for the place and the postcode
   * documents (`release` when the last has read them).
   */
  postcodePlaceFolds(postcodes: PostcodeEntry[], release = false): string[] {
    const folds = this.placeFolds?.of === postcodes ? this.placeFolds.folds : postcodes.map((e) => foldText(e.place));
    this.placeFolds = release ? undefined : { of: postcodes, folds };
    return folds;
  }

  /** Admin id of a point; without polygons it depends on (country, postcode) only: cached. */
  adminOf(cc: number, pc: number, lat: number, lon: number): number {
    const admin = this.admin;
    if (admin.hasPolygons || pc === 0) return admin.adminFor(unpackCountry(cc), this.S.str(pc), lat, lon);
    const key = pc * 65536 + cc;
    let id = this.adminByPc.get(key);
    if (id === undefined) { id = admin.adminFor(unpackCountry(cc), this.S.str(pc), lat, lon); this.adminByPc.set(key, id); }
    return id;
  }
}
