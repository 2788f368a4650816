/** The documents' columns, appended in document order (street, then line-only, place, postcode documents). */
import { COORD_SCALE, NO_COORD } from '../../engine/index/format.ts';
import { growI32, growU32, growU8 } from './growable.ts';

export class DocColumns {
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
    // one push per column (no array of columns per document: the default layer has 550k documents)
    this.postcode.push(0); this.admin.push(0); this.addrStart.push(0); this.addrCount.push(0);
    this.tokStart.push(0); this.tokCount.push(0); this.rank.push(0); this.names.push(0);
    this.lat.push(NO_COORD); this.lon.push(NO_COORD); this.navLat.push(NO_COORD); this.navLon.push(NO_COORD);
    return d;
  }
}

/** Degrees as the index's fixed point (NO_COORD when not a number). */
export function fix(v: number): number {
  return Number.isFinite(v) ? Math.round(v * COORD_SCALE) : NO_COORD;
}
