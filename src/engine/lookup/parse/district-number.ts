/**
 * Stage 1 (parse, see ../index.ts): a city's district written by its number, as the post names
 * such districts (`Dublin 2`, `Paris 08`, `Lyon 03`, `Marseille 13`) and as people write them:
 * the number alone after the city's word (`Paris 8`), an ordinal (`Paris 8e`, `Paris 1er`,
 * `Paris 16ème`, `Paris VIIIe`), or with the word for it (`Paris 8e arrondissement`, `9e
 * arrondissement, Paris`, `Wien 3. Bezirk`, `Budapest 11. kerület`); the number in the forms the
 * names write it (`08`, Budapest's Roman `XI`) and, in Vienna, the postcode it names (1030).
 */
import type { PostcodeCandidate } from './postcodes.ts';

/** What this stage reads of a query token (parse.ts QueryToken). */
interface DistrictToken {
  text: string;
  field: string;
  seg?: number;
  district?: true;
}

/** Words that say the number right before them is a city's district (folded): `8e arrondissement`, `8e arr.`, `3. Bezirk` */
const DISTRICT_WORDS = new Set(['arrondissement', 'arrondissements', 'arr', 'arrt', 'arrdt', 'bezirk', 'bez']);
/** Such words that the district's own name holds, and so stay (`Budapest 11. kerület` → `Budapest XI. kerület`). */
const NAMED_DISTRICT_WORDS = new Set(['kerulet']);

const ROMAN = ['i', 'ii', 'iii', 'iv', 'v', 'vi', 'vii', 'viii', 'ix', 'x', 'xi', 'xii', 'xiii', 'xiv', 'xv', 'xvi', 'xvii', 'xviii', 'xix', 'xx', 'xxi', 'xxii', 'xxiii'];

/** The highest district an ordinal names: Paris's 20 arrondissements (a plain number goes to 23: Budapest, Vienna). */
const MAX_DISTRICT = 20;

/**
 * The number an ordinal writes, folded (`8e`, `1er`, `16eme`, `2nd`, `viiie`, `ixe`, `ier`): ''
 * when the word is no ordinal of 1–20. A plain number is no ordinal. `shortRoman` false: a Roman
 * ordinal of one or two letters is none either (`vie`, `ive` are words; `viiie`, `xvie` are not),
 * but for the two-letter ones with an X, which no word is (`Paris XVe`, `XIe`).
 */
export function ordinalNumber(word: string, shortRoman = true): string {
  const m = /^(\d{1,2}|[ivx]{1,5})(?:e|er|re|eme|ere|ieme|st|nd|rd|th)$/.exec(word);
  if (!m) return '';
  const roman = !/^\d/.test(m[1]!);
  if (roman && !shortRoman && m[1]!.length < 3 && !/^(?:ix|xi|xv|xx)$/.test(m[1]!)) return '';
  const n = roman ? ROMAN.indexOf(m[1]!) + 1 : Number(m[1]);
  return n >= 1 && n <= MAX_DISTRICT ? String(n) : '';
}

/**
 * Free-text words (folded, with `aligned` arrays of the same length) without the district words
 * that follow a number or an ordinal (`8e arrondissement` → `8e`; `kerület` stays, the names hold
 * it): those numbers name a city's district wherever they stand. Answers their indexes after the drop.
 */
export function dropDistrictWords(free: string[], aligned: unknown[][]): Set<number> {
  const districts = new Set<number>();
  for (let k = 1; k < free.length; k++) {
    const kept = NAMED_DISTRICT_WORDS.has(free[k]!);
    if (!kept && !DISTRICT_WORDS.has(free[k]!)) continue;
    const before = free[k - 1]!;
    if (!/^\d{1,2}$/.test(before) && !ordinalNumber(before)) continue;
    if (kept) { districts.add(k - 1); continue; }
    free.splice(k, 1);
    for (const a of aligned) a.splice(k, 1);
    districts.add(k - 1);
    k--;
  }
  return districts;
}

/**
 * Token `i` is a district's number (`Dublin 2`, `Dublin 6w`, `Paris 15`, `Paris 8e`: the post's
 * own place names): a number said to be one by the word after it (dropDistrictWords), or one or
 * two digits (and a letter), or an ordinal, right after a word of its part and field, ending a
 * query that has no house-number field, but for an Eircode after it (`Dublin 4, D04 F5P2`, the
 * Irish address's last lines; `postcodes`: the query's postcode candidates). Any other number is
 * a house number or a postcode.
 */
export function isDistrictNumber(tokens: readonly DistrictToken[], i: number, hnKeys: readonly string[], postcodes: readonly PostcodeOf[] = []): boolean {
  const t = tokens[i]!, before = tokens[i - 1];
  if (t.district) return true;
  return endsBeforePostcode(tokens, i, postcodes) && (/^\d{1,2}[a-z]?$/.test(t.text) || ordinalNumber(t.text, false) !== '') && before !== undefined && before.seg === t.seg
    && before.field === t.field && !/^\d/.test(before.text) && hnKeys.length === 0;
}

/** What isDistrictNumber reads of a postcode candidate (postcodes.ts PostcodeCandidate). */
interface PostcodeOf { key: string; countries: readonly string[] }

/**
 * Token `i` ends the query, or only an Irish code follows it (the postcode field, or a candidate
 * of IE's shape in a later part): Ireland writes the district before the Eircode, where other
 * countries' codes come before the town (a number before `, 10115` is a house number).
 */
function endsBeforePostcode(tokens: readonly DistrictToken[], i: number, postcodes: readonly PostcodeOf[]): boolean {
  const seg = tokens[i]!.seg ?? 0;
  for (let j = i + 1; j < tokens.length; j++) {
    const u = tokens[j]!;
    const irish = postcodes.some((z) => z.key === u.text && z.countries.includes('IE'));
    if (!irish || (u.field !== 'zip' && (u.seg ?? 0) <= seg)) return false;
  }
  return true;
}

/** The number district number token `t` writes: its digits, or an ordinal's number (a short Roman one only when a district word marks it); '' for none. */
function districtNumber(t: DistrictToken): string {
  return /^\d+$/.test(t.text) ? t.text : ordinalNumber(t.text, t.district === true);
}

/**
 * The forms a district number token `t` is written in by the post and the place names, besides
 * its text: the number of an ordinal (`8e` → `8`), a single digit with its leading zero (`Paris
 * 8` → `Paris 08`), and the Roman number (`Budapest 11` → `Budapest XI. kerület`; up to 23, Budapest's).
 */
export function districtForms(t: DistrictToken): string[] {
  const n = districtNumber(t);
  const out = n && n !== t.text ? [n] : [];
  if (/^\d$/.test(n)) out.push(`0${n}`);
  const roman = ROMAN[Number(n) - 1];
  if (roman) out.push(roman);
  return out;
}

/**
 * Cities whose postcode says the district's number, so that the number names the postcode:
 * Vienna's are 1, the district's two digits, 0 (`Wien 3`, `Wien, 3. Bezirk` → 1030, Landstraße).
 */
const DISTRICT_POSTCODES: Readonly<Record<string, { country: string; districts: number; postcode: (nn: string) => string }>> = {
  wien: { country: 'AT', districts: 23, postcode: (nn) => `1${nn}0` },
};

/**
 * The postcode a district number token `i` names in a city of DISTRICT_POSTCODES: the number right
 * after the city's word (`Wien 3`), or one the word for a district marks, with the city's word in
 * the same field (`3. Bezirk, Wien`); undefined otherwise (`Wien Hauptstraße 3` is a house number).
 */
export function districtPostcode(tokens: readonly DistrictToken[], i: number): PostcodeCandidate | undefined {
  const t = tokens[i]!;
  const n = Number(districtNumber(t));
  for (const other of t.district ? tokens : tokens.slice(Math.max(0, i - 1), i)) {
    const city = other.field === t.field ? DISTRICT_POSTCODES[other.text] : undefined;
    if (!city || !(n >= 1 && n <= city.districts)) continue;
    const key = city.postcode(String(n).padStart(2, '0'));
    return { key, raw: key, countries: [city.country], start: 0, end: 0, token: i };
  }
  return undefined;
}
