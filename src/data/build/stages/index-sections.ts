/**
 * Index sections: every column of the index file, by name: the string table (closed here, after
 * the admin names are interned), tokens and postings, the documents' columns, the address
 * columns (spilled ones are copied from their files, the hn-token column remapped to the final
 * token ids) and the admin table.
 */
import type { ColumnName } from '../../../engine/index/format.ts';
import { addressSection, type AddressColumns } from '../address-columns.ts';
import type { Section } from '../index-writer.ts';
import type { Documents } from './documents.ts';
import type { TokenColumns } from './tokens.ts';

/** `noNav`: no address has a navigation point; the two navigation columns are written empty. */
export function indexSections(docs: Documents, tk: TokenColumns, A: AddressColumns, noNav: boolean): Record<ColumnName, Section> {
  const { D, S, admin } = docs;
  const admState = Uint32Array.from(admin.list, (a) => S.intern(a.state));
  const admStateName = Uint32Array.from(admin.list, (a) => S.intern(a.stateName));
  const admStateCode = Uint32Array.from(admin.list, (a) => S.intern(a.stateCode));
  const admCounty = Uint32Array.from(admin.list, (a) => S.intern(a.county));
  const [strOff, strData] = S.finish();
  return {
    strOff: { array: strOff }, strData: { array: strData },
    tokHash: { array: tk.tokHash }, tokStr: { array: tk.tokStr }, tokPostStart: { array: tk.tokPostStart },
    tokPostCount: { array: tk.tokPostCount }, postings: { array: tk.postings },
    delHash: { array: tk.delHash }, delTok: { array: tk.delTok },
    docKind: { array: D.kind.view() }, docCountry: { array: D.country.view() }, docName: { array: D.name.view() },
    docCity: { array: D.city.view() }, docDistrict: { array: D.district.view() }, docPostcode: { array: D.postcode.view() },
    docLat: { array: D.lat.view() }, docLon: { array: D.lon.view() }, docNavLat: { array: D.navLat.view() }, docNavLon: { array: D.navLon.view() },
    docAdmin: { array: D.admin.view() }, docAddrStart: { array: D.addrStart.view() }, docAddrCount: { array: D.addrCount.view() },
    docTokStart: { array: D.tokStart.view() }, docTokCount: { array: D.tokCount.view() }, docRank: { array: D.rank.view() },
    docNames: { array: D.names.view() }, docTok: { array: tk.docTok }, docTokRole: { array: tk.docTokRole },
    addrHnTok: addressSection(A.addrHnTok, tk.newId), addrHn: addressSection(A.addrHn), addrLat: addressSection(A.addrLat),
    addrLon: addressSection(A.addrLon), addrNavLat: addressSection(A.addrNavLat, undefined, noNav), addrNavLon: addressSection(A.addrNavLon, undefined, noNav),
    addrPostcode: addressSection(A.addrPostcode), addrAdmin: addressSection(A.addrAdmin),
    admState: { array: admState }, admStateName: { array: admStateName }, admStateCode: { array: admStateCode }, admCounty: { array: admCounty },
  };
}
