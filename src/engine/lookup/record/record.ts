/**
 * Stage 10 (record, see ../index.ts): the spec's record from the chosen result. Relevance follows
 * HERE's meaning: the share of the input (weighted tokens) the result explains, lowered for typos,
 * expansions, disagreeing fields, uncovered parts of the street name and ambiguity.
 */
import { SEARCH_RECORD_KEYS, emptySearchRecord, type SearchRecord } from '../../../contract/records.ts';
import { COORD_SCALE, DOC_POSTCODE, DOC_STREET, NAMES_RS, NAMES_US, NO_COORD } from '../../index/format.ts';
import type { AddressIndex } from '../../index/index.ts';
import type { NamedPlace } from '../named-place/named-place.ts';
import { namesState } from '../named-place/state-table.ts';
import { foldText } from '../normalize/normalize.ts';
import { countryName, iso3Of } from '../parse/countries.ts';
import type { ParsedQuery } from '../parse/parse.ts';
import {
  AMBIGUOUS_STREET, COUNTRY_NOT_MATCHED, COUNTRY_ONLY, COUNTY_NOT_MATCHED, HOUSENUMBER_APPROXIMATE, HOUSENUMBER_NOT_FOUND,
  NOTHING_FOUND, STATE_NOT_MATCHED, STREET_NAME_PARTLY_NAMED, STREET_NOT_FOUND, applied,
  type Deduction, type DeductionSink,
} from '../score/deductions.ts';
import type { Scored } from '../score/score.ts';
import { subdivisionName } from './subdivisions.ts';

const NONE: readonly Deduction[] = [];

export interface Choice {
  best: Scored | undefined;
  ambiguous: boolean;
}

/** Decimal places of a stored coordinate (COORD_SCALE = 10^7). */
const COORD_DECIMALS = 7;

/**
 * A stored coordinate (an integer, degrees × COORD_SCALE) as decimal degrees without trailing
 * zeros: what `(v / COORD_SCALE).toFixed(7)` without its trailing zeros gives, in integer
 * arithmetic (the stored value has exactly seven decimals; a record prints up to six of them,
 * and float formatting plus a regex cost more than the rest of the record's fields).
 */
export function coord(v: number): string {
  if (v === NO_COORD) return '';
  if (!Number.isSafeInteger(v)) return (v / COORD_SCALE).toFixed(COORD_DECIMALS).replace(/\.?0+$/, '');
  const abs = Math.abs(v);
  const whole = Math.floor(abs / COORD_SCALE);
  let frac = abs - whole * COORD_SCALE;
  const sign = v < 0 ? '-' : '';
  if (frac === 0) return `${sign}${whole}`;
  let decimals = COORD_DECIMALS;
  while (frac % 10 === 0) {
    frac /= 10;
    decimals--;
  }
  return `${sign}${whole}.${String(frac).padStart(decimals, '0')}`;
}

function localName(index: AddressIndex, namesId: number, locale: string, fallback: string): string {
  if (!locale || namesId === 0) return fallback;
  const lang = locale.split(/[-_]/)[0]!.toLowerCase();
  for (const part of index.str(namesId).split(NAMES_RS)) {
    const [l, n] = part.split(NAMES_US);
    if (l === lang && n) return n;
  }
  return fallback;
}

export function relevanceOf(index: AddressIndex, q: ParsedQuery, s: Scored | undefined, rec: SearchRecord, ambiguous: boolean, sink?: DeductionSink): number {
  if (q.totalWeight <= 0) return 0;
  let e = 0;
  if (s) {
    for (let i = 0; i < s.explained.length; i++) e += s.explained[i]! * q.tokens[i]!.weight;
    if (s.addr >= 0 && s.hnToken < 0) e += s.hnQuality;
  }
  const countryMatched = q.countryWeight > 0 && !q.countryUnknown && rec.country_iso_2 === q.country;
  if (countryMatched) e += q.countryWeight;
  const same = (a: string, b: string) => {
    if (a === '') return false;
    const f = foldText(a);
    return f === b || b.includes(f) || f.includes(b);
  };
  let statesMatched = 0, countiesMatched = 0;
  for (const st of q.state) {
    if (same(rec.state_name, st) || same(rec.state, st) || same(rec.state_code, st) || namesState(index, st, rec.state_code)) { e += 0.5; statesMatched++; }
  }
  for (const co of q.county) if (same(rec.county, co)) { e += 0.5; countiesMatched++; }
  let rel = (100 * e) / q.totalWeight;
  if (sink) shareDeductions(q, s, sink, countryMatched, statesMatched, countiesMatched);
  const was = rel;
  if (s && s.kind === DOC_STREET) rel -= (1 - s.nameCoverage) * STREET_NAME_PARTLY_NAMED.points;
  if (sink && rel < was) sink.list.push(applied(STREET_NAME_PARTLY_NAMED, was - rel));
  if (ambiguous) rel -= AMBIGUOUS_STREET.points;
  if (sink && ambiguous) sink.list.push(applied(AMBIGUOUS_STREET, AMBIGUOUS_STREET.points));
  // the named place's own deductions (homonym guess, country from weak evidence, postcode and city disagree, …)
  const placeDeductions: readonly Deduction[] = s && 'deductions' in s ? (s as NamedPlace).deductions : NONE;
  for (const d of placeDeductions) {
    rel -= d.points;
    if (sink) sink.list.push(applied(d, d.points));
  }
  if (!s) rel = capped(rel, COUNTRY_ONLY, sink); // a country alone is not an address
  if (!s && !q.country) rel = capped(rel, NOTHING_FOUND, sink); // nothing found and no country: nothing to be confident about
  // a general answer to a query that named a street (or a house number) never reaches 90
  if (s && s.kind !== DOC_STREET && namesStreet(q, s)) rel = capped(rel, STREET_NOT_FOUND, sink);
  return Math.max(0, Math.min(100, Math.round(rel)));
}

/** `rel` capped at the cap's points; the cap, when it lowered it, goes to the sink. */
function capped(rel: number, cap: Deduction, sink: DeductionSink | undefined): number {
  if (rel <= cap.points) return rel;
  if (sink) sink.list.push(applied(cap, Math.max(0, rel) - cap.points));
  return cap.points;
}

/** The share deductions (explain only): per word what its match lacked, then the fields given that the answer does not hold. */
function shareDeductions(q: ParsedQuery, s: Scored | undefined, sink: DeductionSink, countryMatched: boolean, states: number, counties: number): void {
  const share = (weight: number) => (100 * weight) / q.totalWeight;
  for (let i = 0; i < q.tokens.length; i++) {
    const lost = 1 - (s ? s.explained[i]! : 0);
    if (lost > 1e-9) {
      const d = applied(sink.wordReason(i), share(q.tokens[i]!.weight) * lost);
      d.why += ` ("${q.tokens[i]!.text}")`;
      sink.list.push(d);
    }
  }
  if (q.hnKeys.length > 0) {
    const found = s && s.addr >= 0 && s.hnToken < 0 ? s.hnQuality : 0;
    if (found < 1) sink.list.push(applied(found > 0 ? HOUSENUMBER_APPROXIMATE : HOUSENUMBER_NOT_FOUND, share(1) * (1 - found)));
  }
  if (q.countryWeight > 0 && !countryMatched) sink.list.push(applied(COUNTRY_NOT_MATCHED, share(q.countryWeight)));
  if (states < q.state.length) sink.list.push(applied(STATE_NOT_MATCHED, share(0.5 * (q.state.length - states))));
  if (counties < q.county.length) sink.list.push(applied(COUNTY_NOT_MATCHED, share(0.5 * (q.county.length - counties))));
}

function namesStreet(q: ParsedQuery, s: Scored): boolean {
  if (q.hnKeys.length > 0) return true;
  return q.tokens.some((t, i) => t.field === 'street' || (t.field === 'free' && s.explained[i] === 0));
}

/** The spec's record of `choice`; with a `sink` (explain only), the relevance deductions that applied go to it. */
export function buildRecord(index: AddressIndex, q: ParsedQuery, choice: Choice, sink?: DeductionSink): SearchRecord {
  const rec = emptySearchRecord();
  const s = choice.best;
  const c = index.c;
  const loc = q.locale;
  if (!s) {
    if (q.country) {
      rec.country_iso_2 = q.country;
      rec.country_iso_3 = iso3Of(q.country);
      rec.country = countryName(q.country, loc);
      rec.matchlevel = 'general';
    }
    rec.additional_data = q.additional;
    rec.relevance = String(relevanceOf(index, q, undefined, rec, false, sink));
    return rec;
  }
  const d = s.doc;
  const iso2 = index.str(c.docCountry[d]!);
  rec.country_iso_2 = iso2;
  rec.country_iso_3 = iso3Of(iso2);
  rec.country = iso2 ? countryName(iso2, loc) : '';
  const admin = s.addr >= 0 ? c.addrAdmin[s.addr]! : c.docAdmin[d]!;
  rec.state = index.str(c.admState[admin]!);
  rec.state_code = index.str(c.admStateCode[admin]!);
  rec.state_name = (loc && rec.state_code && subdivisionName(rec.state_code, loc)) || index.str(c.admStateName[admin]!);
  rec.county = index.str(c.admCounty[admin]!);
  rec.district = index.str(c.docDistrict[d]!);
  if (s.kind === DOC_STREET) {
    rec.city = index.str(c.docCity[d]!);
    rec.street = localName(index, c.docNames[d]!, loc, index.str(c.docName[d]!));
    if (s.addr >= 0) {
      const a = s.addr;
      rec.zip = index.str(c.addrPostcode[a]!) || index.str(c.docPostcode[d]!);
      rec.housenumber = index.str(c.addrHn[a]!);
      rec.latitude = coord(c.addrLat[a]!);
      rec.longitude = coord(c.addrLon[a]!);
      // an index without street geometry stores no address navigation points (empty columns)
      rec.navigation_latitude = coord(c.addrNavLat[a] ?? NO_COORD);
      rec.navigation_longitude = coord(c.addrNavLon[a] ?? NO_COORD);
      rec.matchlevel = 'housenumber';
    } else {
      rec.zip = s.zipMatched ? (q.zipKeys.length > 0 ? matchedZip(index, q, d) : index.str(c.docPostcode[d]!)) : index.str(c.docPostcode[d]!);
      rec.latitude = coord(c.docLat[d]!);
      rec.longitude = coord(c.docLon[d]!);
      rec.navigation_latitude = coord(c.docNavLat[d]!);
      rec.navigation_longitude = coord(c.docNavLon[d]!);
      rec.matchlevel = 'street';
    }
  } else if ('zipText' in s) {
    const n = s as NamedPlace;
    rec.city = n.stateOnly ? '' : localName(index, c.docNames[n.cityDoc ?? d]!, loc, n.cityText);
    if (n.stateOnly) rec.county = rec.district = '';
    if (n.districtText) rec.district = localName(index, c.docNames[d]!, loc, n.districtText);
    rec.zip = n.zipText || (s.kind === DOC_POSTCODE && !n.placeOnly ? index.str(c.docPostcode[d]!) : '');
    rec.latitude = coord(c.docLat[d]!);
    rec.longitude = coord(c.docLon[d]!);
    rec.matchlevel = 'general';
  } else {
    rec.city = localName(index, c.docNames[d]!, loc, index.str(c.docCity[d]!));
    rec.zip = s.kind === DOC_POSTCODE || s.zipMatched ? index.str(c.docPostcode[d]!) : '';
    rec.latitude = coord(c.docLat[d]!);
    rec.longitude = coord(c.docLon[d]!);
    rec.matchlevel = 'general';
  }
  rec.additional_data = q.additional;
  rec.relevance = String(relevanceOf(index, q, s, rec, choice.ambiguous, sink));
  for (const k of SEARCH_RECORD_KEYS) if (typeof rec[k] !== 'string') rec[k] = '';
  return rec;
}

function matchedZip(index: AddressIndex, q: ParsedQuery, d: number): string {
  // the doc holds several postcodes; echo the requested one in its stored spelling
  const c = index.c;
  const start = c.docAddrStart[d]!, count = c.docAddrCount[d]!;
  for (let a = start; a < start + count; a++) {
    const z = index.str(c.addrPostcode[a]!);
    if (z.replace(/[^0-9A-Za-z]/g, '').toLowerCase() === q.zipKeys[0]) return z;
  }
  return index.str(c.docPostcode[d]!);
}
