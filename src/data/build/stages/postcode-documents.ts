/**
 * Postcode documents: one per (country, code, place name), so that a query naming both is
 * answered with that place and its own centroid (a code shared by several villages). The first
 * entry of a group gives the point; every entry's place words are city tokens. A postal name that
 * is a city and its part (AT `Wien, Innere Stadt`) is shown as city and district.
 *
 * Hundreds of thousands of entries (the default layer: 462k, nearly all a group of one): the
 * groups are positions linked in typed arrays, not an array each; each entry's place is folded
 * once (shared with the place documents); a code repeated by the next entry is keyed and interned
 * once. Strings are interned in the same order as ever (the string table is the index's).
 */
import { DOC_POSTCODE, ROLE_CITY, ROLE_ZIP } from '../../../engine/index/format.ts';
import { postcodeKey } from '../../../engine/lookup/normalize/normalize.ts';
import type { PostcodeEntry } from '../../source-types.ts';
import { postalCityAndDistrict } from '../postal-district.ts';
import { fix } from '../doc-columns.ts';
import { foldedTokens } from '../folded-tokens.ts';
import type { BuildProgress } from '../progress.ts';
import type { Documents } from './documents.ts';

export function postcodeDocuments(docs: Documents, postcodes: PostcodeEntry[], nAddr: number, pr: BuildProgress): void {
  const { D, T, S, admin } = docs;
  pr.phase('postcode documents', postcodes.length);
  const folds = docs.postcodePlaceFolds(postcodes, true);
  const n = postcodes.length;
  // groups in order of their first entry: heads[g] its first entry, next[i] the group's entry
  // after i; the groups of one (country, code key) are chained by sameCode, the last made first
  const byCode = new Map<string, Map<string, number>>();
  const heads: number[] = [];
  const tails: number[] = [];
  const sameCode: number[] = [];
  const next = new Int32Array(n).fill(-1);
  const keys: string[] = new Array(n);
  let lastCode: string | undefined, lastKey = '', lastCountry: string | undefined, codes: Map<string, number> | undefined;
  for (let i = 0; i < n; i++) {
    const e = postcodes[i]!;
    if (e.code !== lastCode) { lastCode = e.code; lastKey = postcodeKey(e.code); }
    if (!lastKey) continue;
    keys[i] = lastKey;
    if (e.country !== lastCountry) {
      lastCountry = e.country;
      codes = byCode.get(e.country);
      if (!codes) { codes = new Map(); byCode.set(e.country, codes); }
    }
    const first = codes!.get(lastKey) ?? -1;
    let g = first;
    while (g >= 0 && folds[heads[g]!] !== folds[i]) g = sameCode[g]!;
    if (g >= 0) { next[tails[g]!] = i; tails[g] = i; continue; }
    codes!.set(lastKey, heads.length);
    sameCode.push(first); heads.push(i); tails.push(i);
  }
  byCode.clear();
  // the ids of the last code and its key: the next group often has the same code; its admin id
  // too, which without polygons depends on the code and the entry's own state and county
  let idCode: string | undefined, codeId = 0, keyId = -1;
  let docCountry = '', countryId = 0, adminCountry = '', adminCode: string | undefined, adminId = 0;
  let adminState = '', adminStateName = '', adminCounty = '';
  for (const head of heads) {
    const e = postcodes[head]!;
    // a postal name that is a city and its part (`Wien, Innere Stadt`): the part is the district
    const [city, district] = postalCityAndDistrict(e.country, e.place);
    if (e.country !== docCountry) { docCountry = e.country; countryId = S.intern(e.country); }
    if (e.code !== idCode) { idCode = e.code; codeId = S.intern(e.code); keyId = -1; }
    const d = D.begin(DOC_POSTCODE, countryId, codeId, S.intern(city), district ? S.intern(district) : 0);
    D.postcode.a[d] = codeId;
    D.lat.a[d] = fix(e.lat); D.lon.a[d] = fix(e.lon);
    D.addrStart.a[d] = nAddr;
    D.tokStart.a[d] = T.beginDoc(d);
    if (keyId < 0) keyId = keys[head] === e.code ? codeId : S.intern(keys[head]!);
    T.add(keyId, ROLE_ZIP);
    for (let x = head; x >= 0; x = next[x]!) for (const t of foldedTokens(folds[x]!)) T.add(S.intern(t), ROLE_CITY);
    D.tokCount.a[d] = T.docTok.n - D.tokStart.a[d]!;
    // without polygons, the entry's own state and county (a code shared across a border: AT 1140
    // is Wien, Penzing and two villages of Niederösterreich); with polygons, its point's
    if (admin.hasPolygons || e.country !== adminCountry || e.code !== adminCode || e.stateCode !== adminState || e.state !== adminStateName || e.county !== adminCounty) {
      adminCountry = e.country; adminCode = e.code; adminState = e.stateCode; adminStateName = e.state; adminCounty = e.county;
      adminId = admin.adminFor(e.country, e.code, e.lat, e.lon, admin.hasPolygons ? undefined : e);
    }
    D.admin.a[d] = adminId;
    D.rank.a[d] = 1;
  }
}
