/**
 * Stage 9 (named place, see ../index.ts): the country from the query's own evidence when it names
 * none. Weak evidence (street-type words, letters: street-countries.ts) chooses among countries;
 * strong evidence rules countries out and is never contradicted: a postcode written in a shape
 * only some countries use (`75116`, `00-640`, `1017 GB`, `NW1 6XE`) keeps the answer in those
 * countries, narrowed by the street words where they agree (`Rue …, 75116` is French-speaking and
 * five-digit: never Australia, whose codes have four).
 */
import type { ParsedQuery } from '../parse/parse.ts';
import { withPartialShapes } from '../parse/postcodes.ts';
import { hintOf, hintedCountries, letterCountries, streetWordEvidence } from './street-countries.ts';
import { houseNumberOfStreet, streetPartTokens } from './street-part.ts';

/** The query's weak evidence, read once per query: its street words, their weights, its letters. */
interface WordEvidence {
  /** The street and free-text tokens, their words and, per word, whether it starts its part or field. */
  tokens: ParsedQuery['tokens'];
  texts: string[];
  firsts: boolean[];
  /** P(country) from the street-type words (street-countries.ts; empty: none). */
  weights: Map<string, number>;
  /** Countries whose languages write the query's distinctive letters (empty: none). */
  letters: Set<string>;
  /** The hints below, once asked (read only: one shared empty set when the query has no evidence). */
  hint?: ReadonlySet<string>;
  possible?: ReadonlySet<string>;
  wordHint?: ReadonlySet<string>;
  /** allowedCountries with `hint`, once asked. */
  allowed?: ReadonlySet<string>;
}

/**
 * The evidence of the last query asked about: a thread answers one query at a time and its stages
 * ask about that one, so one slot does what a WeakMap did without a map entry per query (a WeakMap
 * set per lookup cost more than the evidence it kept).
 */
let lastQuery: ParsedQuery | undefined;
let lastEvidence: WordEvidence | undefined;

function evidenceOf(q: ParsedQuery): WordEvidence {
  if (q === lastQuery) return lastEvidence!;
  const ws = q.tokens.filter((t) => t.field === 'street' || t.field === 'free');
  const texts = ws.map((t) => t.text);
  const e: WordEvidence = {
    tokens: ws,
    texts,
    firsts: ws.map((t, i) => i === 0 || ws[i - 1]!.field !== t.field || ws[i - 1]!.seg !== t.seg),
    weights: streetWordEvidence(texts),
    letters: letterCountries(q.rawText),
  };
  lastQuery = q;
  lastEvidence = e;
  return e;
}

/** The query's street and free-text tokens, their words and, per word, whether it starts its part or field (read only). */
export function streetWordsOf(q: ParsedQuery): { tokens: ParsedQuery['tokens']; texts: string[]; firsts: boolean[] } {
  return evidenceOf(q);
}

/** The countries the street words and letters point to (weak evidence; empty: none; computed once per query). */
export function queryCountryHint(q: ParsedQuery): ReadonlySet<string> {
  const e = evidenceOf(q);
  return (e.hint ??= noEvidence(e) ? NO_HINT : hintOf(e.weights, e.letters));
}

/** Every country the street words and letters leave possible: a word's least likely countries too (empty: none said; computed once per query). */
export function queryCountriesPossible(q: ParsedQuery): ReadonlySet<string> {
  const e = evidenceOf(q);
  return (e.possible ??= noEvidence(e) ? NO_HINT : hintOf(e.weights, e.letters, 0));
}

/** The countries the street words alone point to, not the letters (empty: none; computed once per query). */
export function queryWordHint(q: ParsedQuery): ReadonlySet<string> {
  const e = evidenceOf(q);
  // without distinctive letters the query's hint is this very set (hintOf): shared, not made twice
  return (e.wordHint ??= noEvidence(e) ? NO_HINT : e.letters.size === 0 && e.hint ? e.hint : hintedCountries(e.weights));
}

/** No street-type word and no distinctive letter (a third of the lookups: a city, a postcode): every hint is empty. */
function noEvidence(e: WordEvidence): boolean {
  return e.weights.size === 0 && e.letters.size === 0;
}

const NO_HINT: ReadonlySet<string> = new Set();

/** P(country) from the query's street-type words (street-countries.ts; empty: none; read only). */
export function streetWordWeights(q: ParsedQuery): ReadonlyMap<string, number> {
  return evidenceOf(q).weights;
}

const NO_CONSTRAINT: ReadonlySet<string> = new Set();

/** How much more likely the first country must be than the second for the words to choose it. */
const DOMINANT_RATIO = 2;

/**
 * The one country of `countries` the evidence chooses: the only one, or the one whose word
 * weight is DOMINANT_RATIO times the next (`…platz` with `3500`: Austria over Belgium); none
 * when they are alike (`Calle` is Spanish and Italian to the sources).
 */
export function dominantCountry(countries: ReadonlySet<string>, weights: ReadonlyMap<string, number>): string | undefined {
  if (countries.size <= 1) return countries.values().next().value;
  const ranked = [...countries].map((c) => [c, weights.get(c) ?? 0] as const).sort((a, b) => b[1] - a[1]);
  return ranked[0]![1] >= DOMINANT_RATIO * ranked[1]![1] && ranked[0]![1] > 0 ? ranked[0]![0] : undefined;
}

/**
 * A postcode candidate is strong evidence when its shape could be neither a house number nor
 * part of another country's code: five characters or more, or letters, or written in parts
 * (`00-640`). Four digits are not (`1010` is also how people write Malta's `VLT 1010`).
 */
function strongPostcode(raw: string, key: string): boolean {
  return key.length >= 5 || /[a-z]/i.test(key) || /[\s-]/.test(raw.trim());
}

function hasShapeOfStrength(z: ParsedQuery['zipCands'][number]): boolean {
  return z.countries.length > 0 && !z.partial && strongPostcode(z.raw, z.key);
}

/** The query has a postcode strong alone (its shape rules countries out without the words). */
export function hasStrongPostcode(q: ParsedQuery): boolean {
  return q.zipCands.some(hasShapeOfStrength);
}

/**
 * The countries the query's strong evidence allows (empty: no constraint): a given country
 * constrains elsewhere; here, the shapes of its strong postcodes, narrowed to the countries the
 * street words and letters (`hint`) point to when some of them agree.
 */
export function allowedCountries(q: ParsedQuery, hint: ReadonlySet<string>): ReadonlySet<string> {
  if (q.country || q.zipCands.length === 0 || !hasStrongPostcode(q)) return NO_CONSTRAINT;
  // the query's own hint (every caller's): worked out once per query
  const e = evidenceOf(q);
  if (hint === e.hint) return (e.allowed ??= allowedBy(q, hint));
  return allowedBy(q, hint);
}

function allowedBy(q: ParsedQuery, hint: ReadonlySet<string>): ReadonlySet<string> {
  const shape = new Set<string>();
  for (const z of q.zipCands) if (hasShapeOfStrength(z)) for (const c of z.countries) shape.add(c);
  if (shape.size === 0) return shape;
  const both = new Set([...shape].filter((c) => hint.has(c)));
  return both.size > 0 ? both : shape;
}

/**
 * The countries where a postcode too short to be strong alone (`4011`) may be looked up (empty: no
 * constraint). Written apart from the street (not its house number), it is a code of a country of
 * its shape (with the partial ones: NL's four digits) that the street words and letters leave
 * possible ("Kerkstraat 5, 4011" is NL or BE, never Australia). It bounds the postcodes only: a
 * place named in full elsewhere in the query still answers ("…street, valletta vlt 1426").
 */
export function weakPostcodeCountries(q: ParsedQuery): ReadonlySet<string> {
  if (q.country || q.zipCands.length === 0 || hasStrongPostcode(q)) return NO_CONSTRAINT;
  const possible = queryCountriesPossible(q);
  if (possible.size === 0) return NO_CONSTRAINT;
  const streetPart = streetPartTokens(q);
  const both = new Set<string>();
  for (const z of q.zipCands) {
    const i = q.tokens.findIndex((t) => t.text === z.key);
    if (i < 0 || streetPart[i] || houseNumberOfStreet(q, i, streetPart) || !postcodeApart(q, i)) continue;
    for (const c of withPartialShapes(z.key, z.countries, possible)) if (possible.has(c)) both.add(c);
  }
  return both;
}

/** The token is written apart from the street: in a later part than the first, or a field of its own. */
function postcodeApart(q: ParsedQuery, i: number): boolean {
  const t = q.tokens[i]!;
  return t.field === 'zip' || (t.field === 'free' && (t.seg ?? 0) > 0);
}
