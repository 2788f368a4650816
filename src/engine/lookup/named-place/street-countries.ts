/**
 * Which countries a street name's type words point to ("Vesterbrogade" → DK, "Rue …" → FR, BE,
 * LU, CH), weighed: P(country | word) from street-words.generated.ts (made by
 * scripts/gen-street-word-countries.ts from the street-type abbreviation package, the languages
 * of each country and the street names of the extracts), and the letters of the query's names
 * (ø → DK, ġ → MT). Used to choose among the countries where an otherwise unplaced postcode
 * exists ("3500" is a code in AT, DK, HU, …) or a name several countries share, and, with a
 * postcode's shape, to rule countries out (country-evidence.ts).
 */
import { STREET_SUFFIX_COUNTRIES, STREET_WORD_COUNTRIES } from './street-words.generated.ts';

type Weights = Readonly<Record<string, number>>;

/** A suffix counts from this many letters before it (`Vesterbrogade`, not `gade` alone). */
const SUFFIX_STEM = 2;
/** A country whose share of the evidence is under this is not hinted at. */
export const HINT_MIN = 0.04;

/** wordWeights' answers (null: none): several stages ask it of the same few tokens per query. */
const weightsOf = new Map<string, Weights | null>();
const WEIGHTS_MEMO_MAX = 50_000;

/** P(country | word) of a folded token: the word itself, else its longest known suffix (or the suffix alone). */
export function wordWeights(t: string): Weights | undefined {
  let w = weightsOf.get(t);
  if (w === undefined) {
    if (weightsOf.size >= WEIGHTS_MEMO_MAX) weightsOf.clear();
    weightsOf.set(t, (w = lookupWeights(t) ?? null));
  }
  return w ?? undefined;
}

function lookupWeights(t: string): Weights | undefined {
  const w = STREET_WORD_COUNTRIES[t];
  if (w) return w;
  let best: string | undefined;
  for (const suf in STREET_SUFFIX_COUNTRIES) {
    // the suffix itself as a word counts too (`Dr. Priemes Vej`)
    if ((t === suf || (t.length >= suf.length + SUFFIX_STEM && t.endsWith(suf))) && (!best || suf.length > best.length)) best = suf;
  }
  return best === undefined ? undefined : STREET_SUFFIX_COUNTRIES[best];
}

/**
 * The street-type evidence of folded tokens as P(country), normalised (empty: none). Words of
 * fewer than three letters say nothing: `Dr.`, `St.`, `la`, `ul.` are titles, articles or
 * abbreviations of many languages. Several words are a mixture, not independent evidence: one of
 * them may belong to the name (`St. Martins-Ring`: Sankt, not Street), so each keeps the countries
 * it points to.
 */
export function streetWordEvidence(tokens: readonly string[]): Map<string, number> {
  let acc: Map<string, number> | undefined;
  tokens.forEach((t) => {
    if (t.length < 3) return;
    const w = wordWeights(t);
    if (!w) return;
    acc ??= new Map();
    for (const cc in w) acc.set(cc, (acc.get(cc) ?? 0) + w[cc]!);
  });
  if (!acc) return new Map();
  let sum = 0;
  for (const v of acc.values()) sum += v;
  for (const [cc, v] of acc) acc.set(cc, v / sum);
  return acc;
}

/**
 * The countries street-word evidence `weights` (streetWordEvidence) points to, each with at least
 * `min` of it (empty: no hint); `min` 0: every country the words are written in at all.
 */
export function hintedCountries(weights: ReadonlyMap<string, number>, min = HINT_MIN): Set<string> {
  const out = new Set<string>();
  for (const [cc, p] of weights) if (p >= min && p > 0) out.add(cc);
  return out;
}

/** True for a street type word ("rue", "calle", "…strasse", "…vej"): three letters or more. */
export function isStreetWord(t: string): boolean {
  return t.length >= 3 && wordWeights(t) !== undefined;
}

/**
 * Letters that only some destinations' languages write (lower case; the query is lower-cased
 * first). Letters shared by many (ä, ö, ü, é, ç, ô) say nothing and are not listed.
 */
const LETTERS: [RegExp, string][] = [
  [/[æø]/, 'DK'], [/å/, 'DK SE FI'], [/ß/, 'DE AT CH LI LU'],
  [/[łńśź]/, 'PL'], [/ż/, 'PL MT'], [/[ąę]/, 'PL LT'], [/[őű]/, 'HU'],
  [/[řůě]/, 'CZ'], [/[ňťď]/, 'CZ SK'], [/[ľĺŕ]/, 'SK'], [/đ/, 'HR'],
  [/[āēīļņķģ]/, 'LV'], [/[ėįų]/, 'LT'], [/ū/, 'LV LT'], [/õ/, 'EE PT'], [/ã/, 'PT BR'], [/ñ/, 'ES AR'],
  [/[ġħċ]/, 'MT'], [/[șțşţă]/, 'RO'],
];

/** Any distinctive letter at all (most queries have none: one test instead of one per letter group). */
const ANY_LETTER = new RegExp(LETTERS.map(([re]) => re.source).join('|'));

/** Countries whose languages write every distinctive letter of the text (empty: no hint). */
export function letterCountries(raw: string): Set<string> {
  const t = raw.toLowerCase();
  if (!ANY_LETTER.test(t)) return new Set();
  let out: Set<string> | undefined;
  for (const [re, cs] of LETTERS) {
    if (!re.test(t)) continue;
    const here = new Set(cs.split(' '));
    out = out ? new Set([...out].filter((c) => here.has(c))) : here;
  }
  return out ?? new Set();
}

/**
 * The countries the query's street words (their evidence `weights`) and its distinctive `letters`
 * (letterCountries) point to: both where they agree; where they disagree, the letters (a name's
 * own spelling outweighs a type word borrowed across languages, like "Boulevard").
 */
export function hintOf(weights: ReadonlyMap<string, number>, letters: ReadonlySet<string>, min = HINT_MIN): Set<string> {
  const words = hintedCountries(weights, min);
  if (letters.size === 0) return words;
  if (words.size === 0) return new Set(letters);
  const both = new Set([...words].filter((c) => letters.has(c)));
  return both.size > 0 ? both : new Set(letters);
}
