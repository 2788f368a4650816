/**
 * Set "addresses with omission patterns" (on the embedded default, no --index): real addresses
 * of the OSM extracts (DK, FI, LI, MT, CA, DE, AT) and BANO (FR), and street-and-postcode
 * queries built for PL, IT, NL, ES from their GeoNames postcodes and common street names with
 * their own street-type words (synthetic-streets.ts). Each address is asked in the patterns
 * people write: no country; street + postcode without city; street + city without postcode;
 * exonym city (where CLDR has one); lowercase without accents; abbreviated street type; the city
 * alone; street and city without a comma between them. Truth = the reference's city or postcode, never the index under test.
 */
import type { SearchRequest } from '../../../src/contract/requests.ts';
import { foldText } from '../../../src/engine/lookup/normalize/normalize.ts';
import { readBanoRows } from '../../support/bano-rows.ts';
import { extractTruth } from '../fallback-suites.ts';
import { abbreviate, D, stripAccents, type Truth } from '../suites.ts';
import { makeCase, type PeopleCase } from './cases.ts';
import { expectedPlace, taggedExonyms } from './places.ts';
import { distanceMeters } from '../../../src/data/geo.ts';
import { allowedCountries } from './ruled-out.ts';
import { seededSample } from './split.ts';
import { exonymPostcodeCases } from './exonym-postcodes.ts';
import { SYNTH_ABBREV, syntheticAddresses, SYNTHETIC_COUNTRIES } from './synthetic-streets.ts';

/** Addresses sampled per source (seeded), before the patterns. */
export const ADDRESSES_PER_SOURCE = 100;
export const ADDRESS_SEED = 18;

export const ADDRESS_PATTERNS = [
  'full, no country', 'street + postcode, no city', 'street + city, no postcode', 'exonym city',
  'lowercase without accents', 'abbreviated street type', 'city alone', 'street + city, no comma', 'full, country code',
  'postcode with country prefix', 'postcode alone, country prefix', 'full, province code', 'city + province code',
  'four-digit code + city', 'city (département)',
] as const;

/**
 * France's département number after the town, as French lists and forms write it (`Mende (48)`,
 * `Rodez 12`; added 2026-11-27, its rule fixed before the engine read it): the postcode's first
 * two digits, Corsica's 2A (20000–20199) and 2B.
 */
const departement = (t: Truth) => (t.country !== 'FR' || !/^\d{5}$/.test(t.postcode) ? undefined
  : t.postcode.startsWith('20') ? (Number(t.postcode) < 20200 ? '2A' : '2B') : t.postcode.slice(0, 2));

/**
 * NL's four digits without their letters, as people write a town's area (`1012 Amsterdam`; added
 * 2026-11-27, before the engine read a bare four-digit code as Dutch where a Dutch place is named).
 */
const pc4 = (t: Truth) => (t.country === 'NL' && /^\d{4}(?: ?[A-Z]{2})?$/.test(t.postcode) ? t.postcode.slice(0, 4) : undefined);

/**
 * The letters European addresses put before a foreign postcode (CEPT, after the international
 * vehicle codes), for the sources' countries that have them (added 2026-11-27, before the engine
 * read them): `D-95463 Bindlach`, `DK-1620 København V`, `FL-9490 Vaduz`.
 */
const CEPT_PREFIX: Readonly<Record<string, string>> = {
  AT: 'A', DE: 'D', DK: 'DK', ES: 'E', FI: 'FIN', FR: 'F', IT: 'I', LI: 'FL', NL: 'NL', PL: 'PL',
};

export interface AddressSource { name: string; country: string; rows: () => Truth[] }

export function addressSources(): AddressSource[] {
  const osm = (name: string, file: string[], cc: string): AddressSource => ({ name, country: cc, rows: () => extractTruth(D(...file), cc) });
  return [
    osm('OSM Copenhagen DK', ['osm-copenhagen-dk-2012', 'addresses.csv'], 'DK'),
    osm('OSM Helsinki FI', ['osm-helsinki-fi', 'addresses.csv'], 'FI'),
    osm('OSM Liechtenstein LI', ['osm-liechtenstein-2024', 'addresses.csv'], 'LI'),
    osm('OSM Malta MT', ['osm-malta-2018', 'addresses.csv'], 'MT'),
    osm('OSM Vancouver CA', ['osm-vancouver-ca-2015', 'addresses.csv'], 'CA'),
    osm('OSM Bayreuth DE', ['osm-de-at-small-graphhopper', 'addresses-north-bayreuth.csv'], 'DE'),
    osm('OSM Krems AT', ['osm-de-at-small-graphhopper', 'addresses-krems.csv'], 'AT'),
    { name: 'BANO FR', country: 'FR', rows: () => readBanoRows().map((r) => ({ street: r.street, hn: r.hn, postcode: r.postcode, city: r.city, country: 'FR', lat: r.lat, lon: r.lon })) },
    ...SYNTHETIC_COUNTRIES.map((cc) => ({ name: `GeoNames postcodes ${cc} + street words`, country: cc, rows: () => syntheticAddresses(cc) })),
  ];
}

/** Countries that write the house number before the street. */
const NUMBER_FIRST = new Set(['FR', 'CA', 'MT', 'GB', 'IE', 'AU', 'LU', 'BE']);
/** Countries that write the city before the postcode. */
const CITY_FIRST = new Set(['CA', 'MT', 'GB', 'IE', 'AU']);

/** The street and house number in the country's order. */
export const streetPart = (t: Truth, street = t.street) => (NUMBER_FIRST.has(t.country) && t.country !== 'BE' ? `${t.hn} ${street}` : `${street} ${t.hn}`);
const placePart = (t: Truth, city = t.city) => (!t.postcode ? city : CITY_FIRST.has(t.country) ? `${city} ${t.postcode}` : `${t.postcode} ${city}`);

/** The query of one pattern for one address; undefined when the address cannot have it. */
export function addressQuery(t: Truth, pattern: (typeof ADDRESS_PATTERNS)[number], exonyms: Map<string, string>): SearchRequest | undefined {
  switch (pattern) {
    case 'full, no country': return { address: `${streetPart(t)}, ${placePart(t)}` };
    case 'street + postcode, no city': return t.postcode ? { address: `${streetPart(t)}, ${t.postcode}` } : undefined;
    case 'street + city, no postcode': return { address: `${streetPart(t)}, ${t.city}` };
    case 'exonym city': {
      const ex = exonymOf(t, exonyms);
      return ex ? { address: `${streetPart(t)}, ${placePart(t, ex)}` } : undefined;
    }
    case 'lowercase without accents': {
      const q = stripAccents(`${streetPart(t)}, ${placePart(t)}`);
      return q === `${streetPart(t)}, ${placePart(t)}` ? undefined : { address: q };
    }
    case 'abbreviated street type': {
      const a = abbreviatedStreet(t);
      return a ? { address: `${streetPart(t, a)}, ${placePart(t)}` } : undefined;
    }
    case 'city alone': return { address: t.city };
    // as typed in a search box: no comma between the street and the town (added 2026-11-27)
    case 'street + city, no comma': return { address: `${streetPart(t)} ${t.city}` };
    // the country as its ISO code, last, as exports write it (added 2026-11-27, before the engine read it)
    case 'full, country code': return { address: `${streetPart(t)}, ${placePart(t)}, ${t.country}` };
    case 'postcode with country prefix': {
      const p = CEPT_PREFIX[t.country];
      return p && t.postcode ? { address: `${streetPart(t)}, ${placePart({ ...t, postcode: `${p}-${t.postcode}` })}` } : undefined;
    }
    // Italy's province sigla after the town, as Italian addresses write it: `53100 Siena SI`
    case 'full, province code': return t.province ? { address: `${streetPart(t)}, ${placePart(t)} ${t.province}` } : undefined;
    case 'city + province code': return t.province ? { address: `${t.city} ${t.province}` } : undefined;
    case 'four-digit code + city': { const p = pc4(t); return p ? { address: `${p} ${t.city}` } : undefined; }
    case 'city (département)': {
      // alternately in brackets and after a space, by the address's house number
      const d = departement(t);
      return d ? { address: Number.parseInt(t.hn, 10) % 2 === 0 ? `${t.city} (${d})` : `${t.city} ${d}` } : undefined;
    }
    // the code alone, as a form's postcode field or a sorting key holds it: `D-95463`
    case 'postcode alone, country prefix': {
      const p = CEPT_PREFIX[t.country];
      return p && t.postcode ? { address: `${p}-${t.postcode}` } : undefined;
    }
  }
}

/** The street with its type word abbreviated (Str., ul., Av., C/); undefined when none applies. */
export function abbreviatedStreet(t: Truth): string | undefined {
  const a = t.country in SYNTH_ABBREV ? SYNTH_ABBREV[t.country]!(t.street) : abbreviate(t.street, t.country);
  return a && a !== t.street ? a : undefined;
}

/** The city's name in another language (CLDR exemplar city, tagged), if it is another word. */
export function exonymOf(t: Truth, exonyms: Map<string, string>): string | undefined {
  const f = foldText(t.city);
  const hit = exonyms.get(`${t.country}|${f}`);
  if (hit) return hit;
  // `København K`: the exonym replaces the city's first words, the district letter stays off
  for (const [k, v] of exonyms) if (k.startsWith(`${t.country}|`) && f.startsWith(k.slice(3) + ' ')) return v;
  return undefined;
}

/** A source's sample: one row per distinct address with street, number and city, `perSource` of them drawn by the seeded rule. */
export function sampledRows(src: AddressSource, perSource = ADDRESSES_PER_SOURCE): Truth[] {
  const rows = src.rows().filter((t) => t.street && t.hn && t.city);
  const seen = new Set<string>();
  const uniq = rows.filter((t) => { const k = `${t.street}|${t.hn}|${t.postcode}|${t.city}`; if (seen.has(k)) return false; seen.add(k); return true; });
  return seededSample(uniq, perSource, ADDRESS_SEED);
}

/**
 * The set's cases; `only` (source names, `exonym postcodes` for the exonym stratum) restricts it to
 * some sources, for the harness test's slice.
 */
export function addressCases(perSource = ADDRESSES_PER_SOURCE, only?: readonly string[]): PeopleCase[] {
  const exonyms = taggedExonyms();
  const out: PeopleCase[] = [];
  for (const src of addressSources().filter((x) => !only || only.includes(x.name))) {
    const cityDone = new Set<string>();
    for (const t of sampledRows(src, perSource)) {
      const id = `${src.name}:${t.street}|${t.hn}|${t.postcode}|${t.city}`;
      for (const pattern of ADDRESS_PATTERNS) {
        if (pattern === 'city alone') {
          // a city asked once per source
          const k = foldText(t.city);
          if (cityDone.has(k)) continue;
          cityDone.add(k);
        }
        const q = addressQuery(t, pattern, exonyms);
        if (!q) continue;
        const withPc = pattern !== 'street + city, no postcode' && pattern !== 'street + city, no comma' && pattern !== 'city alone' && pattern !== 'city + province code' && pattern !== 'city (département)' && !!t.postcode;
        const withStreet = pattern !== 'city alone' && pattern !== 'postcode alone, country prefix' && pattern !== 'city + province code' && pattern !== 'four-digit code + city' && pattern !== 'city (département)';
        const pcTruth = pattern === 'four-digit code + city' ? pc4(t)! : t.postcode;
        const street = pattern === 'abbreviated street type' ? abbreviatedStreet(t)! : t.street;
        const ex = pattern === 'exonym city' ? exonymOf(t, exonyms) : undefined;
        if (pattern === 'city alone') {
          // a name alone follows the places rule: a more populous place of that name elsewhere
          // (another country, or over 20 km away) is the one expected (`Paola` is the Calabrian town)
          const exp = expectedPlace(t.city);
          if (exp && (exp.place.cc !== t.country || distanceMeters(exp.place.lat, exp.place.lon, t.lat, t.lon) > 20_000)) {
            out.push(makeCase('addresses', `${src.name}:city:${t.city}`, t.country, pattern, q, exp.truth));
            continue;
          }
        }
        out.push(makeCase('addresses', pattern === 'city alone' ? `${src.name}:city:${t.city}` : `${id}:${pattern}`, t.country, pattern, q, {
          kind: 'area', country: t.country, city: t.city, ...(ex ? { cityNames: [ex] } : {}), ...(withPc ? { postcode: pcTruth } : {}),
          allowed: allowedCountries(withPc ? pcTruth : undefined, withStreet ? street : undefined, t.country),
        }));
      }
    }
  }
  if (!only || only.includes('exonym postcodes')) out.push(...exonymPostcodeCases());
  return out;
}
