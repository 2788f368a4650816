/**
 * Stage 2 (parse, see ../index.ts): parse a request (structured fields, free text, or both) into
 * weighted query tokens. Free text is not given roles here: every token may be street, city,
 * postcode or house number, and the scorer decides against the index, so the order of the elements
 * does not matter.
 */
import type { SearchRequest } from '../../../contract/requests.ts';
import { isSupportedDestination } from '../../lines/iso3166.ts';
import { countryLanguages, expansions, saintForms } from '../normalize/abbreviations.ts';
import { foldTokens, houseNumberKey, looksLikeHouseNumber, postcodeKey } from '../normalize/normalize.ts';
import { expandPlaceQualifiers } from '../normalize/place-qualifiers.ts';
import { countryOfCode, countryOfPhrase, countryPhraseWords, isCountryCode, resolveCountry } from './countries.ts';
import { findPostcodes, postcodeCountries, type PostcodeCandidate } from './postcodes.ts';
import { districtForms, districtPostcode, dropDistrictWords, isDistrictNumber } from './district-number.ts';

export type Field = 'free' | 'street' | 'city' | 'zip' | 'district' | 'housenumber';

export interface QueryToken {
  /** Folded text as typed. */
  text: string;
  field: Field;
  /** Lookup forms: the text itself first, then full forms when the text is an abbreviation. */
  alts: string[];
  /** Could be a house number (free text or housenumber field). */
  hnLike: boolean;
  weight: number;
  /** Free text: index of the comma-separated part the token comes from. */
  seg?: number;
  /** Free text or the city field: the token stood in round brackets (`Halle (Saale)`: a qualifier of the name before it). */
  bracketed?: true;
  /** Free text: a number the word for a city's district followed (`8e arrondissement`, district-number.ts). */
  district?: true;
}

export interface ParsedQuery {
  tokens: QueryToken[];
  /** House-number keys from the housenumber field (empty when none was given). */
  hnKeys: string[];
  /** Postcode keys from the zip field. */
  zipKeys: string[];
  /** Postcodes the query names: the zip field, and codes of a destination's shape in the free text. */
  zipCands: PostcodeCandidate[];
  /** ISO alpha-2 from the country field or a country name in the free text; '' = all countries. */
  country: string;
  /** The country was given but not recognised. */
  countryUnknown: boolean;
  /** Weight of the tokens that named the country. */
  countryWeight: number;
  /**
   * The text is only a country's name (`Luxembourg`, `Brasília`): its words are kept, and answer a
   * place of that country bearing that very name, else the country alone.
   */
  countryNameOnly: boolean;
  /** The folded words of the free text that named `country` (`deutschland`); '' when the country field gave it. */
  countryText: string;
  /** Folded state / county values to check against the result. */
  state: string[];
  county: string[];
  additional: string;
  locale: string;
  totalWeight: number;
  /** The street, city, district and free text as typed (their letters hint at a language). */
  rawText: string;
  /**
   * ISO alpha-2 of the soft default country (`prefer_country`, an extension of the job or
   * account): it decides among countries the query leaves open, never excludes one; '' = none.
   */
  prefer: string;
  /**
   * Typo neighbours of free-text words may name a place, as those of the city field always do:
   * set only when the query as written answers nothing, or only in part (search/misspelt-place.ts).
   */
  freeTypoPlaces?: boolean;
}

/** Floor / apartment / door designators ("Top 3", "2. th", "3e étage", "Apt 4", "c/o …"). */
const ADDITIONAL_RES: RegExp[] = [
  /(?<![\p{L}\d])c\/o\s+[^,\n]+/giu,
  // the designator, then a separator (or digits right away: "Top3"), then the value; never a
  // word that merely starts like one ("Steinest", "Topweg"). Digits right after the letters are
  // not a unit when an inward code follows: `RM15 5EE` is a British postcode (outward
  // code = area letters + district digits, inward code = digit + two letters). Spanish:
  // `Apto 301`, `Dpto. 4`, `Piso 3` (apartamento, departamento, floor)
  /(?<![\p{L}\d])(?:top|t[üu]r|tuer|stiege|stg|whg|wohnung|apt|apartment|appartement|app|unit|suite|flat|floor|etage|étage|stock|bâtiment|batiment|bât|bat|bloc|escalier|esc|porte|lejl|lejlighed|lgh|room|rm|apto|dpto|depto|piso)(?:[.:#\s]+(?:no\.?\s*)?[\p{L}\d]{1,6}|\d{1,4}[a-z]?(?![\p{L}\d])(?!\s+\d[a-z]{2}(?![\p{L}\d])))(?![\p{L}\d])/giu,
  // `Ste 200`, `Ste. B` (suite): a number or one letter only, `Ste Foy`, `Ste-Anne` are Sainte-…
  /(?<![\p{L}\d])ste[.:#\s]+(?:\d{1,5}[a-z]?|[a-z])(?![\p{L}\d])/giu,
  // `#104` is a unit; `# 63-64` is not: in the Latin-American plate (`Cra 18 # 63-64`) `#` reads
  // "número" and the hyphenated pair (cross street, distance) is the house number
  /(?<![\p{L}\d])#\s*\d{1,5}[a-z]?(?![\p{L}\d]|-\d)/giu,
  /(?<![\p{L}\d])(?:p\.?\s?o\.?\s+box|postfach|boîte postale|bp)\s*\d{1,6}(?![\p{L}\d])/giu,
  /(?<![\p{L}\d])(?:ap|sc|et|кв)\.\s*[\p{L}\d]{1,4}(?![\p{L}\d])/giu,
  /(?<![\p{L}\d])\d{1,2}\s+trappa(?:\s+(?:upp|ned))?(?![\p{L}\d])/giu,
  /(?<![\p{L}\d])(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth)\s+floor(?![\p{L}\d])/giu,
  // Danish floor and side (`2. tv`, `st. th`, `kl mf`); `th` (til højre) only after a dot or a
  // space, since a digit glued to `th` is an English ordinal (`8TH ST`, `5th Avenue`)
  /(?<![\p{L}\d])(?:(?:\d{1,2}|st|kl)\.?\s*(?:tv|mf|sal)|(?:\d{1,2}(?:\.\s*|\s+)|(?:st|kl)\.?\s*)th)(?![\p{L}\d])\.?/giu,
  // floors: `3e étage`, `2. OG`, `1st floor`, Dutch `2e verdieping`, `3de verdieping`
  /(?<![\p{L}\d])\d{1,2}(?:e|er|re|eme|ème|nd|rd|th|st|de|ste)?\.?\s*(?:og|stock|etage|étage|floor|obergeschoss|verdieping)(?![\p{L}\d])/giu,
  // Dutch ground floor, `begane grond` (also cut short or abbreviated: `begane gr.`, `begane gro`)
  /(?<![\p{L}\d])begane\s+gr\p{L}{0,3}(?![\p{L}\d])\.?/giu,
];

/** A cheap first test: text without any of these cannot hold a designator. */
const ADDITIONAL_HINT = /[#/]|\d\s*(?:[.]|e|er|re|nd|rd|th|st|og|ob|tr|tv|mf|sal)|(?:st|kl)\.?\s*(?:th|tv|mf|sal)|top|t[üu]|stg|stie|whg|woh|ap|unit|suit|ste|flat|floor|etage|étage|stock|b[âa]t|bloc|esc|porte|lejl|lgh|room|rm|box|postf|bo[iî]te|bp|sc\.|et\.|кв|first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|trappa|verdieping|begane|dpto|depto|piso/i;

export function extractAdditional(s: string, found: string[]): string {
  let out = s;
  if (!ADDITIONAL_HINT.test(s)) return out;
  for (const re of ADDITIONAL_RES) {
    out = out.replace(re, (m) => {
      found.push(m.trim());
      return ' ';
    });
  }
  return out;
}

/**
 * Joins "2 a", "2/a", "2-a", "1 bis" into one house-number token in free text. A letter that is
 * an initial ("25 H.C. Ørsteds Vej", "1 V.A. Borgens Vej") or an elided article ("32600
 * L'Isle-Jourdain") belongs to the words after it, not the number.
 */
const GLUE_RE = /(?<![\p{L}\d])(\d{1,5})\s*[/-]?\s*([a-zA-Z]|bis|ter|quater)(?![\p{L}\d'’]|\.\s*\p{L})/gu;
/**
 * What every GLUE_RE match contains (its last digit onwards), as a cheap plain test: most texts
 * have only a postcode before a town ("75001 Paris"), which this already rejects.
 */
const GLUE_HINT = /\d\s*[/-]?\s*(?:[a-zA-Z](?![a-zA-Z\d])|bis|ter|quater)/;
function glueHouseNumbers(s: string): string {
  return GLUE_HINT.test(s) ? s.replace(GLUE_RE, '$1$2') : s;
}

const MAX_TOKENS = 24;

/**
 * German transliteration typed for umlauts (ae/oe/ue for ä/ö/ü) also looks up the folded form;
 * a saint's word looks up its other spelling (`st` → `saint`, `sankt` → `st`: abbreviations.ts).
 */
function withUmlautVariant(alts: string[]): string[] {
  const t = alts[0]!;
  for (const f of saintForms(t)) if (!alts.includes(f)) alts.push(f);
  if (t.length >= 4 && /[aou]e/.test(t)) {
    const v = t.replace(/([aou])e/g, '$1');
    if (!alts.includes(v)) alts.push(v);
  }
  return alts;
}

/** What a country weighs in the query, per naming (the country field, or its name in the text). */
export const COUNTRY_WEIGHT = 0.5;

export function parseRequest(req: SearchRequest): ParsedQuery {
  const found: string[] = [];
  let country = '';
  let countryUnknown = false;
  let countryWeight = 0;
  let countryNameOnly = false;
  let countryText = '';
  if (req.country) {
    country = resolveCountry(req.country);
    countryUnknown = country === '';
    countryWeight = COUNTRY_WEIGHT;
  }
  const langs = country ? countryLanguages(country) : null;
  const tokens: QueryToken[] = [];
  const push = (text: string, field: Field, hnLike: boolean, weight = 1, bracketed = false) => {
    if (tokens.length >= MAX_TOKENS) return;
    const alts = [text];
    if (field !== 'zip') for (const x of expansions(text, langs)) alts.push(x);
    tokens.push({ text, field, alts: withUmlautVariant(alts), hnLike, weight, ...(bracketed ? { bracketed: true as const } : {}) });
  };

  for (const t of foldTokens(req.street ?? '')) push(t, 'street', false);
  // (a city field may qualify the name in brackets as free text does: `Cēsis (Cēsu nov.)`)
  for (const [piece, bracketed] of bracketPieces(expandPlaceQualifiers(req.city ?? ''))) {
    for (const t of foldTokens(piece)) push(t, 'city', false, 1, bracketed);
  }
  for (const t of foldTokens(req.district ?? '')) push(t, 'district', false);
  const zipKeys: string[] = [];
  const zipCands: PostcodeCandidate[] = [];
  if (req.zip) {
    const k = postcodeKey(req.zip);
    if (k) {
      zipKeys.push(k);
      push(k, 'zip', false);
      zipCands.push({ key: k, raw: req.zip, countries: postcodeCountries(req.zip), start: 0, end: 0 });
    }
  }
  const hnKeys: string[] = [];
  if (req.housenumber) {
    let hn = extractAdditional(req.housenumber, found);
    const slash = /^\s*(\d+\s*[a-zA-Z]?)\s*\/\s*(\d+(?:\s*\/\s*\d+)*)\s*$/.exec(hn);
    if (slash) { found.push(slash[2]!.replace(/\s+/g, '')); hn = slash[1]!; }
    const k = houseNumberKey(hn);
    if (k) hnKeys.push(k);
    const base = /^(\d+)[a-z]/.exec(k);
    if (base && !hnKeys.includes(base[1]!)) hnKeys.push(base[1]!);
  }

  const joinedKeys = new Set<string>();
  if (req.address) {
    let text = extractAdditional(expandPlaceQualifiers(req.address), found);
    // postcodes written in parts ("1017 GC", "00-590", "SW1A 1AA", "D-10115") become one token
    const pcs = findPostcodes(text);
    for (let k = pcs.length - 1; k >= 0; k--) {
      const p = pcs[k]!;
      if (!zipCands.some((z) => z.key === p.key)) zipCands.push(p);
      if (/[\s-]/.test(p.raw)) {
        text = `${text.slice(0, p.start)} ${p.key} ${text.slice(p.end)}`;
        joinedKeys.add(p.key);
      }
    }
    text = glueHouseNumbers(text);
    // tokens with the comma-separated part they come from (the town is usually in a later part)
    let free: string[] = [];
    let segs: number[] = [];
    /** Per token: the most words of a country name starting with it (kept aligned with free). */
    let phrase: number[] = [];
    /** Per token: the country of an alpha-3 code that is a part of its own (kept aligned with free). */
    let codes: string[] = [];
    /** Per token: it stood in round brackets (kept aligned with free). */
    let brackets: boolean[] = [];
    let longestPhrase = 0;
    const parts = text.split(/[,;\n]/);
    for (let k = 0; k < parts.length; k++) {
      const code = countryOfCode(parts[k]!);
      if (code) {
        free.push(parts[k]!.trim().toLowerCase()); segs.push(k); phrase.push(1); codes.push(code); brackets.push(false);
        longestPhrase = Math.max(longestPhrase, 1);
        continue;
      }
      // words in brackets qualify a name ("Larin (San Salvador)": a parish) and name a country
      // only when they are all its name ("Paris (France)")
      for (const [piece, bracketed] of bracketPieces(parts[k]!)) {
        const ts = foldTokens(piece);
        const whole = bracketed && ts.length > 0 && ts.length <= 3 && countryOfPhrase(ts.join(' ')) ? ts.length : 0;
        ts.forEach((t, j) => {
          const w = !bracketed ? countryPhraseWords(t) : j === 0 ? whole : 0;
          free.push(t); segs.push(k); phrase.push(w); codes.push(''); brackets.push(bracketed);
          if (w > longestPhrase) longestPhrase = w;
        });
      }
    }
    // a text that ends with a country's two-letter code: the code is set aside, and a name of
    // that very country in the text names it (`Luxembourg, LU` reads as `Luxembourg`); else the
    // code is put back, and named-place/country-code-part.ts asks with it as the country when
    // no state's code explains it (`Salvador, BR`: not El Salvador; `Fribourg, FR`: the canton)
    const endCode = twoLetterCode(parts);
    if (endCode) { free.pop(); segs.pop(); phrase.pop(); codes.pop(); brackets.pop(); }
    // a country name anywhere in the free text (longest phrase first), when more text remains:
    // of several countries' names the one written last, or the code's (`Salvador, Brasil`,
    // `Granada, España`: the earlier name is a place's); of one country's names, the last one
    // first (`Brasília, Brasil`: the capital, in Brazil), the text's end being where it was
    // written, not where a name taken off leaves it (`Lower Austria, Austria`)
    const named = endCode || lastCountryNamed(free, segs, phrase, codes, longestPhrase);
    let endTaken = false;
    phrases: for (let n = Math.min(3, longestPhrase); n >= 1; n--) {
      for (let i = free.length - n; i >= 0; i--) {
        if (phrase[i]! < n) continue;
        // a country is named at the end of the text or as a part of its own, not inside a
        // street name ("Rue Maurice Utrillo" is not Mauritius); with a code at the end, only as
        // a part of its own (`South Australia, AU` is the state)
        const { atEnd, ownPart } = phrasePlace(free, segs, i, n, endTaken);
        if ((!atEnd || endCode) && !ownPart) continue;
        const { words, iso } = phraseCountry(free, codes, i, n);
        if (iso !== named) continue;
        // before the end, only a destination's name: another country's there is a place's word
        // (`Salvador, Bahia`; the index holds no place of that country anyway)
        if (!atEnd && !isSupportedDestination(iso)) continue;
        if (iso && (free.length > n || tokens.length > 0 || hnKeys.length > 0)) {
          if (!country) [country, countryText] = [iso, words];
          countryWeight += COUNTRY_WEIGHT;
          if (i + n === free.length) endTaken = true;
          free.splice(i, n);
          segs.splice(i, n);
          phrase.splice(i, n);
          codes.splice(i, n);
          brackets.splice(i, n);
        } else if (iso && !country) {
          // the text is only a country's name: also a place of that country, often its capital
          // (Luxembourg, Brasília), which the words still name; else the country alone answers
          [country, countryText] = [iso, words];
          countryWeight += COUNTRY_WEIGHT;
          countryNameOnly = true;
          break phrases;
        }
      }
    }
    if (endCode && country === endCode) countryWeight += COUNTRY_WEIGHT;
    else if (endCode) { free.push(endCode.toLowerCase()); segs.push(parts.length - 1); brackets.push(false); }
    const fl = country ? countryLanguages(country) : null;
    const districts = dropDistrictWords(free, [segs, brackets]);
    for (let k = 0; k < free.length && tokens.length < MAX_TOKENS; k++) {
      const t = free[k]!;
      const district = districts.has(k);
      const hnLike = !joinedKeys.has(t) && !district && looksLikeHouseNumber(t);
      const alts = [t];
      for (const x of expansions(t, fl)) alts.push(x);
      tokens.push({
        text: t, field: 'free', alts: withUmlautVariant(alts), hnLike, weight: 1, seg: segs[k],
        ...(brackets[k] ? { bracketed: true as const } : {}), ...(district ? { district: true as const } : {}),
      });
    }
    // a district's number as the names write it: the ordinal's number, two digits, Roman (`Paris 8e` → `Paris 08`, `Budapest 11` → `XI`)
    tokens.forEach((t, i) => {
      if (t.field !== 'free' || !isDistrictNumber(tokens, i, hnKeys, zipCands)) return;
      t.alts.push(...districtForms(t));
      // (and the postcode it names where the post numbers by district: `Wien 3` → 1030)
      const pc = zipCands.length === 0 ? districtPostcode(tokens, i) : undefined;
      if (pc) zipCands.push(pc);
    });
  }

  // a state alone (`{"state": "Marche"}`): its words are the query, which a state's name answers
  // (named-place/state-answer.ts) as it does in free text
  const stateOnly = tokens.length === 0 && hnKeys.length === 0 && !!req.state;
  if (stateOnly) for (const t of foldTokens(req.state!)) push(t, 'free', false);
  const state = req.state && !stateOnly ? [foldTokens(req.state).join(' ')] : [];
  const county = req.county ? [foldTokens(req.county).join(' ')] : [];
  let total = countryWeight;
  for (const t of tokens) total += t.weight;
  total += hnKeys.length > 0 ? 1 : 0;
  total += state.length * 0.5 + county.length * 0.5;
  return {
    tokens, hnKeys, zipKeys, zipCands, country, countryUnknown, countryWeight, countryNameOnly, countryText, state, county,
    additional: found.join(', '), locale: (req.locale ?? '').trim(), totalWeight: total,
    rawText: [req.street, req.city, req.district, req.address, stateOnly ? req.state : ''].filter(Boolean).join(' '),
    prefer: country ? '' : (req.prefer_country ?? '').trim().toUpperCase(),
  };
}

/**
 * The country of the country name (or alpha-3 code) that ends last in the free text, among those
 * the phrase rule of parseRequest would take (at the end of the text, or a part of its own that
 * names a destination); '' when there is none.
 */
function lastCountryNamed(free: readonly string[], segs: readonly number[], phrase: readonly number[], codes: readonly string[], longest: number): string {
  let best = '', bestEnd = -1;
  for (let n = Math.min(3, longest); n >= 1; n--) {
    for (let i = 0; i + n <= free.length; i++) {
      if (phrase[i]! < n || i + n <= bestEnd) continue;
      const { atEnd, ownPart } = phrasePlace(free, segs, i, n, false);
      if (!atEnd && !ownPart) continue;
      const { iso } = phraseCountry(free, codes, i, n);
      if (iso && (atEnd || isSupportedDestination(iso))) [best, bestEnd] = [iso, i + n];
    }
  }
  return best;
}

/**
 * Where the words free[i, i + n) stand: at the text's end (as written: not once a name after them
 * was taken off, `endTaken`), and whether they are a part of their own.
 */
function phrasePlace(free: readonly string[], segs: readonly number[], i: number, n: number, endTaken: boolean): { atEnd: boolean; ownPart: boolean } {
  const atEnd = i + n === free.length && !endTaken;
  return { atEnd, ownPart: (i === 0 || segs[i - 1] !== segs[i]) && (atEnd || segs[i + n] !== segs[i]) };
}

/** The words free[i, i + n) and the country they name (an alpha-3 code alone, or a country's name), '' for none. */
function phraseCountry(free: readonly string[], codes: readonly string[], i: number, n: number): { words: string; iso: string } {
  const words = n === 1 ? free[i]! : free.slice(i, i + n).join(' ');
  return { words, iso: (n === 1 && codes[i]) || countryOfPhrase(words) };
}

/** The ISO alpha-2 code that is the last of several comma-separated parts (`Wien, AT`), or ''. */
function twoLetterCode(parts: readonly string[]): string {
  const last = parts.length > 1 ? parts[parts.length - 1]!.trim().toUpperCase() : '';
  return /^[A-Z]{2}$/.test(last) && isCountryCode(last) ? last : '';
}

/** The text outside and inside round brackets, in order, each marked whether it was bracketed. */
function bracketPieces(text: string): [string, boolean][] {
  if (!text.includes('(')) return [[text, false]];
  const out: [string, boolean][] = [];
  let at = 0;
  for (const m of text.matchAll(/\(([^()]*)\)?/g)) {
    out.push([text.slice(at, m.index), false], [m[1] ?? '', true]);
    at = m.index + m[0].length;
  }
  out.push([text.slice(at), false]);
  return out;
}
