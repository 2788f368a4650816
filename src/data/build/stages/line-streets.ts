/**
 * Streets known only as lines: every line no street document took gets the country, city and
 * (within 1 km) postcode of the nearest street document within 3 km, else of the nearest place;
 * a line that is a piece of a street with addresses (same group, near one of its parts) is
 * dropped; the rest become one document per (country, name, city) group and place (lines joined
 * by single linkage), placed at the middle of the part's first line.
 */
import KDBush from 'kdbush';
import { COORD_SCALE, DOC_STREET, ROLE_CITY, ROLE_ZIP } from '../../../engine/index/format.ts';
import { distanceMeters, type PointGrid } from '../../geo.ts';
import type { Place } from '../../source-types.ts';
import { fix } from '../doc-columns.ts';
import { orderByGroup, type TripleGrouper } from '../grouping.ts';
import type { LineStore } from '../line-store.ts';
import { packCountry } from '../point-store.ts';
import type { BuildProgress } from '../progress.ts';
import { CellLinker, LINK_METERS } from '../street-parts.ts';
import type { Documents } from './documents.ts';
import { lineMeetsParts, type StreetParts } from './split-streets.ts';

/**
 * Appends the line-only street documents. `grouper` holds the address groups (nGroups of them)
 * and takes the lines' new groups; documents 0 … parts.count - 1 are the street documents.
 */
export function lineStreets(docs: Documents, lines: LineStore, placeGrid: PointGrid<Place>, grouper: TripleGrouper, nGroups: number, parts: StreetParts, nAddr: number, pr: BuildProgress): void {
  const { D, T, toks, keys, S } = docs;
  const nStreetDocs = parts.count;
  pr.phase('streets without addresses', lines.count);
  const kd = new KDBush(Math.max(1, nStreetDocs));
  for (let d = 0; d < nStreetDocs; d++) kd.add(D.lon.a[d]! / COORD_SCALE, D.lat.a[d]! / COORD_SCALE);
  kd.finish();
  const nLines = lines.count;
  const lineGroup = new Int32Array(nLines).fill(-1);
  const lineCity = new Uint32Array(nLines), linePc = new Uint32Array(nLines), lineCc = new Uint16Array(nLines);
  const pad = LINK_METERS / 110_000;
  for (let l = 0; l < nLines; l++) {
    if ((l & 0x3fff) === 0) pr.tick(l);
    if (lines.used.a[l]) continue;
    const c = lines.line(l);
    const mid = Math.floor(c.length / 4) * 2;
    const lon = c[mid]!, lat = c[mid + 1]!;
    let cc = 0, city = 0, postcode = 0, bd = Infinity, bestDoc = -1;
    if (nStreetDocs > 0) {
      for (const dd of kd.within(lon, lat, 3000 / 111_000 / Math.max(0.05, Math.cos((lat * Math.PI) / 180)))) {
        const dist = distanceMeters(lat, lon, D.lat.a[dd]! / COORD_SCALE, D.lon.a[dd]! / COORD_SCALE);
        if (dist < bd) { bd = dist; bestDoc = dd; }
      }
    }
    if (bestDoc >= 0 && bd < 3000) {
      cc = packCountry(S.str(D.country.a[bestDoc]!)); city = D.city.a[bestDoc]!;
      if (bd < 1000) postcode = D.postcode.a[bestDoc]!;
    }
    if (!cc || !city) {
      const np = placeGrid.nearest(lat, lon, 1, (p) => p.type !== 'locality');
      if (np) { if (!cc) cc = packCountry(np[0].country); if (!city && np[1] < 10_000) city = S.intern(np[0].name); }
    }
    if (!cc) continue;
    const g = grouper.id(cc, keys.fold(lines.name.a[l]!), keys.fold(city));
    if (g < nGroups && lineMeetsParts(c, parts, g, pad)) continue; // a piece of a street that has addresses
    lineGroup[l] = g; lineCc[l] = cc; lineCity[l] = city; linePc[l] = postcode;
  }
  const { start: lgStart, order: lOrder } = orderByGroup(lineGroup, grouper.count);
  const linker = new CellLinker();
  let labels = new Int32Array(64);
  for (let g = 0; g < grouper.count; g++) {
    const s = lgStart[g]!, m = lgStart[g + 1]! - s;
    if (m === 0) continue;
    let nc = 1;
    if (m > 1) {
      linker.reset(m, lines.line(lOrder[s]!)[1]!);
      for (let j = 0; j < m; j++) {
        const c = lines.line(lOrder[s + j]!);
        for (let p = 0; p < c.length; p += 2) linker.add(j, c[p + 1]!, c[p]!);
      }
      if (labels.length < m) labels = new Int32Array(m * 2);
      nc = linker.components(labels);
    } else labels[0] = 0;
    // one document per part, from its first line (labels appear in item order)
    for (let j = 0, next = 0; j < m && next < nc; j++) {
      if (labels[j] !== next) continue;
      next++;
      const l = lOrder[s + j]!;
      const c = lines.line(l);
      const mid = Math.floor(c.length / 4) * 2;
      const lon = c[mid]!, lat = c[mid + 1]!;
      const cc = lineCc[l]!, city = lineCity[l]!, postcode = linePc[l]!;
      const d = D.begin(DOC_STREET, docs.countryId(cc), lines.name.a[l]!, city, 0);
      D.lat.a[d] = fix(lat); D.lon.a[d] = fix(lon); D.navLat.a[d] = fix(lat); D.navLon.a[d] = fix(lon);
      D.postcode.a[d] = postcode;
      D.names.a[d] = lines.names.a[l]!;
      D.addrStart.a[d] = nAddr;
      D.tokStart.a[d] = T.beginDoc(d);
      toks.name(lines.name.a[l]!, cc, T);
      toks.words(city, ROLE_CITY, T);
      if (postcode) T.add(keys.postcode(postcode), ROLE_ZIP);
      D.admin.a[d] = docs.adminOf(cc, postcode, lat, lon);
      D.tokCount.a[d] = T.docTok.n - D.tokStart.a[d]!;
    }
  }
}
