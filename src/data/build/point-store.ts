/**
 * The address points of a build, one typed column per field (about 44 bytes a point, no JS
 * object per point). Strings are interned ids; coordinates are the index's fixed-point 1e-7
 * degrees; the country is two packed ASCII letters (0 = unknown, filled later).
 */
import { Grow, growI32, growU16, growU32, growU8 } from './growable.ts';

export class PointStore {
  readonly lat = growI32(1 << 16);
  readonly lon = growI32(1 << 16);
  readonly country = growU16(1 << 16);
  readonly street = growU32(1 << 16);
  readonly hn = growU32(1 << 16);
  readonly postcode = growU32(1 << 16);
  readonly city = growU32(1 << 16);
  readonly district = growU32(1 << 16);
  readonly unit = growU32(1 << 16);
  /** Other city names (`altCities`), joined with U+001F, interned. */
  readonly alt = growU32(1 << 16);
  /** Index of the source (command-line order) the point came from. */
  readonly source = growU8(1 << 16);

  get count(): number {
    return this.lat.n;
  }

  /** Bytes held by the columns (capacity, not just the used part). */
  get bytes(): number {
    let b = 0;
    for (const c of this.columns()) b += c.a.byteLength;
    return b;
  }

  columns(): Grow<Uint8Array | Uint16Array | Uint32Array | Int32Array>[] {
    return [this.lat, this.lon, this.country, this.street, this.hn, this.postcode, this.city, this.district, this.unit, this.alt, this.source];
  }
}

export function packCountry(iso2: string): number {
  if (iso2.length !== 2) return 0;
  const a = iso2.charCodeAt(0), b = iso2.charCodeAt(1);
  if (a > 127 || b > 127) return 0;
  return ((a & 0xdf) << 8) | (b & 0xdf);
}

export function unpackCountry(code: number): string {
  return code === 0 ? '' : String.fromCharCode(code >> 8, code & 0xff);
}
