/**
 * Street-and-postcode addresses for the countries ../shared has no addresses of (PL, IT, NL, ES):
 * every distinct (postcode, place) pair of the country's GeoNames postcodes, given one of the
 * country's most common street names, written with its own street-type word (ulica, Via, -straat,
 * Calle), and a house number, both chosen by a hash of the pair (fixed, no engine input). The
 * street may not exist in that place: truth is the postcode's place, which the embedded default
 * must name whether or not it knows the street.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { splitCsv } from '../../../src/data/readers/lines.ts';
import { D, type Truth } from '../suites.ts';
import { fnv1a } from './split.ts';

export const SYNTHETIC_COUNTRIES = ['PL', 'IT', 'NL', 'ES'] as const;

/** Common street names per country, full type word first (general knowledge of each country's street names). */
export const STREET_NAMES: Readonly<Record<string, readonly string[]>> = {
  PL: ['ulica Adama Mickiewicza', 'ulica Tadeusza Kościuszki', 'ulica Juliusza Słowackiego', 'ulica Kościelna', 'ulica Polna', 'ulica Szkolna', 'ulica Leśna', 'ulica Ogrodowa', 'ulica Lipowa', 'ulica Łąkowa'],
  IT: ['Via Roma', 'Via Giuseppe Garibaldi', 'Via Giuseppe Mazzini', 'Via Dante Alighieri', 'Via Giuseppe Verdi', 'Via Camillo Cavour', 'Via Vittorio Emanuele II', 'Via XX Settembre', 'Via Guglielmo Marconi', 'Via Giacomo Matteotti'],
  NL: ['Kerkstraat', 'Schoolstraat', 'Molenstraat', 'Dorpsstraat', 'Stationsstraat', 'Julianastraat', 'Beatrixstraat', 'Nieuwstraat', 'Wilhelminastraat', 'Hoofdstraat'],
  ES: ['Calle Mayor', 'Calle Real', 'Calle Nueva', 'Calle de la Iglesia', 'Calle del Sol', 'Calle de Cervantes', 'Calle de la Constitución', 'Calle del Doctor Fleming', 'Calle de San Antonio', 'Calle de la Paz'],
};

/** The abbreviation people write for each country's type word: ul., V., -str., C/. */
export const SYNTH_ABBREV: Readonly<Record<string, (street: string) => string>> = {
  PL: (s) => s.replace(/^ulica /, 'ul. '),
  IT: (s) => s.replace(/^Via /, 'V. '),
  NL: (s) => s.replace(/straat$/, 'str.'),
  ES: (s) => s.replace(/^Calle (de la |del |de )?/, 'C/ '),
};

/**
 * A GeoNames postal place name as people write it: without GeoNames' parenthesised parish or
 * municipality (`Damil (El Salvador)` → `Damil`) and with a trailing Galician or Catalan article
 * put first (`Ermida, A` → `A Ermida`).
 */
export function asWritten(place: string): string {
  const s = place.replace(/\s*\([^)]*\)\s*$/, '').trim();
  const m = /^(.*), (A|O|As|Os|El|La|Los|Las|L'|Les|Es|Sa|Ses)$/.exec(s);
  return m ? `${m[2]}${m[2]!.endsWith("'") ? '' : ' '}${m[1]}` : s;
}

export function syntheticAddresses(cc: string): Truth[] {
  const text = gunzipSync(readFileSync(D('geonames-postalcodes', `${cc}.csv.gz`))).toString('utf8');
  const names = STREET_NAMES[cc]!;
  const seen = new Set<string>();
  const out: Truth[] = [];
  for (const l of text.split('\n').slice(1)) {
    if (!l) continue;
    const f = splitCsv(l);
    const postcode = f[1]!, city = asWritten(f[2]!);
    const k = `${postcode}|${city}`;
    if (!postcode || !city || seen.has(k)) continue;
    seen.add(k);
    const h = fnv1a(k);
    const province = cc === 'IT' && /^[A-Z]{2}$/.test(f[6] ?? '') ? { province: f[6]! } : {};
    out.push({ street: names[h % names.length]!, hn: String(1 + ((h >>> 8) % 60)), postcode, city, country: cc, lat: Number(f[9]), lon: Number(f[10]), ...province });
  }
  return out;
}
