/**
 * Set "geocoder cases": the cases of other geocoders' test suites (../shared/data/geocoder-cases)
 * that ask for a place or address in the 34 destinations, asked of the embedded default:
 *  - Pelias acceptance tests: every forward search (text or structured, not autocomplete, not
 *    steered by a focus point, boundary, layer or a field we do not take, not a venue) whose first expected result is in
 *    a destination (the cases the "Pelias acceptance cases" table of eval:lookup reads from its
 *    11 coarse files among them, here from all files, scored by one rule); the expected city is
 *    its `locality`, or its `name` when the result is a locality, borough or (macro)county;
 *  - libpostal parser cases of a destination's suite that name a city or a postcode;
 *  - Nominatim search steps that expect a city, village or postcode (the others test the
 *    Nominatim test database's streets and are run on it in "Nominatim search cases").
 * Truth = the case's own expected city (locality) or postcode in its country; a case that names
 * neither expects its region, or its country.
 */
import { readdirSync, readFileSync } from 'node:fs';
import type { SearchRequest } from '../../../src/contract/requests.ts';
import { SUPPORTED_DESTINATIONS } from '../../../src/engine/lines/iso3166.ts';
import { iso3Of } from '../../../src/engine/lookup/parse/countries.ts';
import { foldText } from '../../../src/engine/lookup/normalize/normalize.ts';
import { D } from '../suites.ts';
import { makeCase, type PeopleCase } from './cases.ts';
import { chosenPlaces } from './places.ts';
import { peliasRequest } from '../../support/pelias-request.ts';

/** All names of a chosen place (30 largest per destination, capitals) that `name` is one of. */
function placeNamesOf(cc: string, name: string): string[] {
  const { names, byCountry, capitals } = chosenPlaces();
  const f = foldText(name);
  for (const p of [...(byCountry.get(cc) ?? []), ...capitals.filter((c) => c.cc === cc)]) {
    const n = names.get(p.id)!;
    if (n.all.some((x) => foldText(x) === f)) return n.all;
  }
  return [];
}

/** Pelias query keys the case may carry: the ones mapped to our request, and ones that change nothing asked. */
const PELIAS_KEYS = new Set(['text', 'address', 'postalcode', 'locality', 'region', 'country', 'sources', 'size', 'lang']);

/**
 * Errata: an expected value of a third-party case that is a typo in that case, by case id, with
 * the value it means and why. Each is listed in docs/accuracy.md; nothing else is corrected.
 */
export const CASE_ERRATA: Readonly<Record<string, { field: 'state'; means: string; why: string }>> = {
  'pelias:wof_macroregions.json:3': { field: 'state', means: 'Île-de-France', why: 'the case expects `Ile-of-France` for the query `Île-De-France, France`: a typo of the region it names' },
};

interface PeliasTest { id?: number | string; in: Record<string, unknown>; endpoint?: string; expected?: { properties?: Record<string, string>[] } }

function peliasCases(): PeopleCase[] {
  const iso2 = new Map(SUPPORTED_DESTINATIONS.map((c) => [iso3Of(c), c]));
  const dir = D('geocoder-cases', 'pelias-acceptance-tests');
  const out: PeopleCase[] = [];
  // autocomplete files test another endpoint; a case steered by a focus point, a boundary or a
  // layer asks for something the query alone does not say; venues (POIs) are not addresses
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json') && !f.startsWith('autocomplete_')).sort()) {
    let json: { tests?: PeliasTest[] };
    try { json = JSON.parse(readFileSync(`${dir}/${file}`, 'utf8')); } catch { continue; }
    (json.tests ?? []).forEach((t, k) => {
      const exp = t.expected?.properties?.[0];
      if (!exp || (t.endpoint && t.endpoint !== 'search' && t.endpoint !== 'search/structured')) return;
      const cc = exp.country_a ? iso2.get(exp.country_a) : undefined;
      if (!cc || exp.layer === 'venue') return;
      const i = t.in;
      if (Object.keys(i).some((k) => !PELIAS_KEYS.has(k))) return;
      const req = peliasRequest(i);
      if (Object.keys(req).length === 0) return;
      const pc = exp.postalcode ?? (exp.layer === 'postalcode' ? exp.name : undefined);
      const layer = exp.layer ?? '';
      const city = exp.locality ?? (['locality', 'localadmin', 'borough', 'county', 'macrocounty'].includes(layer) ? exp.name ?? '' : '');
      const id = `pelias:${file}:${t.id ?? k}`;
      const state = CASE_ERRATA[id]?.means ?? exp.region ?? (['region', 'macroregion'].includes(layer) ? exp.name : undefined);
      out.push(makeCase('geocoder cases', id, cc, `Pelias ${req.address !== undefined && Object.keys(req).length === 1 ? 'text' : 'structured'}`, req as SearchRequest, {
        kind: 'area', country: cc, city, cityNames: city ? placeNamesOf(cc, city) : [], ...(pc ? { postcode: pc } : {}), ...(state ? { state } : {}),
      }));
    });
  }
  return out;
}

interface LibpostalCase { suite: string; input: string; expected: { label: string; value: string }[] }

function libpostalCases(): PeopleCase[] {
  const dests = new Set(SUPPORTED_DESTINATIONS);
  const all = JSON.parse(readFileSync(D('geocoder-cases', 'libpostal-parser', 'parser-cases.json'), 'utf8')) as LibpostalCase[];
  const out: PeopleCase[] = [];
  all.forEach((c, k) => {
    const cc = c.suite.toUpperCase();
    if (!dests.has(cc)) return;
    const get = (l: string) => c.expected.find((e) => e.label === l)?.value;
    const city = get('city') ?? '', pc = get('postcode');
    if (!city && !pc) return;
    out.push(makeCase('geocoder cases', `libpostal:${k}:${c.input}`, cc, 'libpostal text', { address: c.input }, {
      kind: 'area', country: cc, city, cityNames: city ? placeNamesOf(cc, city) : [], ...(pc ? { postcode: pc } : {}),
    }));
  });
  return out;
}

interface Step { step: string; params: Record<string, string> | null; then: { check: string; table: string[][] }[] }

function nominatimCases(): PeopleCase[] {
  const steps = JSON.parse(readFileSync(D('geocoder-cases', 'nominatim-bdd', 'search-queries.json'), 'utf8')) as Step[];
  const out: PeopleCase[] = [];
  steps.forEach((s, k) => {
    if (!/search/.test(s.step) || !s.params?.q) return;
    const fields = new Map<string, string>();
    for (const t of s.then) if (/^result 0 contains( in field address)?$/.test(t.check) && t.table[0]?.[0] === 'param') for (const [f, v] of t.table.slice(1)) fields.set(f!, v!);
    const city = fields.get('city') ?? fields.get('town') ?? fields.get('village') ?? '';
    const pc = fields.get('postcode');
    const cc = fields.get('country_code')?.toUpperCase();
    if (!cc || (!city && !pc)) return;
    out.push(makeCase('geocoder cases', `nominatim:${k}:${s.params.q}`, cc, 'Nominatim text', { address: s.params.q }, {
      kind: 'area', country: cc, city, cityNames: city ? placeNamesOf(cc, city) : [], ...(pc ? { postcode: pc } : {}),
    }));
  });
  return out;
}

export function geocoderCases(): PeopleCase[] {
  return [...peliasCases(), ...libpostalCases(), ...nominatimCases()];
}
