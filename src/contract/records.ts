/**
 * The spec's response records: key order, types and status messages.
 */
import type { Op } from './params.ts';

/** Address record keys, in the spec's table order (also the XML child order). */
export const SEARCH_RECORD_KEYS = [
  'country_iso_2', 'country_iso_3', 'country', 'state', 'state_name', 'state_code', 'county',
  'city', 'zip', 'district', 'street', 'housenumber', 'additional_data', 'latitude', 'longitude',
  'navigation_latitude', 'navigation_longitude', 'relevance', 'matchlevel',
] as const;

export type SearchRecordKey = (typeof SEARCH_RECORD_KEYS)[number];
export type SearchRecord = Record<SearchRecordKey, string>;
export type MatchLevel = 'housenumber' | 'street' | 'general';

export const LINES_RECORD_KEYS = [
  'addressline1', 'addressline2', 'addressline3', 'addressline4', 'addressline5', 'addressline6',
  'addresslinestatuscode', 'addresslinestatusmessage',
] as const;

export interface LinesRecord {
  addressline1: string;
  addressline2: string;
  addressline3: string;
  addressline4: string;
  addressline5: string;
  addressline6: string;
  addresslinestatuscode: LinesStatusCode;
  addresslinestatusmessage: string;
}

export const RECORD_KEYS: Readonly<Record<Op, readonly string[]>> = {
  search: SEARCH_RECORD_KEYS,
  lines: LINES_RECORD_KEYS,
};

/** Recipient-block status codes and their fixed English messages (spec wording). */
export const LINES_STATUS = Object.freeze({
  0: 'OK',
  1: 'OK, but the language was set to English',
  10: 'Invalid countrycode',
  11: 'Invalid sender country code',
  20: 'Destination country not supported',
  30: 'Missing mandatory fields (for this destination country)',
  31: 'Invalid input data',
  40: 'Too many lines',
  50: 'No address format defined for this destination country',
} as const);

export type LinesStatusCode = keyof typeof LINES_STATUS;

/** Only these recipient-block outcomes are charged (spec README, item 6). */
export function isChargeableLinesStatus(code: number): boolean {
  return code === 0 || code === 1;
}

export function emptySearchRecord(): SearchRecord {
  const r = {} as SearchRecord;
  for (const k of SEARCH_RECORD_KEYS) r[k] = '';
  return r;
}

/** The optional proof/balance keys (spec README, item 1), appended after the record keys. */
export const REQUEST_ID_KEY = 'requestid';
export const AVAILABLE_CREDITS_KEY = 'availablecredits';
