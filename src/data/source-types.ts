/**
 * What the source readers emit, whatever their file format. The builder turns these into the
 * index; the readers know nothing of the index layout.
 */
export interface AddressPoint {
  /** ISO 3166-1 alpha-2, '' when unknown (the builder fills it from the nearest city). */
  country: string;
  street: string;
  housenumber: string;
  postcode: string;
  city: string;
  district: string;
  lat: number;
  lon: number;
  /** Unit / flat / door (OpenAddresses UNIT), not part of the house number. */
  unit?: string;
  /**
   * Other names of the city this address is also found by: BAN's `libelle_acheminement` and
   * `nom_ancienne_commune` (the pre-merger commune people still write).
   */
  altCities?: string[];
}

export interface StreetLine {
  name: string;
  /** Localised names (OSM name:xx). */
  names?: Record<string, string>;
  /** lon, lat, lon, lat, … */
  coords: Float64Array;
}

export interface Place {
  country: string;
  name: string;
  /** Extra names to match (alternate names), not shown. */
  altNames?: string[];
  /** Localised names (OSM name:xx). */
  names?: Record<string, string>;
  /** Localised names shown for `locale` but not matched (another town's own name: Wien's fr `Vienne`). */
  displayNames?: Record<string, string>;
  lat: number;
  lon: number;
  population: number;
  /** city, town, village, hamlet, suburb, locality, … */
  type: string;
  /** Seat of government: 1 national capital, 2 seat of a first-level division, 3 of a second-level one; 0 or absent none. */
  seat?: number;
  /** First ISO 3166-2 level name (region, Land), when the source knows it. */
  state?: string;
  /** Full ISO 3166-2 code of that level (`DE-BE`), when known. */
  stateCode?: string;
  /** Second level name (département, provincia, county), when known. */
  county?: string;
}

export interface PostcodeEntry {
  country: string;
  code: string;
  place: string;
  state: string;
  stateCode: string;
  county: string;
  lat: number;
  lon: number;
}

/** An administrative area with its polygon (for point-in-polygon). */
export interface AdminArea {
  country: string;
  level: number;
  name: string;
  names?: Record<string, string>;
  /** ISO 3166-2 code when tagged (e.g. LI-11). */
  iso: string;
  rings: Float64Array[];
  bbox: [number, number, number, number];
}

export interface SourceBatch {
  addresses: AddressPoint[];
  lines: StreetLine[];
  places: Place[];
  postcodes: PostcodeEntry[];
  admins: AdminArea[];
}

export function emptyBatch(): SourceBatch {
  return { addresses: [], lines: [], places: [], postcodes: [], admins: [] };
}
