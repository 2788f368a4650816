/**
 * Evaluation of answers for addresses the index does NOT hold (issue 10), with truth that does
 * not come from the index under test:
 *  (a) held-out addresses: the addresses of one real extract, queried against an index built
 *      without it (the embedded default, or the BANO index for Liechtenstein). Right = the right
 *      country and the right city or postcode area, at general level, relevance below 90.
 *  (b) postcode queries from OSM addr:postcode + addr:city pairs and BANO postcode + commune
 *      pairs, against the embedded default: right country, postcode, place and state.
 *  (c) the Pelias acceptance cases that ask for a city, postcode or admin answer, per file.
 */
import { readFileSync } from 'node:fs';
import type { AddressIndex } from '../../src/engine/index/index.ts';
import type { SearchRecord } from '../../src/contract/records.ts';
import type { SearchRequest } from '../../src/contract/requests.ts';
import { foldText, postcodeKey } from '../../src/engine/lookup/normalize/normalize.ts';
import { iso3Of } from '../../src/engine/lookup/parse/countries.ts';
import { SUPPORTED_DESTINATIONS } from '../../src/engine/lines/iso3166.ts';
import { splitCsv } from '../../src/data/readers/lines.ts';
import { distanceMeters } from '../../src/data/geo.ts';
import { gunzipSync } from 'node:zlib';
import { D, sample, type Truth } from './suites.ts';
import { peliasRequest } from '../support/pelias-request.ts';

type Lookup = (i: AddressIndex, r: SearchRequest) => SearchRecord;

/**
 * An extract's addresses with street, number, city. The country is the row's own `addr:country`
 * when it has one (the Liechtenstein extract's box holds addresses of Feldkirch, AT), else the
 * extract's.
 */
export function extractTruth(file: string, country: string): Truth[] {
  const lines = readFileSync(file, 'utf8').split('\n');
  const out: Truth[] = [];
  for (const l of lines.slice(1)) {
    if (!l) continue;
    const [, lon, lat, hn, street, , postcode, city, rowCountry] = splitCsv(l);
    if (!street || !hn || !city) continue;
    const cc = /^[A-Z]{2}$/.test(rowCountry ?? '') ? rowCountry! : country;
    out.push({ street, hn, postcode: postcode ?? '', city: city.replace(/\s*\((FL|LI)\)\s*$/, ''), country: cc, lat: Number(lat), lon: Number(lon) });
  }
  return out;
}

/** The held-out suites: name, truth, index name. */
export function heldOutSuites(): { name: string; index: string; truth: () => Truth[] }[] {
  return [
    { name: 'Copenhagen (OSM) vs embedded default', index: 'default', truth: () => extractTruth(D('osm-copenhagen-dk-2012', 'addresses.csv'), 'DK') },
    { name: 'Liechtenstein (OSM) vs BANO index', index: 'bano', truth: () => extractTruth(D('osm-liechtenstein-2024', 'addresses.csv'), 'LI') },
    { name: 'Helsinki (OSM) vs embedded default', index: 'default', truth: () => extractTruth(D('osm-helsinki-fi', 'addresses.csv'), 'FI') },
    { name: 'Malta (OSM) vs embedded default', index: 'default', truth: () => extractTruth(D('osm-malta-2018', 'addresses.csv'), 'MT') },
    { name: 'Krems AT (OSM) vs embedded default', index: 'default', truth: () => extractTruth(D('osm-de-at-small-graphhopper', 'addresses-krems.csv'), 'AT') },
    { name: 'Bayreuth DE (OSM) vs embedded default', index: 'default', truth: () => extractTruth(D('osm-de-at-small-graphhopper', 'addresses-north-bayreuth.csv'), 'DE') },
    { name: 'BANO FR (17 départements) vs embedded default', index: 'default', truth: () => banoAll(3000) },
  ];
}

function banoAll(n: number): Truth[] {
  const out: Truth[] = [];
  for (const d of ['04', '05', '08', '09', '12', '15', '19', '23', '2A', '2B', '32', '43', '46', '48', '52', '55', '90']) {
    const text = gunzipSync(readFileSync(D('bano-fr-2015', `bano-${d}.csv.gz`))).toString('utf8');
    for (const l of text.split('\n')) {
      if (!l) continue;
      const x = splitCsv(l);
      if (!x[1] || !x[2] || !x[4]) continue;
      out.push({ hn: x[1]!, street: x[2]!, postcode: x[3] ?? '', city: x[4]!, country: 'FR', lat: Number(x[6]), lon: Number(x[7]) });
    }
  }
  return sample(out, n, 42);
}

export const HELD_OUT_VARIANTS = ['structured', 'free text', 'free text, no postcode', 'structured, no city'] as const;

export function heldOutQuery(t: Truth, v: (typeof HELD_OUT_VARIANTS)[number]): SearchRequest | undefined {
  switch (v) {
    case 'structured': return { street: t.street, housenumber: t.hn, city: t.city, ...(t.postcode ? { zip: t.postcode } : {}) };
    case 'free text': return { address: `${t.street} ${t.hn}, ${t.postcode ? t.postcode + ' ' : ''}${t.city}` };
    case 'free text, no postcode': return { address: `${t.street} ${t.hn}, ${t.city}` };
    case 'structured, no city': return t.postcode ? { street: t.street, housenumber: t.hn, zip: t.postcode } : undefined;
  }
}

/** The answer names the truth's city (all its words, or it is named by the truth), or its postcode. */
export function sameArea(t: Truth, r: SearchRecord): boolean {
  if (t.postcode && r.zip && postcodeKey(r.zip) === postcodeKey(t.postcode)) return true;
  const a = foldText(r.city), b = foldText(t.city);
  if (!a || !b) return false;
  // "København V" for "København", "Il-Fgura" for "Fgura": one name is the other with words added
  return a === b || a.startsWith(b + ' ') || b.startsWith(a + ' ') || a.endsWith(' ' + b) || b.endsWith(' ' + a);
}

export interface HeldOutResult { variant: string; n: number; right: number; wrongCountry: number; level: number; below90: number; failures: string[] }

export function runHeldOut(index: AddressIndex, truth: Truth[], lookupFn: Lookup): HeldOutResult[] {
  return HELD_OUT_VARIANTS.map((v) => {
    let n = 0, right = 0, wrongCountry = 0, level = 0, below90 = 0;
    const failures: string[] = [];
    for (const t of truth) {
      const q = heldOutQuery(t, v);
      if (!q) continue;
      n++;
      const r = lookupFn(index, q);
      if (r.country_iso_2 && r.country_iso_2 !== t.country) wrongCountry++;
      if (r.country_iso_2 === t.country && sameArea(t, r)) right++;
      else if (failures.length < 20) failures.push(`${JSON.stringify(q)} → ${r.matchlevel} ${r.relevance} ${r.zip} ${r.city} ${r.country_iso_2}`);
      if (r.matchlevel === 'general') level++;
      if (Number(r.relevance) < 90) below90++;
    }
    return { variant: v, n, right, wrongCountry, level, below90, failures };
  });
}

/** Expected ISO 3166-2 first level per extract (all of each extract lies in one), FR by département. */
const STATE_OF_EXTRACT: Record<string, string> = { DK: 'DK-84', FI: 'FI-18', AT: 'AT-3', DE: 'DE-BY' };
const FR_REGION: Record<string, string> = {
  '04': 'PAC', '05': 'PAC', '08': 'GES', '09': 'OCC', '12': 'OCC', '15': 'ARA', '19': 'NAQ', '23': 'NAQ', '20': '20R',
  '32': 'OCC', '43': 'ARA', '46': 'OCC', '48': 'OCC', '52': 'GES', '55': 'GES', '90': 'BFC',
};

/** A (postcode, place) pair of the extracts; lat/lon: the mean position of its addresses there, n their number. */
export interface PostcodePair { country: string; postcode: string; city: string; state: string; lat: number; lon: number; n: number }

/** The answer's point counts as the pair's place within this distance of its addresses' mean position. */
export const PAIR_POINT_KM = 3;

/** Adds an address's position to its pair's running mean. */
function addPoint(pair: PostcodePair, t: { lat: number; lon: number }): void {
  const n = pair.n + 1;
  pair.lat += (t.lat - pair.lat) / n;
  pair.lon += (t.lon - pair.lon) / n;
  pair.n = n;
}

/** Distinct postcode + place pairs of the extracts (OSM addr:*) and of BANO (not GeoNames). */
export function postcodePairs(): { source: string; pairs: PostcodePair[] }[] {
  const osm: [string, string, string][] = [
    ['osm-copenhagen-dk-2012/addresses.csv', 'DK', 'Copenhagen'], ['osm-liechtenstein-2024/addresses.csv', 'LI', 'Liechtenstein'],
    ['osm-helsinki-fi/addresses.csv', 'FI', 'Helsinki'], ['osm-de-at-small-graphhopper/addresses-krems.csv', 'AT', 'Krems'],
    ['osm-de-at-small-graphhopper/addresses-north-bayreuth.csv', 'DE', 'Bayreuth'],
  ];
  const out: { source: string; pairs: PostcodePair[] }[] = [];
  for (const [file, cc, label] of osm) {
    const seen = new Map<string, PostcodePair>();
    for (const t of extractTruth(D(...file.split('/')), cc)) {
      if (!t.postcode) continue;
      const k = `${postcodeKey(t.postcode)}|${foldText(t.city)}`;
      if (!seen.has(k)) seen.set(k, { country: t.country, postcode: t.postcode, city: t.city, state: t.country === cc ? STATE_OF_EXTRACT[cc] ?? '' : '', lat: 0, lon: 0, n: 0 });
      addPoint(seen.get(k)!, t);
    }
    out.push({ source: `OSM ${label}`, pairs: [...seen.values()] });
  }
  const seen = new Map<string, PostcodePair>();
  for (const t of banoAll(Infinity)) {
    if (!/^\d{5}$/.test(t.postcode)) continue;
    const k = `${t.postcode}|${foldText(t.city)}`;
    const r = FR_REGION[t.postcode.slice(0, 2)];
    if (!seen.has(k)) seen.set(k, { country: 'FR', postcode: t.postcode, city: t.city, state: r ? `FR-${r}` : '', lat: 0, lon: 0, n: 0 });
    addPoint(seen.get(k)!, t);
  }
  out.push({ source: 'BANO FR (17 départements)', pairs: [...seen.values()] });
  return out;
}

export interface PairResult {
  source: string; query: string; n: number; country: number; postcode: number; place: number; state: number; stateN: number;
  /** Answers in the right country whose point lies within PAIR_POINT_KM of the pair's addresses. */
  point: number;
}

export function runPairs(index: AddressIndex, source: string, pairs: PostcodePair[], lookupFn: Lookup): PairResult[] {
  const forms: [string, (p: PostcodePair) => SearchRequest][] = [
    ['free text "postcode city"', (p) => ({ address: `${p.postcode} ${p.city}` })],
    ['structured zip + city', (p) => ({ zip: p.postcode, city: p.city })],
  ];
  return forms.map(([query, f]) => {
    let country = 0, postcode = 0, place = 0, state = 0, stateN = 0, point = 0;
    for (const p of pairs) {
      const r = lookupFn(index, f(p));
      if (r.country_iso_2 === p.country) country++;
      if (r.country_iso_2 === p.country && postcodeKey(r.zip) === postcodeKey(p.postcode)) postcode++;
      if (r.country_iso_2 === p.country && sameArea({ ...p, street: '', hn: '', lat: 0, lon: 0, postcode: '' }, r)) place++;
      if (p.state) { stateN++; if (r.state_code === p.state) state++; }
      if (r.country_iso_2 === p.country && r.latitude && distanceMeters(Number(r.latitude), Number(r.longitude), p.lat, p.lon) <= PAIR_POINT_KM * 1000) point++;
    }
    return { source, query, n: pairs.length, country, postcode, place, state, stateN, point };
  });
}

/**
 * A postcode asked alone, with its country (`{zip: "48000", country: "FR"}`, `48000, France`): right
 * = the code's main place, the place of the pair with the most addresses of that code in the
 * extract (Mende for 48000, not Badaroux), by name or by a point within PAIR_POINT_KM of its
 * addresses. `shared`: only the codes of several places in the extract, where the choice is made.
 */
export interface PostcodeAloneResult { source: string; query: string; codes: number; shared: number; right: number; sharedRight: number; failures: string[] }

const COUNTRY_WORD: Record<string, string> = { DK: 'Denmark', LI: 'Liechtenstein', FI: 'Finland', AT: 'Austria', DE: 'Germany', FR: 'France' };

export function runPostcodeAlone(index: AddressIndex, source: string, pairs: PostcodePair[], lookupFn: Lookup): PostcodeAloneResult[] {
  const byCode = new Map<string, PostcodePair[]>();
  for (const p of pairs) {
    const k = `${p.country}|${postcodeKey(p.postcode)}`;
    (byCode.get(k) ?? byCode.set(k, []).get(k)!).push(p);
  }
  const forms: [string, (p: PostcodePair) => SearchRequest][] = [
    ['structured zip + country', (p) => ({ zip: p.postcode, country: p.country })],
    ['free text "postcode, country"', (p) => ({ address: `${p.postcode}, ${COUNTRY_WORD[p.country] ?? p.country}` })],
  ];
  return forms.map(([query, f]) => {
    const res: PostcodeAloneResult = { source, query, codes: 0, shared: 0, right: 0, sharedRight: 0, failures: [] };
    for (const group of byCode.values()) {
      const main = group.reduce((a, b) => (b.n > a.n ? b : a));
      const r = lookupFn(index, f(main));
      const near = !!r.latitude && distanceMeters(Number(r.latitude), Number(r.longitude), main.lat, main.lon) <= PAIR_POINT_KM * 1000;
      const named = sameArea({ ...main, street: '', hn: '', lat: 0, lon: 0, postcode: '' }, r);
      const ok = r.country_iso_2 === main.country && (named || near);
      res.codes++;
      if (ok) res.right++;
      if (group.length > 1) {
        res.shared++;
        if (ok) res.sharedRight++;
        else if (res.failures.length < 5) res.failures.push(`${JSON.stringify(f(main))} → ${r.zip} ${r.city} (main place: ${main.city}, of ${group.length})`);
      }
    }
    return res;
  });
}

const PELIAS_FILES = [
  'search_postal_cities', 'search_postalcodes', 'structured_postalcodes', 'search_city_country', 'wof_localities',
  'wof_regions', 'wof_counties', 'wof_countries', 'admin_lookup', 'locality_geodisambiguation', 'search_coarse',
];

export interface PeliasFileResult { file: string; cases: number; applicable: number; passed: number; failures: string[] }

/**
 * Pelias acceptance cases that ask for a city, postcode or admin answer. Applicable: a forward
 * search (text or structured) whose expected country is one of the 34 destinations. Checked:
 * country_a, locality, postalcode (or `name` of a postalcode layer), region, county.
 */
export function peliasCases(index: AddressIndex, lookupFn: Lookup): PeliasFileResult[] {
  const ours = new Set(SUPPORTED_DESTINATIONS.map((c) => iso3Of(c)));
  const out: PeliasFileResult[] = [];
  for (const file of PELIAS_FILES) {
    let json: { tests?: { in: Record<string, unknown>; endpoint?: string; expected?: { properties?: Record<string, string>[] } }[] };
    try { json = JSON.parse(readFileSync(D('geocoder-cases', 'pelias-acceptance-tests', `${file}.json`), 'utf8')); } catch { continue; }
    const res: PeliasFileResult = { file, cases: 0, applicable: 0, passed: 0, failures: [] };
    for (const t of json.tests ?? []) {
      res.cases++;
      const exp = t.expected?.properties?.[0];
      if (!exp || (t.endpoint && t.endpoint !== 'search' && t.endpoint !== 'search/structured')) continue;
      if (!exp.country_a || !ours.has(exp.country_a)) continue;
      const i = t.in;
      const req = peliasRequest(i);
      if (Object.keys(req).length === 0) continue;
      res.applicable++;
      const r = lookupFn(index, req as SearchRequest);
      const checks: [string, boolean][] = [['country_a', r.country_iso_3 === exp.country_a]];
      if (exp.locality) checks.push(['locality', foldText(r.city) === foldText(exp.locality)]);
      const pc = exp.postalcode ?? (exp.layer === 'postalcode' ? exp.name : undefined);
      if (pc) checks.push(['postalcode', postcodeKey(r.zip) === postcodeKey(pc)]);
      if (exp.region) checks.push(['region', foldText(r.state_name) === foldText(exp.region)]);
      if (exp.county) checks.push(['county', foldText(r.county) === foldText(exp.county)]);
      if (checks.every(([, ok]) => ok)) res.passed++;
      else res.failures.push(`${JSON.stringify(req)} → ${r.city} ${r.zip} ${r.state_name} ${r.county} ${r.country_iso_3} (failed: ${checks.filter(([, ok]) => !ok).map(([k]) => k).join(', ')})`);
    }
    out.push(res);
  }
  return out;
}
