/**
 * Street documents: one per street part, its addresses in house-number order. Each gets its
 * geometry from the named lines near its points (street-lines), its tokens (name, city,
 * district, other city names, postcodes), its most frequent postcode and its admin id; its
 * address rows are appended to the address columns.
 */
import { COORD_SCALE, DOC_STREET, NO_COORD, ROLE_CITY, ROLE_DISTRICT, ROLE_ZIP } from '../../../engine/index/format.ts';
import type { AddressColumns } from '../address-columns.ts';
import { fix } from '../doc-columns.ts';
import type { LineStore } from '../line-store.ts';
import type { PointStore } from '../point-store.ts';
import type { BuildProgress } from '../progress.ts';
import type { Documents } from './documents.ts';
import type { StreetParts } from './split-streets.ts';
import { displayPoint, navigationPoint, nearLines } from './street-lines.ts';

/** Appends the street documents (documents 0 … parts.count - 1); returns how many addresses got a navigation point. */
export function streetDocuments(docs: Documents, P: PointStore, lines: LineStore, parts: StreetParts, order: Uint32Array, hnRank: Uint32Array, A: AddressColumns, pr: BuildProgress): number {
  const { D, T, toks, keys } = docs;
  const segStart = parts.start, nStreetDocs = parts.count;
  const hasLines = lines.count > 0;
  const pcCount = new Map<number, number>();
  const keyOf = new Float64Array(Math.max(1, maxSegment(segStart, nStreetDocs)));
  let nAddrNav = 0;
  pr.phase('street documents', nStreetDocs);
  for (let d = 0; d < nStreetDocs; d++) {
    if ((d & 0x3fff) === 0) pr.tick(d);
    const s = segStart[d]!, e = segStart[d + 1]!, k = e - s;
    const first = order[s]!;
    // addresses in house-number order (rank above 2^32, point below: one sort of plain numbers)
    for (let j = 0; j < k; j++) { const i = order[s + j]!; keyOf[j] = hnRank[keys.houseNumber(P.hn.a[i]!)]! * 4294967296 + i; }
    const seg = keyOf.subarray(0, k).sort();
    const cc = P.country.a[first]!;
    let district = 0, cLat = 0, cLon = 0;
    for (let j = 0; j < k; j++) {
      const i = seg[j]! % 4294967296;
      if (!district) district = P.district.a[i]!;
      cLat += P.lat.a[i]!; cLon += P.lon.a[i]!;
    }
    cLat /= k * COORD_SCALE; cLon /= k * COORD_SCALE;
    D.begin(DOC_STREET, docs.countryId(cc), P.street.a[first]!, P.city.a[first]!, district);
    D.addrStart.a[d] = A.addrLat.length;
    D.addrCount.a[d] = k;
    const near = hasLines ? nearLines(P, lines, keys, seg, k, P.street.a[first]!, cLat) : [];
    for (const l of near) if (!D.names.a[d]) D.names.a[d] = lines.names.a[l]!;
    const at = displayPoint(P, lines, near, seg, k, cLat, cLon);
    D.lat.a[d] = fix(at.lat); D.lon.a[d] = fix(at.lon);
    D.navLat.a[d] = at.onLine ? fix(at.lat) : NO_COORD; D.navLon.a[d] = at.onLine ? fix(at.lon) : NO_COORD;
    // tokens: name, city, district, other city names, postcodes
    D.tokStart.a[d] = T.beginDoc(d);
    toks.name(P.street.a[first]!, cc, T);
    toks.words(P.city.a[first]!, ROLE_CITY, T);
    toks.words(district, ROLE_DISTRICT, T);
    pcCount.clear();
    for (let j = 0; j < k; j++) {
      const i = seg[j]! % 4294967296;
      const alt = P.alt.a[i]!;
      if (alt) toks.alternatives(alt, T);
      const pc = P.postcode.a[i]!;
      if (pc) { T.add(keys.postcode(pc), ROLE_ZIP); pcCount.set(pc, (pcCount.get(pc) ?? 0) + 1); }
    }
    let bestPc = 0, bestN = 0;
    for (const [pc, c] of pcCount) if (c > bestN) { bestN = c; bestPc = pc; }
    D.postcode.a[d] = bestPc;
    D.rank.a[d] = k;
    D.admin.a[d] = docs.adminOf(cc, bestPc, at.lat, at.lon);
    // the address rows
    for (let j = 0; j < k; j++) {
      const i = seg[j]! % 4294967296;
      const la = P.lat.a[i]!, lo = P.lon.a[i]!;
      const nav = navigationPoint(lines, near, la / COORD_SCALE, lo / COORD_SCALE);
      if (nav) nAddrNav++;
      A.addrHnTok.push(T.tokenOf(keys.houseNumber(P.hn.a[i]!)));
      A.addrHn.push(P.hn.a[i]!);
      A.addrLat.push(la); A.addrLon.push(lo);
      A.addrNavLat.push(nav ? fix(nav[0]) : NO_COORD); A.addrNavLon.push(nav ? fix(nav[1]) : NO_COORD);
      A.addrPostcode.push(P.postcode.a[i]!);
      A.addrAdmin.push(docs.adminOf(cc, P.postcode.a[i]!, la / COORD_SCALE, lo / COORD_SCALE));
    }
    D.tokCount.a[d] = T.docTok.n - D.tokStart.a[d]!;
  }
  for (const c of Object.values(A)) c.finish();
  return nAddrNav;
}

function maxSegment(start: Uint32Array, groups: number): number {
  let m = 0;
  for (let g = 0; g < groups; g++) m = Math.max(m, start[g + 1]! - start[g]!);
  return m;
}
