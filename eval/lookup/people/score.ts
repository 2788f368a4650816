/**
 * Scoring of the people sets: whether an answer is right for its case (the truth rules), and the
 * counts per set, half, pattern and country.
 */
import type { SearchRecord } from '../../../src/contract/records.ts';
import { distanceMeters } from '../../../src/data/geo.ts';
import { foldText, postcodeKey } from '../../../src/engine/lookup/normalize/normalize.ts';
import { SUBDIVISION_CODES, SUBDIVISION_NAMES } from '../../../src/engine/lookup/record/subdivision-names.generated.ts';
import type { AreaTruth, PeopleCase, PlaceTruth, StateTruth } from './cases.ts';

/** One name is the other, or the other with words added (`København V`, `Wien, Innere Stadt`, `Il-Fgura`). */
export function sameName(a: string, b: string): boolean {
  const x = foldText(a), y = foldText(b);
  if (!x || !y) return false;
  return x === y || x.startsWith(y + ' ') || y.startsWith(x + ' ') || x.endsWith(' ' + y) || y.endsWith(' ' + x);
}

/**
 * A place is right when the answer is in the place's country and either its city is one of the
 * place's names, or its city is set and its point lies within the place's radius (a district or
 * the city's other name); an answer without a city is right only as the admin area of a
 * city-state (its state is one of the place's names and its point is within the radius).
 */
export function placeRight(t: PlaceTruth, r: SearchRecord): boolean {
  if (r.country_iso_2 !== t.country) return false;
  const near = () => {
    const lat = Number(r.latitude), lon = Number(r.longitude);
    return r.latitude !== '' && Number.isFinite(lat) && Number.isFinite(lon) && distanceMeters(t.lat, t.lon, lat, lon) <= t.radiusKm * 1000;
  };
  if (r.city) return t.names.some((n) => sameName(n, r.city)) || near();
  return !!r.state_name && t.names.some((n) => sameName(n, r.state_name)) && near();
}

/**
 * An area is right when the answer is in its country and names its postcode or its city; when the
 * truth names neither, its region (if any) or its country alone.
 */
export function areaRight(t: AreaTruth, r: SearchRecord): boolean {
  if (r.country_iso_2 !== t.country) return false;
  if (t.postcode && r.zip && postcodeKey(r.zip) === postcodeKey(t.postcode)) return true;
  if (t.city) return !!r.city && [t.city, ...(t.cityNames ?? [])].some((n) => sameName(n, r.city));
  if (t.postcode) return false;
  // a region or a country asked for alone (by any name the subdivision table gives the answer's
  // state: Pelias writes `Sardinia`, the answer's state_name is the local `Sardegna`)
  return !t.state || [r.state_name, r.state, ...subdivisionNames(r.state_code)].some((s) => !!s && sameName(s, t.state!));
}

/** The names of an ISO 3166-2 subdivision in every language of the pinned table. */
function subdivisionNames(code: string): string[] {
  const i = code ? SUBDIVISION_CODES.split(' ').indexOf(code) : -1;
  return i < 0 ? [] : Object.values(SUBDIVISION_NAMES).map((packed) => packed.split('|')[i] ?? '');
}

/**
 * A state is right when the answer's state is one of the states bearing the name (by its
 * state_code, or by its state_name in that state's country: the table's codes and the local names
 * are numbered differently for some countries, MT), and it has no city or its city is the state's
 * namesake (one of the state's names, or it with words added). The state's names are the table's
 * and, when the answer's state_code is one of the expected ones, the answer's own state_name: the
 * index's local name of that very state, which the table lacks for CY, PT, BG and LV (`Nicosia` →
 * the city Lefkosia in the district Lefkosia, CY-01).
 */
export function stateRight(t: StateTruth, r: SearchRecord): boolean {
  const byCode = t.codes.includes(r.state_code);
  const byName = t.codes.some((c) => c.startsWith(r.country_iso_2 + '-')) && t.names.some((n) => sameName(n, r.state_name));
  if (!byCode && !byName) return false;
  const names = byCode && r.state_name ? [...t.names, r.state_name] : t.names;
  return !r.city || names.some((n) => sameName(n, r.city));
}

export function isRight(c: PeopleCase, r: SearchRecord): boolean {
  return c.truth.kind === 'place' ? placeRight(c.truth, r) : c.truth.kind === 'state' ? stateRight(c.truth, r) : areaRight(c.truth, r);
}

/** The answer is in a country the query's postcode shape and street word rule out. */
export function ruledOut(c: PeopleCase, r: SearchRecord): boolean {
  return c.truth.kind === 'area' && !!c.truth.allowed && !!r.country_iso_2 && !c.truth.allowed.includes(r.country_iso_2);
}

export interface Tally { n: number; right: number; rel90: number; rel90Right: number; empty: number; ruledOut: number }

export const emptyTally = (): Tally => ({ n: 0, right: 0, rel90: 0, rel90Right: 0, empty: 0, ruledOut: 0 });

export function addTo(t: Tally, right: boolean, rel: number, empty: boolean, out: boolean): void {
  t.n++;
  if (right) t.right++;
  if (rel >= 90) { t.rel90++; if (right) t.rel90Right++; }
  if (empty) t.empty++;
  if (out) t.ruledOut++;
}

export interface Outcome { c: PeopleCase; r: SearchRecord; right: boolean; out: boolean }

export interface SetReport {
  set: string;
  byHalf: Record<string, Tally>;
  byPattern: Map<string, Record<string, Tally>>;
  byCountry: Map<string, Record<string, Tally>>;
  failures: Outcome[];
}

export function tallyOutcomes(set: string, outcomes: Outcome[]): SetReport {
  const rep: SetReport = { set, byHalf: { tune: emptyTally(), measured: emptyTally() }, byPattern: new Map(), byCountry: new Map(), failures: [] };
  const get = (m: Map<string, Record<string, Tally>>, k: string) => m.get(k) ?? m.set(k, { tune: emptyTally(), measured: emptyTally() }).get(k)!;
  for (const o of outcomes) {
    const rel = Number(o.r.relevance) || 0;
    const empty = !o.r.country_iso_2;
    for (const t of [rep.byHalf[o.c.half]!, get(rep.byPattern, o.c.pattern)[o.c.half]!, get(rep.byCountry, o.c.country)[o.c.half]!]) addTo(t, o.right, rel, empty, o.out);
    if (!o.right || o.out) rep.failures.push(o);
  }
  return rep;
}
