/**
 * Which countries a query's postcode shape and street-type word leave open, for the measure
 * "answers in a country the query rules out" (target 0). Fixed before tuning and owned by the
 * evaluation, not by the engine:
 *  - postcode shapes: libaddressinput's `zip` patterns (src/engine/lookup/parse/
 *    postcode-shapes.generated.ts), whole value, case-insensitive; plus the partial forms GeoNames
 *    and people write where the full one is longer (NL `1234` without its letters, GB outward code,
 *    IE routing key, CA FSA, MT locality letters);
 *  - street-type words whose countries are certain (STREET_WORD_COUNTRIES); a word not listed rules
 *    nothing out (`Avenue`, `Road`, `Place` are written in too many countries).
 */
import { POSTCODE_SHAPES } from '../../../src/engine/lookup/parse/postcode-shapes.generated.ts';
import { SUPPORTED_DESTINATIONS } from '../../../src/engine/lines/iso3166.ts';
import { foldText } from '../../../src/engine/lookup/normalize/normalize.ts';

const PARTIAL_SHAPES: Readonly<Record<string, string>> = {
  NL: '[1-9]\\d{3}', GB: '[A-Z]{1,2}\\d[A-Z\\d]?', IE: '[A-Z\\d]{3}', CA: '[A-Z]\\d[A-Z]', MT: '[A-Z]{3}',
};

/** The destinations whose postcode shape (full or partial) the postcode has. */
export function countriesOfPostcode(pc: string): string[] {
  const v = pc.trim().toUpperCase();
  return SUPPORTED_DESTINATIONS.filter((cc) => {
    const full = POSTCODE_SHAPES[cc];
    if (full && new RegExp(`^(?:${full})$`, 'i').test(v)) return true;
    const part = PARTIAL_SHAPES[cc];
    return !!part && new RegExp(`^(?:${part})$`, 'i').test(v);
  });
}

/**
 * Street-type words (folded) and the destinations that write them. A word matches as a whole
 * token, or as the ending of a compound token when listed in COMPOUND_ENDINGS (`Hauptstraße`,
 * `Vesterbrogade`); the one-letter abbreviations `V.` and `C/` only as the street's first word.
 */
export const STREET_WORD_COUNTRIES: Readonly<Record<string, readonly string[]>> = {
  rue: ['FR', 'BE', 'CH', 'LU', 'CA'], impasse: ['FR', 'BE', 'CH', 'LU', 'CA'], chemin: ['FR', 'BE', 'CH', 'LU', 'CA'],
  ul: ['PL'], ulica: ['PL'],
  via: ['IT', 'CH'], viale: ['IT', 'CH'], piazza: ['IT', 'CH'], v: ['IT', 'CH'],
  calle: ['ES', 'AR'], c: ['ES', 'AR'],
  triq: ['MT'],
};

export const COMPOUND_ENDINGS: Readonly<Record<string, readonly string[]>> = {
  strasse: ['DE', 'AT', 'CH', 'LI', 'LU', 'BE'], str: ['DE', 'AT', 'CH', 'LI', 'LU', 'BE', 'NL'], gasse: ['DE', 'AT', 'CH', 'LI'],
  straat: ['NL', 'BE'], vej: ['DK'], gade: ['DK'], katu: ['FI'],
};

/** The destinations the street's type word allows; undefined when the street has no listed word. */
export function countriesOfStreet(street: string): string[] | undefined {
  const raw = street.toLowerCase().replace(/ß/g, 'ss');
  if (/(^|\s)c\//.test(raw)) return [...STREET_WORD_COUNTRIES.calle!];
  const toks = foldText(street).split(' ');
  if (toks[0] === 'v' || toks[0] === 'c') return [...STREET_WORD_COUNTRIES[toks[0]]!];
  for (const tok of toks) {
    const w = STREET_WORD_COUNTRIES[tok];
    if (w && tok.length > 1) return [...w];
    for (const [end, cs] of Object.entries(COMPOUND_ENDINGS)) if (tok === end || (tok.endsWith(end) && tok.length > end.length + 2)) return [...cs];
  }
  return undefined;
}

/**
 * The countries a query with this postcode and street leaves open; undefined = nothing ruled out.
 * A postcode or street word that does not fit the reference's own country (OSM's `1055` in Malta,
 * `BC V6B 2E2` in Vancouver) is a flaw of the reference, not evidence, and is left out.
 */
export function allowedCountries(postcode: string | undefined, street: string | undefined, country: string): string[] | undefined {
  const fits = (cs: string[] | undefined) => (cs && cs.includes(country) ? cs : undefined);
  const byPc = fits(postcode ? countriesOfPostcode(postcode) : undefined);
  const bySt = fits(street ? countriesOfStreet(street) : undefined);
  if (byPc && bySt) return byPc.filter((c) => bySt.includes(c));
  return byPc ?? bySt;
}
