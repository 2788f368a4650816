/**
 * Stage 9 (named place, see ../index.ts): the places the query names (every word of the name
 * typed, its first words, or one of its other names); which of them it means is place-order.ts's.
 */
import { DOC_PLACE, DOC_POSTCODE, NAMES_RS, NAMES_US } from '../../index/format.ts';
import type { AddressIndex } from '../../index/index.ts';
import { QueryBits, popcount } from '../match/query-bits.ts';
import type { TokenMatch } from '../match/token-match.ts';
import type { ParsedQuery } from '../parse/parse.ts';
import { countriesOf, type CountryNames } from './country-names.ts';
import { CITY_WORD, foldedName, nameWords, type NameWords } from './name-words.ts';
import { placeDocs } from './place-docs.ts';
import { PlaceEntries } from './place-entries.ts';
import { namesState } from './state-table.ts';
import { placeToken } from './street-part.ts';
import { foldText, foldTokens } from '../normalize/normalize.ts';

export interface PlaceHit {
  doc: number; country: string; tokens: number[]; quality: number; full: boolean; pos: number; seg: number; typo: boolean; weak: boolean;
  /** Named by one of its other names (an exonym, an alternate name), not its own. */
  alt: boolean;
  /**
   * The query says more than this place's name, which may be a reason for it: other words (a
   * street, a region), a house number, a postcode of its country's shape, its state or county.
   */
  reason: boolean;
  /** The query's state or county field names this place's state or county: the place the query means among homonyms. */
  inState: boolean;
  /**
   * The query's diacritics: 1 it writes marks on this place's words and the place's name carries
   * them as typed (`Türi`), -1 it writes marks the name does not have as typed (`Turi` for `Türi`), 0
   * no marks on these words, or the place was not named in full.
   */
  marks: number;
}

/**
 * A place this many times as important as another (its rank: population, weighed by its seat of
 * government; src/data/build/stages/place-documents.ts) is the one a query that names both means,
 * unless the query's other words point elsewhere.
 */
export const MUCH_MORE_IMPORTANT = 10;

/**
 * What a postal place (a postcode document named by its place, which has no population) named in
 * full weighs against a place named by its first words: a town's rank (place-documents.ts).
 */
export const POSTAL_PLACE_RANK = 10_000;

/** This thread's table of the place documents one lookup's words hit (emptied per lookup). */
const entries = new PlaceEntries();

/**
 * Places the query names: every word of the display name in the query; the words typed are the
 * first words of the name ("Krems" for "Krems an der Donau", counted lower); or the whole city
 * field is one of its other names (Copenhagen → København). Postal place names (postcode
 * documents) count as places too ("København V"). Typo neighbours name a place from the city
 * field; from free text only in the misspelt-place pass, when the query as written answers nothing
 * or only in part (search/misspelt-place.ts): else they would let a street word ("Menqa") name a
 * town abroad.
 */
export function placeHits(index: AddressIndex, q: ParsedQuery, matches: TokenMatch[][], streetPart: readonly boolean[]): PlaceHit[] {
  // the words of three letters or more first: a place named only by short words ("v", "de")
  // is not looked at, and those words only add to places a real word found
  const order = q.tokens.map((_, i) => i).sort((a, b) => Number(q.tokens[a]!.text.length < 3) - Number(q.tokens[b]!.text.length < 3));
  const countries = countriesOf(index);
  const common = collectPlaceEntries(index, q, matches, streetPart, order, countries);
  let cityMask = 0;
  q.tokens.forEach((t, i) => { if (t.field === 'city') cityMask |= 1 << i; });
  const cityCount = popcount(cityMask);
  // which query tokens stand for each index token: as typed, expanded, or a typo neighbour
  const forms = new QueryBits(matches);
  const names = nameWords(index);
  // the query's spelling, read for the first place named in full (most hits are not)
  let typed: TypedSpelling | undefined | null = null;
  const typedOf = () => (typed === null ? (typed = typedSpelling(q)) : typed);
  const out: PlaceHit[] = [];
  for (let e = 0; e < entries.size; e++) {
    const d = entries.doc[e]!, toks = entries.tokens[e]!;
    const n = popcount(toks);
    // a structured city is named by at least half its words ("København" for "København V"),
    // not by one expanded abbreviation ("St." → the town of Street for "St. Julian's")
    const inCity = popcount(toks & cityMask);
    if (cityCount > 0 && inCity > 0 && inCity * 2 < cityCount) continue;
    const how = namedHow(index, names, q, matches, forms, d, toks, n, cityMask, cityCount);
    if (how === NOT_NAMED) continue;
    // the first word of thousands of names (Saint, San, Monte) names none of them alone
    if (how === PREFIX && (toks & common) === toks) continue;
    const full = how === FULL, alt = how === ALT;
    const tokens: number[] = [];
    let seg = Infinity;
    for (const i of order) {
      if ((toks & (1 << i)) === 0) continue;
      tokens.push(i);
      // (a district's number said so by its word names the city's district from any part: `9e arrondissement, Paris`)
      if (!q.tokens[i]!.district) seg = Math.min(seg, q.tokens[i]!.seg ?? 0);
    }
    if (seg === Infinity) seg = q.tokens[tokens[0]!]!.seg ?? 0;
    const country = countries.of(d);
    const inState = statesNamed(index, q, d);
    out.push({
      doc: d, country, tokens,
      quality: (full ? 1 : alt ? 0.9 : 0.8) * (entries.quality[e]! / n),
      full, pos: 31 - Math.clz32(toks), seg, typo: entries.exact[e] === 0, weak: entries.exact[e] === 0 || !full, alt,
      reason: n < q.tokens.length || q.hnKeys.length > 0 || zipOfCountry(q, country) || inState, inState,
      marks: full ? marksOf(index, q, typedOf(), tokens, d) : 0,
    });
  }
  return out;
}

/**
 * A word that hits more place and postcode documents than this (`saint`: 6,672 in the embedded
 * index, `san`, `santa`, `monte`; `københavn`: 447) begins too many names to name a place by
 * itself: such a place is named only with more of its words (`Saint-Flour`; `Saint-Germain` for
 * the Saint-Germain-… places) or in full. Without the limit, each of those documents became a
 * place hit to weigh and sort, a millisecond and more for a query that names `Saint-…`.
 */
export const COMMON_PLACE_WORD = 1000;

/**
 * Fills `entries` with the place and postcode documents the place words hit: per document the
 * tokens (in `order`), the sum of their qualities (the first match of each token that hits it,
 * added in `order`), and whether a match was not a typo. Only a strong word (three letters or
 * more) adds a document; the query's country, when given, bounds them. Answers the query tokens
 * whose matches hit more than COMMON_PLACE_WORD documents (a mask).
 */
function collectPlaceEntries(index: AddressIndex, q: ParsedQuery, matches: TokenMatch[][], streetPart: readonly boolean[], order: number[], countries: CountryNames): number {
  const kind = index.c.docKind;
  entries.clear();
  let common = 0;
  for (const i of order) {
    if (!placeToken(q, i, streetPart)) continue;
    // (typo neighbours of free text name places only in the misspelt-place pass: search/misspelt-place.ts)
    const noTypoPlaces = q.tokens[i]!.field === 'free' && !q.freeTypoPlaces;
    const strong = q.tokens[i]!.text.length >= 3;
    const bit = 1 << i;
    let hit = 0;
    for (const m of matches[i]!) {
      if (noTypoPlaces && m.kind === 'typo') continue;
      const docs = placeDocs(index, m.tok);
      hit += docs.length;
      const exact = m.kind !== 'typo';
      for (let j = 0; j < docs.length; j++) {
        const d = docs[j]!;
        let e = entries.find(d);
        if (e < 0) {
          if (!strong) continue;
          const k = kind[d];
          if (k !== DOC_PLACE && k !== DOC_POSTCODE) continue;
          if (q.country && countries.of(d) !== q.country) continue;
          e = entries.add(d);
        }
        if (exact) entries.exact[e] = 1;
        if ((entries.tokens[e]! & bit) === 0) { entries.tokens[e]! |= bit; entries.quality[e]! += m.quality; }
      }
    }
    if (hit > COMMON_PLACE_WORD) common |= bit;
  }
  return common >>> 0;
}

/** Words as written (lower case, marks kept); `raw` splits a text into them. */
/** The words of `s` as typed: lower case, marks kept (`münster`). */
export const typedWords = (s: string): string[] => s.normalize('NFC').toLowerCase().split(/[^\p{L}\p{M}\p{N}]+/u).filter(Boolean);

/**
 * The query's words as typed (lower case, marks kept) and the folded tokens of those written with
 * marks (letters outside ASCII); undefined when it writes none.
 */
interface TypedSpelling { words: Set<string>; marked: Set<string>; byName: Map<number, number> }

function typedSpelling(q: ParsedQuery): TypedSpelling | undefined {
  // eslint-disable-next-line no-control-regex
  if (!/[^\u0000-\u007f]/.test(q.rawText)) return undefined;
  const words = new Set(typedWords(q.rawText));
  const marked = new Set<string>();
  // eslint-disable-next-line no-control-regex
  for (const w of words) if (/[^\u0000-\u007f]/.test(w)) for (const t of foldTokens(w)) marked.add(t);
  return { words, marked, byName: new Map() };
}

/** The query has a postcode candidate of country `cc`'s shape. */
function zipOfCountry(q: ParsedQuery, cc: string): boolean {
  for (const z of q.zipCands) if (z.countries.includes(cc)) return true;
  return false;
}

/** PlaceHit.marks of document `d`, named in full by query tokens `tokens`. */
function marksOf(index: AddressIndex, q: ParsedQuery, typed: TypedSpelling | undefined, tokens: readonly number[], d: number): number {
  return typed && tokens.some((i) => typed.marked.has(q.tokens[i]!.text)) ? spelledMarks(index, typed, d) : 0;
}

/** 1 when every word of document `d`'s name is written in the query as the name writes it, marks included, else -1 (per name string, once per query). */
function spelledMarks(index: AddressIndex, typed: TypedSpelling, d: number): number {
  const id = index.c.docCity[d]!;
  let m = typed.byName.get(id);
  if (m === undefined) typed.byName.set(id, (m = typedWords(index.str(id)).every((w) => typed.words.has(w)) ? 1 : -1));
  return m;
}

/**
 * `a` and `b` are named by the same words, one as the query spells them (marks included: `Türi`)
 * and the other only once marks are dropped (Turi, IT): the query's spelling decides between them.
 */
export function otherSpellings(a: PlaceHit, b: PlaceHit): boolean {
  return a.marks * b.marks < 0;
}

/** The query's state or county field names the state or county of document `d`. */
function statesNamed(index: AddressIndex, q: ParsedQuery, d: number): boolean {
  if (q.state.length === 0 && q.county.length === 0) return false;
  const c = index.c, a = c.docAdmin[d]!;
  const held = adminNames(index, a);
  return [...q.state, ...q.county].some((s) => held.includes(s)) || q.state.some((s) => namesState(index, s, index.str(c.admStateCode[a]!)));
}

/** Admin row `a`'s state name, state, state code and county, folded: once per row and thread (a lookup asks per place hit). */
function adminNames(index: AddressIndex, a: number): readonly string[] {
  let rows = adminNameRows.get(index);
  if (!rows) adminNameRows.set(index, (rows = new Map()));
  let held = rows.get(a);
  if (!held) {
    const c = index.c;
    held = [c.admStateName[a]!, c.admState[a]!, c.admStateCode[a]!, c.admCounty[a]!].map((id) => foldText(index.str(id))).filter(Boolean);
    rows.set(a, held);
  }
  return held;
}

const adminNameRows = new WeakMap<AddressIndex, Map<number, readonly string[]>>();

const NOT_NAMED = 0, FULL = 1, PREFIX = 2, ALT = 3;

/**
 * How the query tokens `toks` (n of them) name document `d`: every word of its name typed (FULL);
 * its first words, the first a real word, and only those ("Krems", "Frankfurt": PREFIX); or, for
 * a place, the whole city field is one of its other names (ALT; without a city field, one word of
 * five letters or more naming a one-word place, or the whole query naming it: wholeQuery).
 */
function namedHow(
  index: AddressIndex, names: NameWords, q: ParsedQuery, matches: TokenMatch[][], forms: QueryBits, d: number, toks: number, n: number, cityMask: number, cityCount: number,
): number {
  const slot = names.slot(d);
  let len: number, lead = 0, firstLen: number;
  if (slot >= 0) {
    len = names.count(slot);
    firstLen = names.firstLength(slot);
    const w = names.words, s = names.start(slot);
    while (lead < len && (forms.of(w[s + lead]!) & toks) !== 0) lead++;
    // "Rockhampton City", "Logan City": the designation is no part of the name people write
    if (lead === len - 1 && lead > 0 && w[s + lead] === index.tokenId(CITY_WORD)) return FULL;
  } else {
    // a name not held as token ids: its text against the texts the tokens stand for
    const name = foldedName(index, d);
    const typed = typedForms(index, q, matches, toks);
    len = name.length;
    firstLen = name[0]?.length ?? 0;
    while (lead < len && typed.has(name[lead]!)) lead++;
    if (lead === len - 1 && lead > 0 && name[lead] === CITY_WORD) return FULL;
  }
  if (len > 0 && lead === len) return FULL;
  if (lead >= 1 && firstLen >= 4 && lead === n) return PREFIX;
  if (index.c.docKind[d] !== DOC_PLACE) return NOT_NAMED;
  const alt = cityCount > 0 ? toks === cityMask : (n === 1 && q.tokens[31 - Math.clz32(toks)]!.text.length >= 5 && len === 1) || wholeQuery(index, q, d, toks, n);
  return alt ? ALT : NOT_NAMED;
}

/** Shortest word that names a place by an untagged alternate name (shorter ones are too often another word). */
const MIN_UNTAGGED_ALT = 4;

/**
 * The query's words `toks` (a mask or a list) are, in order, one of document `d`'s language-tagged names (CLDR's
 * exemplar cities: `Rom` is Rome in German and Danish), which a short word may name it by: the
 * source says which language writes it so, unlike GeoNames' untagged alternate names.
 */
export function taggedName(index: AddressIndex, q: ParsedQuery, d: number, toks: number | readonly number[]): boolean {
  const id = index.c.docNames[d]!;
  if (id === 0) return false;
  const has = (i: number) => (typeof toks === 'number' ? (toks & (1 << i)) !== 0 : toks.includes(i));
  const typed = q.tokens.filter((_, i) => has(i)).map((t) => t.text).join(' ');
  for (const part of index.str(id).split(NAMES_RS)) {
    const name = part.slice(part.indexOf(NAMES_US) + 1);
    if (foldTokens(name).join(' ') === typed) return true;
  }
  return false;
}

/**
 * The query is these words and nothing else but a postcode, one of them of four letters or more
 * ("Den Haag", "Prag", "00161 Rome": the postcode then has to agree with the place), or shorter
 * words that are one of the place's language-tagged names (taggedName: `Rom`).
 */
function wholeQuery(index: AddressIndex, q: ParsedQuery, d: number, toks: number, n: number): boolean {
  if (q.hnKeys.length > 0) return false;
  // (asked per place document hit: counted without an array)
  let codes = 0;
  for (const t of q.tokens) if (t.field === 'zip' || isPostcodeCandidate(q, t.text)) codes++;
  if (n !== q.tokens.length - codes) return false;
  let long = false;
  for (let i = 0; i < q.tokens.length; i++) {
    if ((toks & (1 << i)) === 0) continue;
    const t = q.tokens[i]!;
    // an abbreviation is not another name ("Landstr" → landstrasse); umlaut spellings are
    if (t.alts.some((a) => a.length > t.text.length + 2)) return false;
    if (t.text.length >= MIN_UNTAGGED_ALT) long = true;
  }
  if (!long && !taggedName(index, q, d, toks)) return false;
  return !wordsOfItsState(index, q, d, toks);
}

/**
 * The words `toks` are the place's state's code and words of its name: the query names the state
 * twice, not the place by untagged alternate names that append it (GeoNames gives Assis, SP,
 * `Assis Sao Paulo` and `Assis SP`, whose words together named it for `Sao Paulo SP`, at 90). The
 * state's name alone may still name a place by another name (`Jezersko`, the Slovenian
 * municipality's village).
 */
function wordsOfItsState(index: AddressIndex, q: ParsedQuery, d: number, toks: number): boolean {
  const c = index.c;
  const a = c.docAdmin[d]!;
  const code = foldText(index.str(c.admState[a]!));
  const words = new Set(foldTokens(index.str(c.admStateName[a]!)));
  let coded = false;
  for (let i = 0; i < q.tokens.length; i++) {
    if ((toks & (1 << i)) === 0) continue;
    const t = q.tokens[i]!.text;
    if (t === code) coded = true;
    else if (!words.has(t)) return false;
  }
  return coded;
}

/** `text` is one of the query's postcode candidates. */
export function isPostcodeCandidate(q: ParsedQuery, text: string): boolean {
  for (const z of q.zipCands) if (z.key === text) return true;
  return false;
}

/** The texts the query tokens `toks` stand for: as typed, their expansions, the index tokens matched. */
function typedForms(index: AddressIndex, q: ParsedQuery, matches: TokenMatch[][], toks: number): Set<string> {
  const typed = new Set<string>();
  q.tokens.forEach((t, i) => {
    if ((toks & (1 << i)) === 0) return;
    for (const a of t.alts) typed.add(a);
    for (const m of matches[i]!) typed.add(index.tokenText(m.tok));
  });
  return typed;
}
