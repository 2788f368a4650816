/**
 * Postcodes in a query: recognised by the shape each destination's post uses (libaddressinput's
 * `zip` patterns, pinned in postcode-shapes.generated.ts), normalised by the recipient-block
 * rules of that country, and looked up by their longest known prefix where the data knows only
 * part of the code (GB outward codes, NL four digits, CA forward sortation areas, IE routing
 * keys, PT four-digit CP4 areas in the default layer).
 */
import { COMPILED_RULES } from '../../lines/compiled.ts';
import { SUPPORTED_DESTINATIONS } from '../../lines/iso3166.ts';
import { postcodeKey } from '../normalize/normalize.ts';
import { MT_POSTCODE_LETTERS, POSTCODE_SHAPES } from './postcode-shapes.generated.ts';

const SHAPES: [string, RegExp][] = Object.entries(POSTCODE_SHAPES).map(([cc, src]) => [cc, new RegExp(`^(?:${src})$`)]);
const SHAPE_OF: ReadonlyMap<string, RegExp> = new Map(SHAPES);
/** Every shape in one pattern: most words are no postcode anywhere and are rejected in one test. */
const ANY_SHAPE = new RegExp(`^(?:[A-Z]{1,3}-)?(?:${Object.values(POSTCODE_SHAPES).map((x) => `(?:${x})`).join('|')})$`);

/** Countries whose postcode data (GeoNames) holds only a prefix of the full code, with its length range. */
export const PARTIAL_POSTCODES: Readonly<Record<string, readonly [number, number]>> = {
  GB: [2, 4], NL: [4, 4], CA: [3, 3], IE: [3, 3], PT: [4, 4], MT: [3, 3],
};

/**
 * The part of a full code that people and the postal data write alone, in countries whose full
 * code is longer: NL's four digits without their letters (`4011` for `4011 AB`). A code of this
 * shape may be one of theirs although it lacks the country's full shape.
 */
const PARTIAL_SHAPES: readonly [string, RegExp][] = [['NL', /^[1-9]\d{3}$/]];

/**
 * The countries whose full shape (`countries`) or partial shape (PARTIAL_SHAPES) the key has; a
 * partial shape only for the countries `evidence` holds (a bare `1069` is no Dutch code unless the
 * query's words point there too).
 */
export function withPartialShapes(key: string, countries: readonly string[], evidence: ReadonlySet<string>): readonly string[] {
  let out: string[] | undefined;
  for (const [cc, re] of PARTIAL_SHAPES) if (evidence.has(cc) && !countries.includes(cc) && re.test(key)) (out ??= [...countries]).push(cc);
  return out ?? countries;
}

/** A postcode found in free text. */
export interface PostcodeCandidate {
  /** Comparable key (postcodeKey of the value without a country prefix). */
  key: string;
  /** The text as typed. */
  raw: string;
  /** Countries whose shape it has. */
  countries: readonly string[];
  /** Character offsets of the span in the text. */
  start: number;
  end: number;
  /** Only the part of a code that the data holds alone (a GB outward code `EC2N`): not strong evidence alone. */
  partial?: boolean;
  /** The query token that stands for it when its text is not the key (a district's number: `Wien 3` → 1030, district-number.ts). */
  token?: number;
}

/** A GB outward code typed alone, in capitals (`EC2N`, `SW1W`, `NW1`): the part GeoNames holds. */
const GB_OUTWARD = /^[A-Z]{1,2}\d[A-Z\d]?$/;

/** Country prefixes written before a postcode ("D-10115", "CH-8001", "LV-1050" is LV's own). */
const PREFIX_RE = /^(?:[A-Z]{1,3})-(?=\d)/;

/**
 * The country a prefix names: the letters European addresses put before a foreign postcode (the
 * CEPT recommendation, after the international vehicle codes: `D-10115`, `A-1010`, `F-75001`,
 * `L-1511`, `SLO-1000`), the post's own (`LV-1050`, `LT-01100`), and any destination's ISO code
 * (`DE-10115`). Such a code is that country's only: `L-1511` is Luxembourg's, never Ljubljana's 1511.
 */
const PREFIX_COUNTRY: ReadonlyMap<string, string> = new Map([
  ...SUPPORTED_DESTINATIONS.map((cc) => [cc, cc] as [string, string]),
  ...Object.entries({
    A: 'AT', B: 'BE', D: 'DE', E: 'ES', EST: 'EE', F: 'FR', FIN: 'FI', SF: 'FI', FL: 'LI', H: 'HU', I: 'IT', IRL: 'IE',
    L: 'LU', M: 'MT', P: 'PT', S: 'SE', SLO: 'SI', RA: 'AR',
  }),
]);

/** Recent answers of postcodeCountries (a stream repeats its postcodes; 34 patterns a word otherwise). */
const shapeMemo = new Map<string, readonly string[]>();
const SHAPE_MEMO_SIZE = 4096;

/** Countries whose shape the upper-cased value has (with or without a letter prefix like `D-`); do not modify the result. */
export function postcodeCountries(value: string): readonly string[] {
  let r = shapeMemo.get(value);
  if (r === undefined) {
    r = shapeCountries(value);
    if (shapeMemo.size >= SHAPE_MEMO_SIZE) shapeMemo.clear();
    shapeMemo.set(value, r);
  }
  return r;
}

function shapeCountries(value: string): string[] {
  const v = value.toUpperCase().replace(/\s+/g, ' ').trim();
  const out: string[] = [];
  if (!ANY_SHAPE.test(v)) return out;
  const ok = (cc: string, x: string) => {
    const rule = COMPILED_RULES.get(cc);
    // the recipient-block rule of the country is stricter where libaddressinput is loose (IE)
    return !rule || rule.postcode(x) !== null;
  };
  const prefix = PREFIX_RE.exec(v)?.[0];
  const named = prefix === undefined ? undefined : PREFIX_COUNTRY.get(prefix.slice(0, -1));
  if (named !== undefined) {
    // the prefix names the country: that country's shape only, with the prefix or without it,
    // or the part of it the post's data holds alone (`NL-4011`)
    const re = SHAPE_OF.get(named);
    const bare = v.slice(prefix!.length);
    const full = re !== undefined && ((re.test(v) && ok(named, v)) || (re.test(bare) && ok(named, bare)));
    return full || PARTIAL_SHAPES.some(([cc, p]) => cc === named && p.test(bare)) ? [named] : [];
  }
  for (const [cc, re] of SHAPES) if (re.test(v) && ok(cc, v)) out.push(cc);
  if (out.length === 0 && prefix !== undefined) {
    const bare = v.replace(PREFIX_RE, '');
    for (const [cc, re] of SHAPES) if (re.test(bare) && ok(cc, bare)) out.push(cc);
  }
  return out;
}

const WORD_RE = /[^\s,;()]+/g;
/** The letter groups of Malta's postcodes (`VLT`, `SLM`). */
const MT_LETTERS = new Set(MT_POSTCODE_LETTERS.split(' '));
/** Second words that make a number a street (`1900 SE F St`, `1111 MD 760`), not an NL or IE code. */
const NOT_A_CODE_PART = /^(?:N|S|E|W|NE|NW|SE|SW|US|ST|RD|DR|AV|AVE|MD|TX|CA|NY|FL|WA|OR|NJ|PA|OH|IL|GA|NC|VA|MA|MI|AZ)$/i;

/**
 * Postcode candidates in free text: one raw word, or two raw words joined by a space
 * (`1017 GC`, `SW1A 1AA`, `114 55`, `VLT 1455`), that have some destination's shape. A longer span wins over
 * its parts. The words are split on white space, commas, semicolons and brackets only, so
 * `00-590` and `LV-1050` stay one word.
 */
export function findPostcodes(text: string): PostcodeCandidate[] {
  // a text written all in lower case writes Malta's letters so too (`vlt 1426`)
  const lowerOnly = !/\p{Lu}/u.test(text);
  const words: { w: string; at: number }[] = [];
  for (const m of text.matchAll(WORD_RE)) words.push({ w: m[0].replace(/[.:]+$/, ''), at: m.index });
  const out: PostcodeCandidate[] = [];
  for (let i = 0; i < words.length; i++) {
    const { w, at } = words[i]!;
    const next = words[i + 1];
    if (next !== undefined) {
      // letters, then the number: Malta's `VLT 1455`, only as the post writes it today (capitals,
      // four digits: `DFL 31`, `III 28` are a street and its number; letters Malta's codes use:
      // `NSW 2000` is an Australian state and postcode), or in a text that writes no capital at
      // all; or a number, then a short part
      // (in lower case only as the text's last number and not after one: `rue du 8 mai 1945` is
      // a date, `route du puy 6010, 48600 grandrieu` a street and its house number)
      const lowerMaltese = lowerOnly && /^[a-z]{3}$/.test(w) && !/^\d/.test(words[i - 1]?.w ?? '') && !/\d/.test(text.slice(next.at + next.w.length));
      const maltese = (/^[A-Z]{3}$/.test(w) || lowerMaltese) && MT_LETTERS.has(w.toUpperCase()) && /^\d{4}$/.test(next.w);
      const parts = /\d/.test(w) && /^[\dA-Za-z]{2,4}$/.test(next.w) && !NOT_A_CODE_PART.test(next.w);
      const pair = maltese || parts ? codePair(text, words[i]!, next) : undefined;
      if (pair) { out.push(pair); i++; continue; }
    }
    if (!/\d/.test(w)) continue;
    const cs = postcodeCountries(w);
    if (cs.length > 0) out.push({ key: keyOf(w), raw: w, countries: cs, start: at, end: at + w.length });
    else if (w.length >= 3 && GB_OUTWARD.test(w)) out.push({ key: keyOf(w), raw: w, countries: ['GB'], start: at, end: at + w.length, partial: true });
  }
  return out;
}

/** Two words as one postcode, when only white space separates them and the pair has a shape. */
function codePair(text: string, a: { w: string; at: number }, b: { w: string; at: number }): PostcodeCandidate | undefined {
  if (text.slice(a.at + a.w.length, b.at).trim() !== '') return undefined;
  const raw = `${a.w} ${b.w}`;
  const countries = postcodeCountries(raw);
  return countries.length > 0 ? { key: keyOf(raw), raw, countries, start: a.at, end: b.at + b.w.length } : undefined;
}

function keyOf(raw: string): string {
  const v = raw.toUpperCase();
  // `LV-1050` keeps its LV (LV's own spelling); `D-10115` loses the country letter
  if (/^LV-\d{4}$/.test(v)) return postcodeKey(v);
  return postcodeKey(v.replace(PREFIX_RE, ''));
}

/** The query's postcode written the way the country's post writes it, or '' when not valid there. */
export function normalisePostcode(country: string, raw: string): string {
  const rule = COMPILED_RULES.get(country);
  if (!rule) return '';
  return rule.postcode(raw.trim()) ?? '';
}

/** Keys to try for a postcode in a country, longest first: the key, then its known prefixes. */
export function postcodeKeysToTry(country: string, key: string): string[] {
  const out = [key];
  const p = PARTIAL_POSTCODES[country];
  if (p) for (let n = Math.min(p[1], key.length - 1); n >= p[0]; n--) out.push(key.slice(0, n));
  // BR: GeoNames knows the 5-digit area as `NNNNN-000`
  if (country === 'BR' && key.length === 8) out.push(`${key.slice(0, 5)}000`);
  return out;
}

/**
 * The same code as the data may spell it in a country (an exact match, not a prefix): LU's post
 * writes `L-1508`, and so do GeoNames and the index (key `l1508`), while people also write `1508`
 * or `L-1508` (whose prefix the query's key drops).
 */
export function postcodeSpellings(country: string, key: string): string[] {
  return country === 'LU' && /^\d{4}$/.test(key) ? [`l${key}`] : [];
}
