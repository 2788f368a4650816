/**
 * Conformance of the recipient-block engine against the OpenCage address-formatting test cases
 * (../shared/data/address-formatting/testcases/countries/<cc>.yaml, MIT) for the 34 destinations.
 * Shared by test/engine/lines/conformance.test.ts and `npm run eval:lines`.
 *
 * Mapping of OpenCage components to our request fields (the engine takes structured fields, not
 * OSM keys): street = road|pedestrian|footway|path|cycleway|residential|square|place|street;
 * housenumber = house_number|housenumber; city = postal_city|city|town|village|hamlet|municipality,
 * else county except for IE (AU: suburb first, the Australia Post locality);
 * district = suburb|city_district|neighbourhood|quarter; county; state; statecode = CC-state_code
 * (IT: the province sigla from county_code or a two-letter county); zip = postcode (first of a list); additionaldata = the first
 * POI/name component (house, building, restaurant…), which OpenCage prints above the street.
 * The block is requested as international mail from the US in English, because every OpenCage case
 * ends with a country line.
 *
 * A case matches when the lines are equal ignoring letter case and runs of spaces (upper case and
 * two-space separators are postal rules the display templates do not apply). Every other case is a
 * deviation that must be listed in EXPECTED_DEVIATIONS (conformance.test.ts) with its reason.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';
import type { LinesRecord } from '../../../src/contract/records.ts';
import type { LinesRequest } from '../../../src/contract/requests.ts';
import { sharedDataPath } from '../../../src/config/shared-data.ts';
import { formatRecipientBlock } from '../../../src/engine/lines/index.ts';
import { SUPPORTED_DESTINATIONS } from '../../../src/engine/lines/iso3166.ts';

export const TESTCASE_PARTS = ['address-formatting', 'testcases', 'countries'];

export interface OpenCageCase {
  cc: string;
  /** `${cc}#${index}` (1-based within the country's file). */
  id: string;
  description: string;
  components: Record<string, string>;
  expected: string[];
}

export interface CaseResult {
  case: OpenCageCase;
  request: LinesRequest;
  record: LinesRecord;
  actual: string[];
  exact: boolean;
  match: boolean;
}

const STREET = ['road', 'pedestrian', 'footway', 'path', 'cycleway', 'residential', 'square', 'place', 'street'];
const CITY = ['postal_city', 'city', 'town', 'village', 'hamlet', 'municipality'];
const DISTRICT = ['suburb', 'city_district', 'neighbourhood', 'quarter'];
/** Components that are address parts (everything else with a value is a POI/name). */
const ADDRESS_KEYS = new Set([
  ...STREET, ...CITY, ...DISTRICT, 'house_number', 'housenumber', 'postcode', 'county', 'county_code', 'state',
  'state_code', 'state_district', 'country', 'country_code', 'continent', 'region', 'local_administrative_area',
  'road_reference', 'road_reference_intl', 'locality', 'island', 'archipelago', 'political_union', 'city_block',
  'postal_city', 'borough', 'subdivision', 'croft', 'isolated_dwelling', 'farmland', 'allotments', 'municipality',
]);

export function loadCases(): OpenCageCase[] {
  const dir = sharedDataPath(...TESTCASE_PARTS);
  const wanted = new Set(SUPPORTED_DESTINATIONS.map((c) => c.toLowerCase()));
  const out: OpenCageCase[] = [];
  for (const file of readdirSync(dir).sort()) {
    const cc = file.replace(/\.yaml$/, '');
    if (!wanted.has(cc)) continue;
    let i = 0;
    for (const doc of parseAllDocuments(readFileSync(`${dir}/${file}`, 'utf8'))) {
      const js = doc.toJS() as { description?: string; components?: Record<string, unknown>; expected?: string } | null;
      if (!js || !js.components || typeof js.expected !== 'string') continue;
      i++;
      const components: Record<string, string> = {};
      for (const [k, v] of Object.entries(js.components)) components[k] = String(v);
      out.push({
        cc: cc.toUpperCase(),
        id: `${cc.toUpperCase()}#${i}`,
        description: String(js.description ?? ''),
        components,
        expected: js.expected.split('\n').map((l) => l.trim()).filter((l) => l !== ''),
      });
    }
  }
  return out;
}

function first(c: Record<string, string>, keys: readonly string[]): string | undefined {
  for (const k of keys) if (c[k] !== undefined && c[k] !== '') return c[k];
  return undefined;
}

export function toRequest(k: OpenCageCase): LinesRequest {
  const c = k.components;
  const req: LinesRequest = { countrycode: k.cc, sendercountrycode: 'US', countrynamelanguage: '' };
  const set = (key: keyof LinesRequest, v: string | undefined) => {
    if (v !== undefined && v !== '') (req as unknown as Record<string, string>)[key] = v.slice(0, 255);
  };
  set('street', first(c, STREET));
  set('housenumber', first(c, ['house_number', 'housenumber'])?.slice(0, 50));
  // Australia Post's locality is the suburb (Google: locality_name_type suburb).
  const localityFirst = k.cc === 'AU' ? ['suburb', ...CITY] : CITY;
  // No locality: OpenCage falls back to the county (Kreis); IE prints the county on its own line.
  set('city', first(c, localityFirst) ?? (k.cc === 'IE' ? undefined : c.county));
  set('district', first(c, k.cc === 'AU' ? DISTRICT.slice(1) : DISTRICT));
  set('county', c.county);
  set('state', c.state);
  if (k.cc === 'IT' && c.county_code) set('statecode', `IT-${c.county_code}`);
  else if (k.cc === 'IT' && c.county && /^[A-Z]{2}$/.test(c.county)) set('statecode', `IT-${c.county}`);
  else if (c.state_code) set('statecode', `${k.cc}-${c.state_code}`);
  const zip = c.postcode?.split(/[,;]/)[0]?.trim();
  if (zip) set('zip', zip.slice(0, 50));
  const poi = Object.keys(c).find((key) => !ADDRESS_KEYS.has(key) && c[key] !== '');
  if (poi) set('additionaldata', c[poi]);
  return req;
}

/** Why a case deviates; see docs/recipient-block.md "Conformance". Several tags may apply. */
export type DeviationReason =
  | 'status-30-incomplete' | 'status-31-invalid' | 'status-40-too-long'
  | 'country-name' | 'postcode-prefix' | 'unaccented-capitals' | 'additionaldata-position'
  | 'no-punctuation' | 'wrapped' | 'line-order' | 'district-line' | 'state-line' | 'extra-line'
  | 'missing-line' | 'content';

const stripAccents = (l: string) => l.normalize('NFD').replace(/\p{M}/gu, '');

export function classify(r: CaseResult): DeviationReason[] {
  if (r.match) return [];
  const code = r.record.addresslinestatuscode;
  if (code === 30) return ['status-30-incomplete'];
  if (code === 31) return ['status-31-invalid'];
  if (code === 40) return ['status-40-too-long'];
  const reasons = new Set<DeviationReason>();
  const exp = r.case.expected.map(norm);
  const act = r.actual.map(norm);
  if (exp.at(-1) !== act.at(-1)) reasons.add('country-name');
  const e = exp.slice(0, -1);
  let a = act.slice(0, -1);
  if (a.some((l) => /^(LT|HR|CY|L)-\d/.test(l)) && !e.some((l) => /^(LT|HR|CY|L)-\d/.test(l))) {
    reasons.add('postcode-prefix');
    a = a.map((l) => l.replace(/^(LT|HR|CY|L)-(\d)/, '$2'));
  }
  if (a.some((l, i) => e[i] !== undefined && l !== e[i] && stripAccents(e[i]!) === l)) {
    reasons.add('unaccented-capitals');
    a = a.map((l, i) => (e[i] !== undefined && stripAccents(e[i]!) === l ? e[i]! : l));
  }
  const same = (x: string[], y: string[]) => x.length === y.length && x.every((l, i) => l === y[i]);
  const add = r.request.additionaldata !== undefined ? norm(r.request.additionaldata) : undefined;
  if (add !== undefined && e.includes(add) && a.indexOf(add) !== e.indexOf(add) && a.includes(add)) {
    reasons.add('additionaldata-position');
    a = a.filter((l) => l !== add);
    a.splice(e.indexOf(add), 0, add);
  } else if (add !== undefined && e.includes(add) && !a.includes(add) && a.some((l) => l.includes(add))) {
    reasons.add('additionaldata-position');
    a = a.map((l) => (l.includes(add) ? l.replace(add, '').replace(/[ ,]+$/, '') : l));
    a.splice(e.indexOf(add), 0, add);
  }
  const depunct = (l: string) => l.replace(/,/g, '').replace(/ +/g, ' ');
  if (!same(a, e) && a.length === e.length && a.every((l, i) => depunct(l) === depunct(e[i]!))) {
    reasons.add('no-punctuation');
    a = [...e];
  }
  if (!same(a, e) && a.join(' ') === e.join(' ')) {
    reasons.add('wrapped');
    a = [...e];
  }
  if (!same(a, e)) {
    if (same([...a].sort(), [...e].sort())) reasons.add('line-order');
    else {
      const extra = a.filter((l) => !e.includes(l));
      const missing = e.filter((l) => !a.includes(l));
      const district = r.request.district !== undefined ? norm(r.request.district) : undefined;
      const state = r.request.state !== undefined ? norm(r.request.state) : undefined;
      if (a.length > e.length && missing.length === 0) {
        for (const x of extra) {
          reasons.add(x === district ? 'district-line' : x === state ? 'state-line' : 'extra-line');
        }
      }
      else if (a.length < e.length && extra.length === 0) reasons.add('missing-line');
      else reasons.add('content');
    }
  }
  return [...reasons];
}

function norm(l: string): string {
  return l.replace(/\s+/g, ' ').trim().toUpperCase();
}

export function runCase(k: OpenCageCase): CaseResult {
  const request = toRequest(k);
  const record = formatRecipientBlock(request);
  const actual = [record.addressline1, record.addressline2, record.addressline3, record.addressline4, record.addressline5, record.addressline6].filter((l) => l !== '');
  const exact = actual.length === k.expected.length && actual.every((l, i) => l === k.expected[i]);
  const match = actual.length === k.expected.length && actual.every((l, i) => norm(l) === norm(k.expected[i]!));
  return { case: k, request, record, actual, exact, match };
}

export interface CountrySummary { cc: string; cases: number; exact: number; match: number; deviations: number }

export function summarise(results: readonly CaseResult[]): CountrySummary[] {
  const by = new Map<string, CountrySummary>();
  for (const cc of SUPPORTED_DESTINATIONS) by.set(cc, { cc, cases: 0, exact: 0, match: 0, deviations: 0 });
  for (const r of results) {
    const s = by.get(r.case.cc)!;
    s.cases++;
    if (r.exact) s.exact++;
    if (r.match) s.match++;
    else s.deviations++;
  }
  return [...by.values()].sort((a, b) => a.cc.localeCompare(b.cc));
}
