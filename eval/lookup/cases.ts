/**
 * Third-party test cases: Nominatim's search features (against the Nominatim test database
 * index) and the libpostal / Pelias parser cases.
 */
import { readFileSync } from 'node:fs';
import type { AddressIndex } from '../../src/engine/index/index.ts';
import type { SearchRecord } from '../../src/contract/records.ts';
import type { SearchRequest } from '../../src/contract/requests.ts';
import { houseNumberKey, postcodeKey } from '../../src/engine/lookup/normalize/normalize.ts';
import { parseComponents } from '../../src/engine/lookup/parse/components.ts';
import { D } from './suites.ts';

interface Step { step: string; scenario?: string; params: Record<string, string> | null; then: { check: string; table: string[][] }[] }

const NOMINATIM_PARAM: Record<string, keyof SearchRequest> = {
  q: 'address', street: 'street', city: 'city', county: 'county', state: 'state', country: 'country',
  postalcode: 'zip', 'accept-language': 'locale',
};

export interface CaseResult { total: number; checkable: number; passed: number; failures: string[] }

/**
 * Nominatim search steps that ask for an answer (not an API format): "result N contains",
 * "result 0 contains in field address", "all results contain" with address fields, "more than 0
 * results", "exactly 0 results". Our service returns exactly one record; "no result" is an empty
 * matchlevel or a relevance below 50.
 */
export function nominatimCases(index: AddressIndex, lookup: (i: AddressIndex, r: SearchRequest) => SearchRecord): CaseResult {
  const steps = JSON.parse(readFileSync(D('geocoder-cases', 'nominatim-bdd', 'search-queries.json'), 'utf8')) as Step[];
  const res: CaseResult = { total: 0, checkable: 0, passed: 0, failures: [] };
  for (const s of steps) {
    if (!/search/.test(s.step) || !s.params) continue;
    res.total++;
    const p = s.params;
    if (Object.entries(p).some(([k, v]) => k.includes('<') || String(v).includes('<'))) continue;
    if (!s.then.some((t) => t.check === 'a HTTP 200 is returned')) continue;
    // the language comes from an HTTP Accept-Language header the derived file does not carry
    if (/http accept language header/i.test(s.scenario ?? '') && !p['accept-language']) continue;
    const req: Record<string, string> = {};
    for (const [k, v] of Object.entries(p)) {
      const f = NOMINATIM_PARAM[k];
      if (f) req[f] = f === 'locale' ? v.split(',')[0]!.slice(0, 5) : v;
    }
    if (Object.keys(req).filter((k) => k !== 'locale').length === 0) continue;
    const checks: ((r: SearchRecord) => boolean)[] = [];
    for (const t of s.then) {
      if (/^result \d+ contains$/.test(t.check) || t.check === 'all results contain' || /^result 0 contains in field address$/.test(t.check)) {
        const [head, ...rows] = t.table;
        if (!head) continue;
        if (head[0] === 'param') {
          for (const [k, v] of rows) checks.push((r) => fieldHas(r, k!, v!));
        } else {
          for (const row of rows) head.forEach((h, i) => { const v = row[i]!; if (!h.includes('<')) checks.push((r) => fieldHas(r, h, v)); });
        }
      } else if (t.check === 'more than 0 results are returned') {
        checks.push((r) => r.matchlevel !== '' && Number(r.relevance) >= 50);
      } else if (t.check === 'exactly 0 results are returned') {
        checks.push((r) => r.matchlevel === '' || Number(r.relevance) < 50);
      }
    }
    if (checks.length === 0) continue;
    res.checkable++;
    const r = lookup(index, req as SearchRequest);
    if (checks.every((c) => c(r))) res.passed++;
    else res.failures.push(`${JSON.stringify(req)} → ${r.matchlevel} ${r.relevance} ${r.street} ${r.housenumber} ${r.city} ${r.country}`);
  }
  return res;
}

function fieldHas(r: SearchRecord, field: string, value: string): boolean {
  const all = [r.housenumber, r.street, r.district, r.city, r.zip, r.county, r.state_name, r.country].filter(Boolean);
  const f = field.replace(/^address\+/, '');
  if (field === 'display_name!fm') return new RegExp(`^${value}$`).test(all.join(', '));
  if (field === 'display_name') return all.some((x) => x.startsWith(value.split(',')[0]!.trim()));
  if (f === 'house_number') return r.housenumber === value;
  if (f === 'road') return r.street === value;
  if (['village', 'town', 'city', 'hamlet'].includes(f)) return r.city === value;
  if (f === 'county') return r.county === value;
  if (f === 'postcode') return r.zip === value;
  if (f === 'country_code') return r.country_iso_2.toLowerCase() === value.toLowerCase();
  if (f === 'country') return r.country === value;
  if (f === 'state') return r.state_name === value;
  // geocodejson `name`: the name of the matched feature (our street, or the city for a place)
  if (f === 'name') return (r.street || r.city) === value;
  // ISO 3166-2 code of an admin level (LI's communes are level 8): our state_code
  if (/^ISO3166-2-lvl\d+$/.test(f)) return r.state_code === value;
  // the result's bounding box lies in a box "minlat,maxlat,minlon,maxlon": our point does
  if (field === 'boundingbox!in_box') {
    const [a, b, c, d] = value.split(',').map(Number) as [number, number, number, number];
    const lat = Number(r.latitude), lon = Number(r.longitude);
    return r.latitude !== '' && lat >= a && lat <= b && lon >= c && lon <= d;
  }
  return false; // a field we do not return (osm ids, bounding boxes, …)
}

/**
 * The parser cases, per component (house number, postcode), split by a fixed rule: cases at an
 * even position of each file are the half the parser was tuned on, odd positions the half only
 * measured. A component counts where either side has it; right = same folded key.
 */
export interface ParserScore { suite: string; half: 'tune' | 'measured'; hn: [number, number]; postcode: [number, number]; failures: string[] }

const HN_MARK = /^(?:nr|no|n°|д|#)\.?\s*/i;
const PC_MARK = /^(?:cep|〒)\s*/i;

export function parserCases(): ParserScore[] {
  const out: ParserScore[] = [];
  for (const [suite, file, hnLabel, pcLabel] of [
    ['libpostal', 'libpostal-parser', 'house_number', 'postcode'],
    ['pelias', 'pelias-parser', 'housenumber', 'postcode'],
  ] as const) {
    type Component = { label: string; value: string } | Record<string, string>;
    const cases = JSON.parse(readFileSync(D('geocoder-cases', file, 'parser-cases.json'), 'utf8')) as {
      input: string; expected: (Component | Component[])[]; firstSolutionOnly?: boolean;
    }[];
    for (const half of ['tune', 'measured'] as const) {
      let hnN = 0, hnOk = 0, pcN = 0, pcOk = 0;
      const failures: string[] = [];
      cases.forEach((c, i) => {
        if ((i % 2 === 0) !== (half === 'tune')) return;
        const exp = new Map<string, string>();
        // Pelias asserts with firstSolutionOnly = false list every solution the parser must
        // return, best first (`[[…first…], […second…]]`; `[]` = no solution at all):
        // the components are those of the first solution
        const first = c.expected.length > 0 && Array.isArray(c.expected[0]) ? c.expected[0] : c.expected;
        for (const e of first as Component[]) {
          if ('label' in e && 'value' in e) exp.set(e.label as string, e.value as string);
          else for (const [k, v] of Object.entries(e)) exp.set(k, v);
        }
        const got = parseComponents(c.input);
        const eh = exp.get(hnLabel), ep = exp.get(pcLabel);
        // labels may carry the marker typed before the value ("nr. 9", "д. 10", "CEP 01037-010")
        const hnRight = eh !== undefined ? houseNumberKey(eh.replace(HN_MARK, '')) === got.housenumber : !got.housenumber;
        const pcRight = ep !== undefined ? postcodeKey(ep.replace(PC_MARK, '')) === got.postcode : !got.postcode;
        if (eh !== undefined || got.housenumber) { hnN++; if (hnRight) hnOk++; }
        if (ep !== undefined || got.postcode) { pcN++; if (pcRight) pcOk++; }
        if (!hnRight || !pcRight) failures.push(`${c.input} → hn ${got.housenumber || '–'} (want ${eh ?? '–'}), postcode ${got.postcode || '–'} (want ${ep ?? '–'})`);
      });
      out.push({ suite, half, hn: [hnOk, hnN], postcode: [pcOk, pcN], failures });
    }
  }
  return out;
}
