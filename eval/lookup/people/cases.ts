/**
 * The case model shared by the people sets: a query as a person would type it, its truth (never
 * taken from the index under test), its set, country, pattern and half.
 */
import type { SearchRequest } from '../../../src/contract/requests.ts';
import { halfOf, type Half } from './split.ts';

/** A place by name: right = the place itself (see score.ts for the rule). */
export interface PlaceTruth {
  kind: 'place';
  country: string;
  /** The place's names as written by its sources (GeoNames name and ASCII name, local, English, CLDR). */
  names: string[];
  lat: number;
  lon: number;
  /** The distance within which an answer's point counts as the place, in km. */
  radiusKm: number;
  label: string;
}

/** An address or place named by its city and/or postcode: right = that city or postcode. */
export interface AreaTruth {
  kind: 'area';
  country: string;
  /** '' when the truth names no city (a postcode, region or country asked for). */
  city: string;
  /** Other spellings of the same city in tagged sources (CLDR exemplar, postal name). */
  cityNames?: string[];
  postcode?: string;
  /** Checked only when the truth names neither city nor postcode (a region asked for alone). */
  state?: string;
  /** Countries the query's postcode shape and street word leave open; undefined = none ruled out. */
  allowed?: string[];
}

/** A state by name: right = one of these states, with no city or the city it is named after (see score.ts). */
export interface StateTruth {
  kind: 'state';
  /** ISO 3166-2 codes of the states that bear the name. */
  codes: string[];
  /** Their names (local, English, other languages). */
  names: string[];
}

export interface PeopleCase {
  id: string;
  set: string;
  country: string;
  pattern: string;
  query: SearchRequest;
  truth: PlaceTruth | AreaTruth | StateTruth;
  half: Half;
}

export function makeCase(set: string, id: string, country: string, pattern: string, query: SearchRequest, truth: PlaceTruth | AreaTruth | StateTruth): PeopleCase {
  const fullId = `${set}:${id}`;
  return { id: fullId, set, country, pattern, query, truth, half: halfOf(fullId) };
}
