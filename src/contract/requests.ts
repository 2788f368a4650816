/**
 * Typed request elements, after validation. Field names are the spec's, unchanged.
 */
export interface SearchRequest {
  address?: string;
  country?: string;
  state?: string;
  county?: string;
  city?: string;
  zip?: string;
  district?: string;
  street?: string;
  housenumber?: string;
  locale?: string;
  /**
   * Extension (not a spec key): a soft default country, ISO 3166-1 alpha-2 of a destination,
   * that favours one country among those a query without a country leaves open; unlike
   * `country` it excludes none. Set per job (`--prefer-country`), per consumer, or per request.
   */
  prefer_country?: string;
}

export interface LinesRequest {
  countrycode: string;
  sendercountrycode: string;
  countrynamelanguage?: string;
  county?: string;
  state?: string;
  statename?: string;
  statecode?: string;
  district?: string;
  city?: string;
  zip?: string;
  street?: string;
  housenumber?: string;
  additionaldata?: string;
  maxcharsperline?: number;
}

/** Per-element options (allowed top-level and inside batch elements). */
export interface ElementOptions {
  requestproof: boolean;
  returnavailablecredits: boolean;
  responseformat?: 'json' | 'xml';
  /** `explain=1` (an addrflow extension, search only): the record carries its explanation. Absent unless asked for. */
  explain?: true;
}

export interface RequestByOp {
  search: SearchRequest;
  lines: LinesRequest;
}
