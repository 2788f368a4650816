/**
 * The fallback when no street answers the query: the most specific place that the query itself
 * NAMES and the index holds (postcode area, then city), never a place that merely shares a word
 * with it. A place is named when every word of its name is in the query (or the whole city field
 * is one of its other names); a postcode is named when the query holds it in a shape of its
 * country, found by its longest known prefix where the data knows only part of the code.
 *
 * A postcode keeps the answer in its country: the given country, else the one country where the
 * postcode exists together with the named place, else the one country whose shape it has. When
 * the postcode and the city name different places, the postcode wins (the street, when one was
 * found, decided earlier) and the disagreement lowers the relevance.
 *
 * Without a given country, the query's other words choose among countries: the street's type
 * words and its letters (`Triq`, `ø`; street-countries.ts). They may choose among the countries
 * of a bare postcode or of a shared name, but never take the answer where no named place is, and
 * a place named only weakly (typo, other name, first words) in a country they rule out is not
 * named. A name that several countries share, with nothing deciding, gives no answer.
 */
import { DOC_PLACE, DOC_POSTCODE, PLACE_ROLES, ROLE_CITY, ROLE_ZIP } from '../index/format.ts';
import type { AddressIndex } from '../index/index.ts';
import type { TokenMatch } from './candidates.ts';
import { nameWords, type NameWords } from './name-words.ts';
import { foldTokens } from './normalize.ts';
import type { ParsedQuery } from './parse.ts';
import { PlaceEntries } from './place-entries.ts';
import { placeDocs } from './place-docs.ts';
import { normalisePostcode, postcodeCountries, postcodeKeysToTry } from './postcodes.ts';
import { QueryBits, popcount } from './query-bits.ts';
import type { Scored } from './score.ts';
import { countryHint, isStreetWord } from './street-countries.ts';

/** A postcode and a place farther apart than this do not agree (unless the postcode names the place). */
const AGREE_METERS = 25_000;
/** Destinations without postcode data (GeoNames publishes none for Greece). */
const NO_POSTCODE_DATA = new Set(['GR']);
/** Named places compared with the postcodes (the best by betterPlace). */
const MAX_PLACES = 48;

interface PcHit { doc: number; country: string; token: number; raw: string; exact: boolean; shapeCountries: readonly string[] }
interface PlaceHit { doc: number; country: string; tokens: number[]; quality: number; full: boolean; pos: number; seg: number; typo: boolean; weak: boolean }

export interface NamedPlace extends Scored {
  /** `zip` to show: the query's postcode normalised for the country, or the stored one. */
  zipText: string;
  /** `city` to show (the named place's name when the postcode area agrees with it). */
  cityText: string;
  /** Relevance points taken off (postcode and city disagree, prefix-only postcode). */
  penalty: number;
  /** A postal place named without its code: its `zip` is not shown (the place may have several). */
  placeOnly: boolean;
}

/** This thread's table of the place documents one lookup's words hit (emptied per lookup). */
const entries = new PlaceEntries();

/** Country codes by string id, per index: a few dozen strings, decoded once instead of per document. */
const countryNames = new WeakMap<AddressIndex, CountryNames>();
/** More distinct country strings than this (an index written otherwise) empties the map. */
const MAX_COUNTRY_NAMES = 1024;

class CountryNames {
  private readonly byId = new Map<number, string>();
  private readonly index: AddressIndex;
  constructor(index: AddressIndex) { this.index = index; }

  /** The country code of document `doc`. */
  of(doc: number): string {
    const id = this.index.c.docCountry[doc]!;
    let s = this.byId.get(id);
    if (s === undefined) {
      if (this.byId.size >= MAX_COUNTRY_NAMES) this.byId.clear();
      this.byId.set(id, (s = this.index.str(id)));
    }
    return s;
  }
}

function countriesOf(index: AddressIndex): CountryNames {
  let m = countryNames.get(index);
  if (!m) countryNames.set(index, (m = new CountryNames(index)));
  return m;
}

/** The folded words of a document's city name, decoded (the path for names not held by name-words.ts). */
function foldedName(index: AddressIndex, doc: number): string[] {
  return foldTokens(index.str(index.c.docCity[doc]!));
}

/** Postcode documents the query names. */
function postcodeHits(index: AddressIndex, q: ParsedQuery, streetPart: readonly boolean[]): PcHit[] {
  const c = index.c;
  const names = countriesOf(index);
  const out: PcHit[] = [];
  const cands: { key: string; raw: string; token: number; countries: readonly string[] }[] = [];
  q.zipCands.forEach((z) => cands.push({ key: z.key, raw: z.raw, token: q.tokens.findIndex((t) => t.text === z.key), countries: z.countries }));
  for (const cand of cands) {
    if (houseNumberOfStreet(q, cand.token, streetPart)) continue;
    const shape = cand.countries.length > 0 ? cand.countries : postcodeCountries(cand.raw);
    const countries = q.country ? [q.country] : shape;
    const found = new Set<string>();
    // the exact key in any country; prefixes only in the countries whose shape the code has
    const tries: [string, boolean, readonly string[]][] = [[cand.key, true, countries]];
    for (const cc of countries) for (const k of postcodeKeysToTry(cc, cand.key).slice(1)) tries.push([k, false, [cc]]);
    for (const [k, exact, ccs] of tries) {
      const tok = index.tokenId(k);
      if (tok < 0) continue;
      for (const d of placeDocs(index, tok)) {
        if (c.docKind[d] !== DOC_POSTCODE) continue;
        const cc = names.of(d);
        if (ccs.length > 0 && !ccs.includes(cc)) continue;
        if (found.has(cc)) continue; // a longer key already found this country
        out.push({ doc: d, country: cc, token: cand.token, raw: cand.raw, exact, shapeCountries: shape });
      }
      for (const h of out) found.add(h.country);
    }
  }
  return out;
}

/** Query tokens that may name a place (not street words of a structured query, not numbers). */
function placeToken(q: ParsedQuery, i: number, streetPart: readonly boolean[]): boolean {
  const t = q.tokens[i]!;
  return (t.field === 'city' || t.field === 'district' || t.field === 'free') && !/^\d/.test(t.text) && !streetPart[i];
}

/**
 * Free text in several parts ("Triq il-Wilga 58a, Paceville"): the words of the parts that hold
 * a street type word (else of the first part with a house number, or a number after words in the
 * first part) are the street's, and do not name a place when another part has a word that may ("Wilga" is a town in
 * Poland, "Street" one in England, "an der" of "Krems an der Donau"). Per token: true when the
 * token is such a street word.
 */
function streetPartTokens(q: ParsedQuery): boolean[] {
  const toks = q.tokens;
  const none = toks.map(() => false);
  if (!toks.some((t) => t.field === 'free' && (t.seg ?? 0) > 0)) return none;
  const zipKeys = new Set(q.zipCands.map((z) => z.key));
  const streetSegs = new Set<number>();
  let hnSeg = -1;
  toks.forEach((t, i) => {
    if (t.field !== 'free' || t.seg === undefined) return;
    const afterWord = i > 0 && toks[i - 1]!.seg === t.seg && !/^\d/.test(toks[i - 1]!.text);
    const hn = t.hnLike && (!zipKeys.has(t.text) || (t.seg === 0 && afterWord));
    if (isStreetWord(t.text)) streetSegs.add(t.seg);
    else if (hn && hnSeg < 0) hnSeg = t.seg;
  });
  // without a type word, the first part with a house number is the street's
  if (streetSegs.size === 0 && hnSeg >= 0) streetSegs.add(hnSeg);
  const placeElsewhere = toks.some((t) => t.field === 'free' && t.seg !== undefined && !streetSegs.has(t.seg) && t.text.length >= 3 && !/^\d/.test(t.text));
  if (streetSegs.size === 0 || !placeElsewhere) return none;
  return toks.map((t) => t.field === 'free' && t.seg !== undefined && streetSegs.has(t.seg));
}

/**
 * A number of the street's part that comes after its words and is that part's only number is the
 * house number ("Rue de la Poujade 6247, Saint-Geniez-d'Olt"), not a postcode.
 */
function houseNumberOfStreet(q: ParsedQuery, i: number, streetPart: readonly boolean[]): boolean {
  if (i < 0 || !streetPart[i]) return false;
  const t = q.tokens[i]!;
  if (i === 0 || q.tokens[i - 1]!.seg !== t.seg || /^\d/.test(q.tokens[i - 1]!.text)) return false;
  return q.tokens.filter((u) => u.seg === t.seg && /^\d/.test(u.text)).length === 1;
}

/**
 * Places the query names: every word of the display name in the query; the words typed are the
 * first words of the name ("Krems" for "Krems an der Donau", counted lower); or the whole city
 * field is one of its other names (Copenhagen → København). Postal place names (postcode
 * documents) count as places too ("København V"). Typo neighbours name a place only from the
 * city field: in free text they would let a street word ("Menqa") name a town abroad.
 */
function placeHits(index: AddressIndex, q: ParsedQuery, matches: TokenMatch[][], streetPart: readonly boolean[]): PlaceHit[] {
  // the words of three letters or more first: a place named only by short words ("v", "de")
  // is not looked at, and those words only add to places a real word found
  const order = q.tokens.map((_, i) => i).sort((a, b) => Number(q.tokens[a]!.text.length < 3) - Number(q.tokens[b]!.text.length < 3));
  const countries = countriesOf(index);
  collectPlaceEntries(index, q, matches, streetPart, order, countries);
  let cityMask = 0;
  q.tokens.forEach((t, i) => { if (t.field === 'city') cityMask |= 1 << i; });
  const cityCount = popcount(cityMask);
  // which query tokens stand for each index token: as typed, expanded, or a typo neighbour
  const forms = new QueryBits(matches);
  const names = nameWords(index);
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
    const full = how === FULL, alt = how === ALT;
    const tokens: number[] = [];
    let seg = Infinity;
    for (const i of order) {
      if ((toks & (1 << i)) === 0) continue;
      tokens.push(i);
      seg = Math.min(seg, q.tokens[i]!.seg ?? 0);
    }
    out.push({
      doc: d, country: countries.of(d), tokens,
      quality: (full ? 1 : alt ? 0.9 : 0.8) * (entries.quality[e]! / n),
      full, pos: 31 - Math.clz32(toks), seg, typo: entries.exact[e] === 0, weak: entries.exact[e] === 0 || !full,
    });
  }
  return out;
}

/**
 * Fills `entries` with the place and postcode documents the place words hit: per document the
 * tokens (in `order`), the sum of their qualities (the first match of each token that hits it,
 * added in `order`), and whether a match was not a typo. Only a strong word (three letters or
 * more) adds a document; the query's country, when given, bounds them.
 */
function collectPlaceEntries(index: AddressIndex, q: ParsedQuery, matches: TokenMatch[][], streetPart: readonly boolean[], order: number[], countries: CountryNames): void {
  const kind = index.c.docKind;
  entries.clear();
  for (const i of order) {
    if (!placeToken(q, i, streetPart)) continue;
    const free = q.tokens[i]!.field === 'free';
    const strong = q.tokens[i]!.text.length >= 3;
    const bit = 1 << i;
    for (const m of matches[i]!) {
      if (free && m.kind === 'typo') continue;
      const docs = placeDocs(index, m.tok);
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
  }
}

const NOT_NAMED = 0, FULL = 1, PREFIX = 2, ALT = 3;

/**
 * How the query tokens `toks` (n of them) name document `d`: every word of its name typed (FULL);
 * its first words, the first a real word, and only those ("Krems", "Frankfurt": PREFIX); or, for
 * a place, the whole city field is one of its other names (ALT; without a city field, one word of
 * five letters or more naming a one-word place).
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
  } else {
    // a name not held as token ids: its text against the texts the tokens stand for
    const name = foldedName(index, d);
    const typed = typedForms(index, q, matches, toks);
    len = name.length;
    firstLen = name[0]?.length ?? 0;
    while (lead < len && typed.has(name[lead]!)) lead++;
  }
  if (len > 0 && lead === len) return FULL;
  if (lead >= 1 && firstLen >= 4 && lead === n) return PREFIX;
  if (index.c.docKind[d] !== DOC_PLACE) return NOT_NAMED;
  const alt = cityCount > 0 ? toks === cityMask : n === 1 && q.tokens[31 - Math.clz32(toks)]!.text.length >= 5 && len === 1;
  return alt ? ALT : NOT_NAMED;
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

function betterPlace(index: AddressIndex, a: PlaceHit, b: PlaceHit, hint?: Set<string>): boolean {
  // free text: a place named in a later part ("…, Bindlach") over street words of the first part
  if (a.seg !== b.seg) return a.seg > b.seg;
  if (a.tokens.length !== b.tokens.length) return a.tokens.length > b.tokens.length;
  if (a.full !== b.full) return a.full;
  if (Math.abs(a.quality - b.quality) > 1e-9) return a.quality > b.quality;
  // the same name in two countries: the one the street's type word points to (Triq → MT)
  if (hint && hint.size > 0 && a.country !== b.country && hint.has(a.country) !== hint.has(b.country)) return hint.has(a.country);
  const ka = index.c.docKind[a.doc], kb = index.c.docKind[b.doc];
  if (ka !== kb) return ka === DOC_PLACE;
  const ra = index.c.docRank[a.doc]!, rb = index.c.docRank[b.doc]!;
  // a much larger place wins; between places of similar size, the one named later in the text
  if (ra > rb * 20 || rb > ra * 20) return ra > rb;
  if (a.pos !== b.pos) return a.pos > b.pos;
  return ra > rb;
}

/** Another country's place named exactly as well as `best`, which neither hint nor size prefers. */
function sharedAbroad(index: AddressIndex, best: PlaceHit, places: readonly PlaceHit[], hint: Set<string>): boolean {
  const rank = index.c.docRank;
  for (const p of places) {
    if (p.country === best.country || p.seg !== best.seg || p.tokens.length !== best.tokens.length || p.full !== best.full) continue;
    if (Math.abs(p.quality - best.quality) > 1e-9) continue;
    if (hint.size > 0 && hint.has(p.country) !== hint.has(best.country)) continue;
    if (rank[best.doc]! > rank[p.doc]! * 20) continue;
    return true;
  }
  return false;
}

/**
 * Query tokens that name the place of a postcode document: all words of its place name, or its
 * first words (the first a real word), not a word it merely shares ("de" of "Puente De Guayar").
 */
function pcPlaceTokens(index: AddressIndex, q: ParsedQuery, matches: TokenMatch[][], doc: number, streetPart: readonly boolean[]): number[] {
  const hit: number[] = [];
  // the index tokens by which they name it (each query token's first match in a city role)
  const typed: number[] = [];
  for (let i = 0; i < q.tokens.length; i++) {
    if (!placeToken(q, i, streetPart)) continue;
    for (const m of matches[i]!) {
      if (q.tokens[i]!.field === 'free' && m.kind === 'typo') continue;
      if (index.docHolds(doc, m.tok, PLACE_ROLES)) { hit.push(i); typed.push(m.tok); break; }
    }
  }
  if (hit.length === 0) return hit;
  const names = nameWords(index);
  const slot = names.slot(doc);
  let len: number, lead = 0, firstLen: number;
  if (slot >= 0) {
    len = names.count(slot);
    firstLen = names.firstLength(slot);
    const w = names.words, s = names.start(slot);
    while (lead < len && typed.includes(w[s + lead]!)) lead++;
  } else {
    const name = foldedName(index, doc);
    const texts = new Set(typed.map((t) => index.tokenText(t)));
    len = name.length;
    firstLen = name[0]?.length ?? 0;
    while (lead < len && texts.has(name[lead]!)) lead++;
  }
  const named = lead === len || (lead >= 1 && firstLen >= 4);
  return named ? hit : [];
}

function agrees(index: AddressIndex, pc: PcHit, place: PlaceHit, pcTokens: number[]): boolean {
  if (pc.country !== place.country) return false;
  if (place.tokens.every((i) => pcTokens.includes(i))) return true;
  return index.docDistance(pc.doc, place.doc) <= AGREE_METERS;
}

export function resolveNamedPlace(index: AddressIndex, q: ParsedQuery, matches: TokenMatch[][]): NamedPlace | undefined {
  const streetPart = streetPartTokens(q);
  const pcs = postcodeHits(index, q, streetPart);
  const hint0 = countryHint(q.tokens.filter((t) => t.field === 'street' || t.field === 'free').map((t) => t.text), q.rawText);
  // the best-named places only (a common name word can hit hundreds of postal places); a place
  // named only by a typo, another name or its first words, in a country the street words and
  // letters rule out, is not named ("St. Julians" by a typo is not Juliana, ES, beside "Triq")
  const places = placeHits(index, q, matches, streetPart)
    .filter((p) => !(p.weak && hint0.size > 0 && !hint0.has(p.country)))
    .sort((a, b) => (betterPlace(index, a, b, hint0) ? -1 : betterPlace(index, b, a, hint0) ? 1 : 0))
    .slice(0, MAX_PLACES);
  const c = index.c;
  const make = (doc: number, explainedTokens: [number, number][], zipText: string, cityText: string, penalty: number, placeOnly = false): NamedPlace => {
    const n = q.tokens.length;
    const explained = new Float64Array(n);
    const roles = new Int8Array(n).fill(-1);
    for (const [i, v] of explainedTokens) {
      if (i < 0) continue;
      explained[i] = Math.max(explained[i]!, v);
      roles[i] = q.tokens[i]!.text === zipText.toLowerCase() || /^\d/.test(q.tokens[i]!.text) ? ROLE_ZIP : ROLE_CITY;
    }
    return {
      doc, kind: c.docKind[doc]!, rank: c.docRank[doc]!, explained, roles, nameCoverage: 0, nameTokensMatched: 0, addr: -1, hnQuality: 0, hnToken: -1,
      zipMatched: zipText !== '', zipConflict: false, typo: false, score: 0, zipText, cityText, penalty, placeOnly,
    };
  };

  if (pcs.length > 0) {
    // per postcode document: the named places it agrees with
    let best: { pc: PcHit; place?: PlaceHit; pcTokens: number[]; score: number } | undefined;
    let hintDecided = false;
    const countries = new Set(pcs.map((p) => p.country));
    // free text: a place named in a later part ("…, London NW1 6XE") outranks postal place names
    // made of the street's words ("Baker Street" is also a place of NW1)
    const lastSeg = places.reduce((m, p) => Math.max(m, p.seg), 0);
    // and words in the part that holds a street type word are the street's ("Rue de Verdun")
    const streetSegs = new Set(q.tokens.filter((t) => t.field === 'free' && t.seg !== undefined && isStreetWord(t.text)).map((t) => t.seg!));
    const multiPart = q.tokens.some((t) => (t.seg ?? 0) > 0);
    for (const pc of pcs) {
      const pcTokens = pcPlaceTokens(index, q, matches, pc.doc, streetPart)
        .filter((i) => (q.tokens[i]!.seg ?? 0) >= lastSeg && !(multiPart && streetSegs.has(q.tokens[i]!.seg ?? -1)));
      let place: PlaceHit | undefined;
      for (const pl of places) {
        if (c.docKind[pl.doc] === DOC_POSTCODE && pl.doc !== pc.doc) continue;
        if (agrees(index, pc, pl, pcTokens) && (!place || betterPlace(index, pl, place))) place = pl;
      }
      const named = Math.max(place ? place.tokens.length : 0, pcTokens.length);
      // a country the shape alone implies when nothing else decides
      const score = named * 10 + (pc.exact ? 2 : 0) + (pc.shapeCountries.length === 1 && pc.shapeCountries[0] === pc.country ? 1 : 0);
      if (!best || score > best.score) best = { pc, place, pcTokens, score };
    }
    let b = best!;
    // a code in several countries and nothing named: the street's type word may point to one
    if (!q.country && b.score < 10 && countries.size > 1) {
      const hinted = pcs.filter((p) => hint0.has(p.country));
      if (hinted.length > 0 && new Set(hinted.map((p) => p.country)).size === 1) {
        b = { pc: hinted[0]!, place: undefined, pcTokens: [], score: 1 };
        hintDecided = true;
      }
    }
    // without a given country, a postcode that exists only in a country where the named city is
    // not (LI addresses written with a Swiss code) does not take the answer abroad
    const cityAbroad = places.some((p) => p.full && !p.typo && p.country !== b.pc.country);
    // nor does a type word's guess among the postcode's countries when every place named is abroad
    const placeAbroad = places.length > 0 && places.every((p) => p.country !== b.pc.country);
    // or when the query names a city that is nowhere ("Merchants Street 21, 1010 Vallettaa")
    const cityUnfound = places.length === 0 && q.tokens.some((t, i) => t.text.length >= 4 && placeToken(q, i, streetPart)
      && (t.field === 'city' || (t.field === 'free' && (t.seg ?? 0) > 0)));
    const decided = q.country !== '' || b.score >= 10 || (hintDecided && !placeAbroad && !cityUnfound) || (!cityAbroad && (countries.size === 1
      || (b.pc.shapeCountries.length === 1 && b.pc.shapeCountries[0] === b.pc.country)));
    if (decided) {
      const { pc, place, pcTokens } = b;
      const zipText = normalisePostcode(pc.country, pc.raw) || index.str(c.docPostcode[pc.doc]!);
      const tokens: [number, number][] = [[pc.token, pc.exact ? 1 : 0.9]];
      for (const i of pcTokens) tokens.push([i, 1]);
      if (place) for (const i of place.tokens) tokens.push([i, place.quality]);
      // a city was named that is not this postcode's: the postcode wins, the relevance says so
      const otherCity = places.some((p) => p.full && c.docKind[p.doc] === DOC_PLACE && !(place && p.doc === place.doc) && !p.tokens.every((i) => pcTokens.includes(i)));
      const cityNamedElsewhere = !place && pcTokens.length === 0 && (places.some((p) => c.docKind[p.doc] === DOC_PLACE) || q.tokens.some((t) => t.field === 'city'));
      const penalty = (otherCity && !place) || cityNamedElsewhere ? 20 : 0;
      // the name as the postcode data writes it (local: Warszawa, Lisboa) when it is the one typed
      const pcCity = index.str(c.docCity[pc.doc]!);
      const typed = new Set(pcTokens.map((i) => q.tokens[i]!.text));
      const pcCityTyped = pcTokens.length > 0 && foldTokens(pcCity).every((w) => typed.has(w));
      const cityText = pcCityTyped || !place ? pcCity : index.str(c.docCity[place.doc]!);
      return make(pc.doc, tokens, zipText, cityText, penalty);
    }
    // the postcode exists in several countries and nothing names one: it cannot decide
  }
  if (places.length === 0) return undefined;
  const hint = hint0;
  let best = places[0]!;
  for (const p of places) if (betterPlace(index, p, best, hint)) best = p;
  // the same name in another country, as well named, and nothing in the query decides: no answer
  // rather than a guess abroad ("Velaines" is in FR and BE; a much larger place still wins)
  if (!q.country && sharedAbroad(index, best, places, hint)) return undefined;
  const tokens: [number, number][] = best.tokens.map((i) => [i, best.quality]);
  // GR: GeoNames has no Greek postcodes. A code of the Greek shape is echoed, normalised, with
  // the city it came with; it counts half, since nothing could check it.
  let zipText = '';
  const z = q.zipCands.find((x) => NO_POSTCODE_DATA.has(best.country) && x.countries.includes(best.country));
  if (z) {
    zipText = normalisePostcode(best.country, z.raw);
    if (zipText) tokens.push([q.tokens.findIndex((t) => t.text === z.key), 0.5]);
  }
  // a postal place named without its code: the place, not one of its codes
  return make(best.doc, tokens, zipText, index.str(c.docCity[best.doc]!), 0, c.docKind[best.doc] === DOC_POSTCODE);
}
