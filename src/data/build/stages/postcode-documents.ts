/**
 * Postcode documents: one per (country, code, place name), so that a query naming both is
 * answered with that place and its own centroid (a code shared by several villages). The first
 * entry of a group gives the point; every entry's place words are city tokens. A postal name that
 * is a city and its part (AT `Wien, Innere Stadt`) is shown as city and district.
 */
import { DOC_POSTCODE, ROLE_CITY, ROLE_ZIP } from '../../../engine/index/format.ts';
import { foldText, foldTokens, postcodeKey } from '../../../engine/lookup/normalize/normalize.ts';
import type { PostcodeEntry } from '../../source-types.ts';
import { postalCityAndDistrict } from '../postal-district.ts';
import { fix } from '../doc-columns.ts';
import type { BuildProgress } from '../progress.ts';
import type { Documents } from './documents.ts';

export function postcodeDocuments(docs: Documents, postcodes: PostcodeEntry[], nAddr: number, pr: BuildProgress): void {
  const { D, T, S, admin } = docs;
  pr.phase('postcode documents', postcodes.length);
  const pcGroups = new Map<string, PostcodeEntry[]>();
  for (const e of postcodes) {
    const key = postcodeKey(e.code);
    if (!key) continue;
    const k = `${e.country}|${key}|${foldText(e.place)}`;
    const g = pcGroups.get(k);
    if (g) g.push(e); else pcGroups.set(k, [e]);
  }
  for (const group of pcGroups.values()) {
    const e = group[0]!;
    // a postal name that is a city and its part (`Wien, Innere Stadt`): the part is the district
    const [city, district] = postalCityAndDistrict(e.country, e.place);
    const d = D.begin(DOC_POSTCODE, S.intern(e.country), S.intern(e.code), S.intern(city), district ? S.intern(district) : 0);
    D.postcode.a[d] = S.intern(e.code);
    D.lat.a[d] = fix(e.lat); D.lon.a[d] = fix(e.lon);
    D.addrStart.a[d] = nAddr;
    D.tokStart.a[d] = T.beginDoc(d);
    T.add(S.intern(postcodeKey(e.code)), ROLE_ZIP);
    for (const x of group) for (const t of foldTokens(x.place)) T.add(S.intern(t), ROLE_CITY);
    D.tokCount.a[d] = T.docTok.n - D.tokStart.a[d]!;
    D.admin.a[d] = admin.adminFor(e.country, e.code, e.lat, e.lon);
    D.rank.a[d] = 1;
  }
}
