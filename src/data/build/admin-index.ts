/**
 * Admin assignment: which state / county / district a point lies in. Polygons are found through
 * a Flatbush R-tree over their boxes and tested with an edge grid each (PolygonGrid, built on
 * first use), so a point costs a box search and a few edge tests, not a walk over every edge of
 * every area. Where no polygon answers, the admin names a source already knows (a place's state,
 * a postcode's state and county) fill in, then the nearest postcode's.
 */
import Flatbush from 'flatbush';
import { postcodeKey } from '../../engine/lookup/normalize/normalize.ts';
import { PointGrid } from '../geo.ts';
import { isoSubdivision } from '../iso3166-2.ts';
import type { AdminArea, PostcodeEntry } from '../source-types.ts';
import { PolygonGrid } from './polygon-grid.ts';

export interface Admin { state: string; stateName: string; stateCode: string; county: string; district: string }

export class AdminIndex {
  readonly list: Admin[] = [{ state: '', stateName: '', stateCode: '', county: '', district: '' }];
  private readonly ids = new Map<string, number>([['||||', 0]]);
  private readonly areas: AdminArea[];
  private readonly grids: (PolygonGrid | undefined)[];
  private readonly tree: Flatbush | undefined;
  private readonly pcByKey: Map<string, PostcodeEntry>;
  private readonly postcodes: PostcodeEntry[];
  /** The postcode entries on a grid, made on the first nearest-postcode question (many builds ask none). */
  private pcGridMade: PointGrid<PostcodeEntry> | undefined;
  /** Countries some postcode entry of which names a state / a county: elsewhere no entry can fill one in. */
  private readonly pcStates = new Set<string>();
  private readonly pcCounties = new Set<string>();
  /** (country, postcode) → admin id when no polygon is involved. */
  private readonly byPostcode = new Map<string, number>();
  /** The id compute() gave last. */
  private lastId = 0;
  /** Polygon tests made (for the build summary). */
  tests = 0;

  constructor(admins: AdminArea[], postcodes: PostcodeEntry[]) {
    this.areas = admins.filter((a) => a.level > 2 && a.rings.length > 0);
    this.grids = new Array(this.areas.length);
    if (this.areas.length > 0) {
      const t = new Flatbush(this.areas.length);
      for (const a of this.areas) t.add(a.bbox[0], a.bbox[1], a.bbox[2], a.bbox[3]);
      t.finish();
      this.tree = t;
    }
    this.pcByKey = new Map();
    this.postcodes = postcodes;
    let lastCode: string | undefined, lastCountry: string | undefined, lastKey = '';
    for (const p of postcodes) {
      // a code often repeats on the next entry: its key is made, and its first entry kept, once
      if (p.code !== lastCode || p.country !== lastCountry) {
        if (p.code !== lastCode) lastKey = postcodeKey(p.code);
        lastCode = p.code; lastCountry = p.country;
        const k = `${p.country}|${lastKey}`;
        if (!this.pcByKey.has(k)) this.pcByKey.set(k, p);
      }
      if (p.state) this.pcStates.add(p.country);
      if (p.county) this.pcCounties.add(p.country);
    }
  }

  private get pcGrid(): PointGrid<PostcodeEntry> {
    if (!this.pcGridMade) {
      this.pcGridMade = new PointGrid<PostcodeEntry>(0.1);
      for (const p of this.postcodes) this.pcGridMade.add(p.lat, p.lon, p);
    }
    return this.pcGridMade;
  }

  get hasPolygons(): boolean {
    return this.tree !== undefined;
  }

  postcodeEntry(country: string, postcode: string): PostcodeEntry | undefined {
    return postcode ? this.pcByKey.get(`${country}|${postcodeKey(postcode)}`) : undefined;
  }

  /** The admin id of a point; `known` are admin names the source gave (a place's state). */
  adminFor(country: string, postcode: string, lat: number, lon: number, known?: { state?: string; stateCode?: string; county?: string }): number {
    if (!this.tree && !known?.state && !known?.county) {
      const k = `${country}|${postcode}`;
      let id = this.byPostcode.get(k);
      if (id === undefined && postcode) {
        id = this.compute(country, postcode, lat, lon, known);
        this.byPostcode.set(k, id);
      }
      return id ?? this.compute(country, postcode, lat, lon, known);
    }
    return this.compute(country, postcode, lat, lon, known);
  }

  private compute(country: string, postcode: string, lat: number, lon: number, known?: { state?: string; stateCode?: string; county?: string }): number {
    const a: Admin = { state: '', stateName: '', stateCode: '', county: '', district: '' };
    if (known?.state) {
      a.stateName = known.state;
      a.stateCode = isoCode(country, known.stateCode ?? '', known.state);
      a.state = a.stateCode ? a.stateCode.split('-')[1]! : known.state;
    }
    if (known?.county) a.county = known.county;
    if (this.tree) {
      let stateLevel = a.stateName ? -1 : 99, countyLevel = a.county ? -1 : 99, districtLevel = -1;
      for (const i of this.tree.search(lon, lat, lon, lat)) {
        const ar = this.areas[i]!;
        let g = this.grids[i];
        if (!g) { g = new PolygonGrid(ar.rings); this.grids[i] = g; }
        this.tests++;
        if (!g.contains(lon, lat)) continue;
        if (ar.iso && ar.level < stateLevel) {
          stateLevel = ar.level;
          a.stateName = ar.name; a.stateCode = ar.iso; a.state = ar.iso.split('-')[1] ?? ar.name;
        } else if (ar.level >= 5 && ar.level <= 7 && ar.level < countyLevel) {
          countyLevel = ar.level; a.county = ar.name;
        } else if (ar.level >= 9 && ar.level > districtLevel) {
          districtLevel = ar.level; a.district = ar.name;
        }
      }
    }
    // a postcode entry fills in a missing state or county: look for one only where one could
    if ((!a.stateName && this.pcStates.has(country)) || (!a.county && this.pcCounties.has(country))) {
      let pc = this.postcodeEntry(country, postcode);
      if (!pc) {
        const n = this.pcGrid.nearest(lat, lon, 2, (p) => p.country === country);
        if (n && n[1] < 15_000) pc = n[0];
      }
      if (pc) {
        if (!a.stateName && pc.state) {
          a.stateName = pc.state;
          a.stateCode = isoCode(country, pc.stateCode, pc.state);
          a.state = a.stateCode ? a.stateCode.split('-')[1]! : pc.state;
        }
        if (!a.county && pc.county) a.county = pc.county;
      }
    }
    const last = this.list[this.lastId]!;
    if (a.state === last.state && a.stateName === last.stateName && a.stateCode === last.stateCode && a.county === last.county && a.district === last.district) {
      return this.lastId; // as the previous point's (neighbours mostly share their admin)
    }
    const k = `${a.state}|${a.stateName}|${a.stateCode}|${a.county}|${a.district}`;
    let id = this.ids.get(k);
    if (id === undefined) { id = this.list.length; this.list.push(a); this.ids.set(k, id); }
    this.lastId = id;
    return id;
  }
}

/**
 * The ISO 3166-2 code of a source's state: the default layer carries it already (`DE-BE`);
 * GeoNames' postcode files carry their own admin1 code, mapped by the pinned table.
 */
function isoCode(country: string, code: string, name: string): string {
  return code.startsWith(`${country}-`) ? code : isoSubdivision(country, code, name);
}
