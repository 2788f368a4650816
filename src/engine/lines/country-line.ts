/**
 * The country line of international mail: the destination's name in capitals, in
 * `countrynamelanguage`, from the pinned generated table (never Intl at run time).
 * Empty language = English; de, fr, es, pt (European Portuguese), nl; anything else = English
 * with status 1 (spec README item 12).
 */
import { COUNTRY_NAMES, COUNTRY_NAMES_SHORT, type CountryNameLanguage } from './country-names.generated.ts';

const LANGUAGES: ReadonlyMap<string, CountryNameLanguage> = new Map([
  ['', 'en'], ['de', 'de'], ['fr', 'fr'], ['es', 'es'], ['pt', 'pt'], ['nl', 'nl'],
]);

/** The table language for a request value, or undefined when it falls back to English (status 1). */
export function countryNameLanguage(requested: string): CountryNameLanguage | undefined {
  return LANGUAGES.get(requested) ?? LANGUAGES.get(requested.toLowerCase());
}

/** The name that fits `max`: the long form, else the short form, else null. */
export function countryLine(dest: string, lang: CountryNameLanguage, max: number): string | null {
  const name = COUNTRY_NAMES[lang][dest] ?? COUNTRY_NAMES.en[dest];
  if (name === undefined) return null;
  if (name.length <= max) return name;
  const short = COUNTRY_NAMES_SHORT[lang]?.[dest];
  return short !== undefined && short.length <= max ? short : null;
}
