/**
 * Names of first-level subdivisions (ISO 3166-2) in a requested language, from the pinned table
 * (subdivision-names.generated.ts, made by scripts/gen-default-layer.ts): CLDR's names (CLDR 48
 * has English only, plus three GB names in other languages), else OpenCage address-formatting's
 * (CH-GE de "Genf", PL-14 pl "województwo mazowieckie"). Where neither has a name the caller
 * keeps the index's own (local) name; nothing is translated here.
 */
import { SUBDIVISION_CODES, SUBDIVISION_NAMES } from './subdivision-names.generated.ts';

const CODES = SUBDIVISION_CODES.split(' ');
const rows = new Map<string, Map<string, string>>();

function row(lang: string): Map<string, string> | undefined {
  let r = rows.get(lang);
  if (r) return r;
  const packed = SUBDIVISION_NAMES[lang];
  if (packed === undefined) return undefined;
  r = new Map();
  const names = packed.split('|');
  for (let i = 0; i < CODES.length; i++) if (names[i]) r.set(CODES[i]!, names[i]!);
  rows.set(lang, r);
  return r;
}

/** The CLDR name of an ISO 3166-2 code (`DE-BY`) in the language of `locale`, or ''. */
export function subdivisionName(code: string, locale: string): string {
  const lang = locale.split(/[-_]/)[0]!.toLowerCase();
  return row(lang)?.get(code) ?? '';
}
