/**
 * Stage 9 (named place, see ../index.ts): the place the query names, for the fallback
 * (fallback.ts) when no street answers the query: the most specific place that the query itself
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
 * named. A name that several countries share, with nothing deciding, gives no answer; the
 * preferred country (`prefer_country`), when the query names none, decides where they do not.
 * Strong evidence (a postcode's shape, narrowed by the street words: country-evidence.ts) is
 * never contradicted: no postcode and no named place outside the countries it allows is
 * answered, even a place named in full ("Via Marconi 22, 40042" is not Marconi, PT).
 *
 * The answer carries the relevance deductions it earned (../score/deductions.ts).
 */
import { DOC_PLACE, DOC_POSTCODE, ROLE_CITY, ROLE_DISTRICT, ROLE_ZIP } from '../../index/format.ts';
import type { AddressIndex } from '../../index/index.ts';
import type { TokenMatch } from '../match/token-match.ts';
import { foldTokens } from '../normalize/normalize.ts';
import type { ParsedQuery } from '../parse/parse.ts';
import { normalisePostcode } from '../parse/postcodes.ts';
import { perToken, type Scored } from '../score/score.ts';
import { MUCH_MORE_IMPORTANT, otherSpellings, placeHits, taggedName, type PlaceHit } from './place-hits.ts';
import { cityPart } from './city-part.ts';
import { byDepartement } from './departement.ts';
import { otherWordsCountry } from './other-words-country.ts';
import { betterPlace, clearlyMoreImportant, sharedAbroad, sortedPlaces } from './place-order.ts';
import { pcPlaceTokens, postcodeHits, type PcHit } from './postcode-hits.ts';
import { namesakeRank } from './postcode-namesake.ts';
import {
  COUNTRY_PREFERRED, COUNTRY_WEAK_EVIDENCE, HOMONYM_GUESS, HOMONYM_IN_COUNTRY, POSTCODE_CITY_DISAGREE, STATE_NAMED, type Deduction,
} from '../score/deductions.ts';
import { allowedCountries, dominantCountry, queryCountryHint, queryWordHint, weakPostcodeCountries, streetWordsOf, streetWordWeights } from './country-evidence.ts';
import { isStreetWord } from './street-countries.ts';
import { stateNamedInstead } from './state-names.ts';
import { withoutStreetNames } from './street-name.ts';
import { placeToken, streetPartTokens } from './street-part.ts';

/** A postcode and a place farther apart than this do not agree (unless the postcode names the place). */
const AGREE_METERS = 25_000;
/** Destinations without postcode data (GeoNames publishes none for Greece). */
const NO_POSTCODE_DATA = new Set(['GR']);
/** A place named only by a misspelling must explain at least this share of a query that gives no country. */
const MIN_TYPO_SHARE = 0.1;
/** A place this important (rank: population) misspelt as the whole last part of free text is meant. */
const POPULOUS = 100_000;
/** Named places compared with the postcodes (the best by betterPlace). */
const MAX_PLACES = 48;

export interface NamedPlace extends Scored {
  /** `zip` to show: the query's postcode normalised for the country, or the stored one. */
  zipText: string;
  /** `city` to show (the named place's name when the postcode area agrees with it). */
  cityText: string;
  /** Relevance deductions earned (postcode and city disagree, a guess between homonyms, …). */
  deductions: readonly Deduction[];
  /** A postal place named without its code: its `zip` is not shown (the place may have several). */
  placeOnly: boolean;
  /** A state answered (state-answer.ts): the document is its most important place, shown as the state alone (no city, county or district). */
  stateOnly?: boolean;
  /** A city's part answered (city-part.ts): the city's document, whose names show `city`. */
  cityDoc?: number;
  /** … and the part's name, shown as `district`. */
  districtText?: string;
}

function agrees(index: AddressIndex, pc: PcHit, place: PlaceHit, pcTokens: number[]): boolean {
  if (pc.country !== place.country) return false;
  if (place.tokens.every((i) => pcTokens.includes(i))) return true;
  return index.docDistance(pc.doc, place.doc) <= AGREE_METERS;
}

export function resolveNamedPlace(index: AddressIndex, q: ParsedQuery, matches: TokenMatch[][]): NamedPlace | undefined {
  const streetPart = streetPartTokens(q);
  const hint0 = queryCountryHint(q);
  // an exonym is written in its writer's letters, not its place's: only street words rule it out
  const wordHint = queryWordHint(q);
  // strong evidence: no postcode or weakly named place outside the countries a postcode's shape and
  // the street words allow (the index holding the code in a country of another shape: the data knows)
  const allowed0 = allowedCountries(q, hint0);
  const namedHits = placeHits(index, q, matches, streetPart);
  // (a Dutch city named lets a bare four-digit code be its PC4: `1012 Amsterdam`)
  const pcs0 = postcodeHits(index, q, streetPart, q.zipCands.length > 0 ? leadingNamedCountry(index, namedHits, streetPart) : NONE);
  // (the query's allowed set is shared: copied only to add to it)
  let allowed = allowed0;
  for (const p of pcs0) {
    if (allowed0.size === 0 || !p.exact || p.shapeCountries.includes(p.country) || allowed.has(p.country)) continue;
    allowed = new Set(allowed).add(p.country);
  }
  const inAllowed = (cc: string) => allowed.size === 0 || allowed.has(cc);
  const weakPc = weakPostcodeCountries(q);
  const pcs = pcs0.filter((p) => inAllowed(p.country) && (weakPc.size === 0 || weakPc.has(p.country)));
  const narrowedByWords = weakPc.size > 0 && pcs.length < pcs0.length;
  const streetWords = streetWordsOf(q);
  // the best-named places only (a common name word can hit hundreds of postal places); no place in
  // a country a strong postcode's shape (and the street words) rule out, even named in full
  // ("Via Marconi 22, 40042" is not Marconi, PT); a place named only by a typo, another name or
  // its first words, in a country the street words and letters rule out, is not named ("St.
  // Julians" by a typo is not Juliana, ES, beside "Triq"), unless the query gives the country
  // (`Lavla, CA`: the suffix `la` of Finnish street names does not rule Laval out)
  // ("10 rue Saint-Honoré Paris": Saint-Honoré is the street's name, street-name.ts)
  const hits = namedHits
    .filter((p) => inAllowed(p.country) && (!!q.country || !ruledOutWeak(p, p.alt && !p.typo ? wordHint : hint0)) && !namedByTypeWord(q, p, streetWords));
  const sorted = sortedPlaces(index, withoutStreetNames(q, hits, hint0), hint0, wordHint);
  let places = sorted.slice(0, MAX_PLACES);
  const c = index.c;
  const make = (doc: number, explainedTokens: [number, number][], zipText: string, cityText: string, deductions: readonly Deduction[], placeOnly = false): NamedPlace => {
    const n = q.tokens.length;
    const explained = perToken(n, 0);
    const roles = perToken(n, -1);
    for (const [i, v] of explainedTokens) {
      if (i < 0) continue;
      explained[i] = Math.max(explained[i]!, v);
      roles[i] = q.tokens[i]!.text === zipText.toLowerCase() || /^\d/.test(q.tokens[i]!.text) ? ROLE_ZIP : ROLE_CITY;
    }
    return {
      doc, kind: c.docKind[doc]!, rank: c.docRank[doc]!, explained, roles, nameCoverage: 0, nameTokensMatched: 0, addr: -1, hnQuality: 0, hnToken: -1,
      zipMatched: zipText !== '', zipConflict: false, typo: false, score: 0, zipText, cityText, deductions, placeOnly,
    };
  };

  if (pcs.length > 0) {
    // per postcode document: the named places it agrees with
    let best: { pc: PcHit; place?: PlaceHit; pcTokens: number[]; score: number } | undefined;
    let hintDecided = false;
    let preferDecided = false;
    const countries = new Set(pcs.map((p) => p.country));
    // free text: a place named in a later part ("…, London NW1 6XE") outranks postal place names
    // made of the street's words ("Baker Street" is also a place of NW1)
    const lastSeg = places.reduce((m, p) => Math.max(m, p.seg), 0);
    // and words in the part that holds a street type word are the street's ("Rue de Verdun")
    const streetSegs = new Set(q.tokens.filter((t) => t.field === 'free' && t.seg !== undefined && isStreetWord(t.text)).map((t) => t.seg!));
    const multiPart = q.tokens.some((t) => (t.seg ?? 0) > 0);
    // a code's postal place named after the most important place: its main one (postcode-namesake.ts)
    const moreMain = (p: PcHit, than: PcHit) => p.country === than.country && namesakeRank(index, p.doc) > namesakeRank(index, than.doc);
    const mainOf = (list: PcHit[]) => list.reduce((m, p) => (moreMain(p, m) ? p : m));
    for (const pc of pcs) {
      const pcTokens = pcPlaceTokens(index, q, matches, pc.doc, streetPart)
        .filter((i) => (q.tokens[i]!.seg ?? 0) >= lastSeg && !(multiPart && streetSegs.has(q.tokens[i]!.seg ?? -1)));
      let place: PlaceHit | undefined;
      for (const pl of places) {
        if (c.docKind[pl.doc] === DOC_POSTCODE && pl.doc !== pc.doc) continue;
        if (namedByStreetPart(q, pl, pc.token)) continue;
        if (agrees(index, pc, pl, pcTokens) && (!place || betterPlace(index, pl, place))) place = pl;
      }
      const named = Math.max(place ? place.tokens.length : 0, pcTokens.length);
      // a country the shape alone implies when nothing else decides
      const score = named * 10 + (pc.exact ? 2 : 0) + (pc.shapeCountries.length === 1 && pc.shapeCountries[0] === pc.country ? 1 : 0);
      // of documents that tie, the one whose own place the query names (`1140 Wien`: Wien, Penzing,
      // not Mauerbach, whose code it shares); naming none, the code's main place (`48000`: Mende)
      if (!best || score > best.score || (score === best.score && (pcTokens.length > best.pcTokens.length
        || (named === 0 && moreMain(pc, best.pc))))) best = { pc, place, pcTokens, score };
    }
    let b = best!;
    // a code in several countries and nothing named: the street's type word may point to one
    if (!q.country && b.score < 10 && countries.size > 1) {
      const hinted = pcs.filter((p) => hint0.has(p.country));
      const chosen = dominantCountry(new Set(hinted.map((p) => p.country)), streetWordWeights(q));
      if (chosen) {
        b = { pc: mainOf(hinted.filter((p) => p.country === chosen)), place: undefined, pcTokens: [], score: 1 };
        hintDecided = true;
      } else if (q.prefer) {
        // nothing in the query decides: the preferred country, when the code is one of its own
        const pref = (hinted.length > 0 ? hinted : pcs).filter((p) => p.country === q.prefer);
        if (pref.length > 0) { b = { pc: mainOf(pref), place: undefined, pcTokens: [], score: 1 }; preferDecided = true; }
      }
    }
    // without a given country, a postcode that exists only in a country where the named city is
    // not (LI addresses written with a Swiss code) does not take the answer abroad
    // (a place named only by the words of the street's part, before a postcode written apart,
    // is the street's name: the postcode that exists beats that guess, "Mitteldorf 27, 9490")
    const townPlaces = places.filter((p) => !namedByStreetPart(q, p, b.pc.token));
    const cityAbroad = townPlaces.some((p) => p.full && !p.typo && p.country !== b.pc.country);
    // nor does a type word's guess among the postcode's countries when every place named is abroad,
    // or named there only weakly while a city abroad is named in full ("2902 Main Street
    // Vancouver": not 2902 Kambah, AU, for the first word of Vancouver Peninsula, AU)
    const placeAbroad = townPlaces.length > 0 && townPlaces.every((p) => p.country !== b.pc.country || (cityAbroad && p.weak));
    // or when the query names a city that is nowhere ("Merchants Street 21, 1010 Vallettaa")
    const cityUnfound = places.length === 0 && q.tokens.some((t, i) => t.text.length >= 4 && placeToken(q, i, streetPart)
      && (t.field === 'city' || (t.field === 'free' && (t.seg ?? 0) > 0)));
    const decided = q.country !== '' || b.score >= 10 || ((hintDecided || preferDecided) && !placeAbroad && !cityUnfound) || (!cityAbroad && (countries.size === 1
      || (b.pc.shapeCountries.length === 1 && b.pc.shapeCountries[0] === b.pc.country)));
    if (decided) {
      const { pc, place, pcTokens } = b;
      const zipText = normalisePostcode(pc.country, pc.raw) || index.str(c.docPostcode[pc.doc]!);
      const tokens: [number, number][] = [[pc.token, pc.exact ? 1 : 0.9]];
      for (const i of pcTokens) tokens.push([i, 1]);
      if (place) for (const i of place.tokens) tokens.push([i, place.quality]);
      // a city was named that is not this postcode's: the postcode wins, the relevance says so
      const otherCity = townPlaces.some((p) => p.full && c.docKind[p.doc] === DOC_PLACE && !(place && p.doc === place.doc) && !p.tokens.every((i) => pcTokens.includes(i)));
      const cityNamedElsewhere = !place && pcTokens.length === 0 && (townPlaces.some((p) => c.docKind[p.doc] === DOC_PLACE) || q.tokens.some((t) => t.field === 'city'));
      const deductions: Deduction[] = [];
      if ((otherCity && !place) || cityNamedElsewhere) deductions.push(POSTCODE_CITY_DISAGREE);
      // the street words chose the country: among the postcode's countries, or by ruling the others
      // out with a postcode not strong alone ("Kerkstraat 5, 4011": NL, not AU)
      if (hintDecided || (narrowedByWords && b.score < 10)) deductions.push(COUNTRY_WEAK_EVIDENCE);
      else if (preferDecided) deductions.push(COUNTRY_PREFERRED);
      // the name as the postcode data writes it (local: Warszawa, Lisboa) when it is the one typed
      const pcCity = index.str(c.docCity[pc.doc]!);
      const typed = new Set(pcTokens.map((i) => q.tokens[i]!.text));
      const pcCityTyped = pcTokens.length > 0 && foldTokens(pcCity).every((w) => typed.has(w));
      // (a place that agrees only by the words the postcode's own place name shares, far away, is
      // not the postcode's town: "Frankfurt, 60311" is Frankfurt am Main, not Frankfurt (Oder))
      const nearPlace = place && index.docDistance(pc.doc, place.doc) <= AGREE_METERS;
      // (the place's own spelling when it is the same name: `Palma di Montechiaro`, `Valderrábano`,
      // where the postcode data writes `Palma Di Montechiaro`, `Valderrabano`)
      const placeCity = nearPlace ? index.str(c.docCity[place.doc]!) : '';
      const cityText = !nearPlace || (pcCityTyped && foldTokens(placeCity).join(' ') !== foldTokens(pcCity).join(' ')) ? pcCity : placeCity;
      return make(pc.doc, tokens, zipText, cityText, deductions);
    }
    // the postcode exists in several countries and nothing names one: it cannot decide
  }
  // no postcode decided: a place named only by the street's part is no answer in a country where
  // the query's postcode does not exist or that the postcode's shape and the street words rule out
  // (the postcode that exists beats that guess: "Mitteldorf 27, 9490" is not Mitteldorf, AT)
  if (pcs0.length > 0) {
    const pcCountries = new Set(pcs.map((p) => p.country));
    places = places.filter((p) => pcCountries.has(p.country) || !namedByStreetPart(q, p, pcs0[0]!.token));
  }
  if (places.length === 0) return undefined;
  // a French town's département number after it chooses among its homonyms (`Gourdon 46`)
  places = byDepartement(index, q, places);
  // a city's part named with the city: the part, shown as the city's district (city-part.ts)
  const cp = cityPart(index, q, sorted, streetPart);
  if (cp) {
    const tokens: [number, number][] = [...cp.city.tokens.map((i): [number, number] => [i, cp.city.quality]), ...cp.part.tokens.map((i): [number, number] => [i, cp.part.quality])];
    const np = make(cp.part.doc, tokens, '', index.str(c.docCity[cp.city.doc]!), []);
    for (const i of cp.part.tokens) np.roles[i] = ROLE_DISTRICT;
    return { ...np, cityDoc: cp.city.doc, districtText: index.str(c.docCity[cp.part.doc]!) };
  }
  // the best of `places` by the evidence `h` (and `wh`, the street words'), starting from `start`
  const bestBy = (start: PlaceHit, h: ReadonlySet<string>, wh: ReadonlySet<string>) => {
    let b = start;
    for (const p of places) if (betterPlace(index, p, b, h, q.prefer, wh)) b = p;
    return b;
  };
  let hint = hint0;
  let best = bestBy(places[0]!, hint, wordHint);
  // a name shared abroad, and nothing else in the query to decide: the other words may name
  // places in one of the countries only (`Halle Saale`: other-words-country.ts)
  if (!q.country && hint.size === 0 && best.reason && sharedAbroad(index, best, places, hint, q.prefer)) {
    const told = otherWordsCountry(index, q, matches, best, streetPart);
    if (told && places.some((p) => p.country === told && p.tokens.length === best.tokens.length)) {
      hint = new Set([told]);
      best = bestBy(best, hint, hint);
    }
  }
  // the same name in another country, as well named, and nothing in the query decides: no answer
  // rather than a guess abroad ("Rue Sous Châtillon 5, Velaines": Velaines is in FR and BE); a query
  // that is only the name answers the more important place, as a guess the relevance says
  // (HOMONYM_GUESS), and places of equal importance give none
  let guessed = false;
  if (!q.country && sharedAbroad(index, best, places, hint, q.prefer)) {
    if (best.reason || !clearlyMoreImportant(index, best, places, hint)) return undefined;
    guessed = true;
  }
  // without a country, a place named only by a misspelling that explains under a tenth of the
  // query is a coincidence, not an answer ("GwardaMangia Hill 104, Gmangia" is not Grangia, IT),
  // unless the street words or letters point to the place's country and no number of the query
  // has its postcodes' shape (`Simonkatu 20, Heelsinki`: katu, FI; `5423 Oak Street, Vancouvver`;
  // not `Via d'Auxelles 4, 90000 Belfort` → Belforte, IT), or a populous place is misspelt as the
  // whole last part (`Eteläranta 8, Hesinki`)
  const hinted = hint.has(best.country) && !q.zipCands.some((z) => z.countries.includes(best.country));
  if (!q.country && best.typo && (best.tokens.length * best.quality) / q.totalWeight < MIN_TYPO_SHARE && !hinted && !populousLastPart(index, q, best)) return undefined;
  const deductions = placeDeductions(index, q, best, places, hint, guessed);
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
  return make(best.doc, tokens, zipText, index.str(c.docCity[best.doc]!), deductions, c.docKind[best.doc] === DOC_POSTCODE);
}

/**
 * The country of the most important place named in full, by its own name (not a typo, not a
 * first word), outside the street's part, when it is MUCH_MORE_IMPORTANT than every such place of
 * another country (`Amsterdam`, `Groningen`: NL; `Winkel`, a village in five countries: none).
 */
function leadingNamedCountry(index: AddressIndex, hits: readonly PlaceHit[], streetPart: readonly boolean[]): ReadonlySet<string> {
  const rank = index.c.docRank;
  const named = hits.filter((p) => p.full && !p.typo && !p.tokens.some((i) => streetPart[i]));
  if (named.length === 0) return NONE;
  const lead = named.reduce((a, b) => (rank[b.doc]! > rank[a.doc]! ? b : a));
  const clear = named.every((p) => p.country === lead.country || rank[p.doc]! * MUCH_MORE_IMPORTANT < rank[lead.doc]!);
  return clear ? new Set([lead.country]) : NONE;
}
const NONE: ReadonlySet<string> = new Set();

/**
 * The deductions of a named place chosen among `places`: what chose it over a homonym named as
 * well (another place of the same kind, not MUCH_MORE_IMPORTANT times smaller): the street words
 * or letters, the preferred country, or nothing; `guessed`: it was taken abroad over a shared
 * name only for being clearly more important. A misspelt or alternate name is not here: its
 * word's lower quality already pays for it (WEAK_PLACE_NAME).
 */
function placeDeductions(index: AddressIndex, q: ParsedQuery, best: PlaceHit, places: readonly PlaceHit[], hint: ReadonlySet<string>, guessed: boolean): Deduction[] {
  const out: Deduction[] = [];
  const c = index.c;
  let homonym = false, inCountry = false, byHint = false, byPrefer = false;
  for (const p of places) {
    if (p.doc === best.doc || c.docKind[p.doc] !== c.docKind[best.doc] || p.seg !== best.seg || p.tokens.length !== best.tokens.length) continue;
    if (p.full !== best.full || Math.abs(p.quality - best.quality) > 1e-9 || otherSpellings(p, best)) continue;
    if (c.docRank[best.doc]! > c.docRank[p.doc]! * MUCH_MORE_IMPORTANT || (best.inState && !p.inState)) continue;
    if (!q.country && p.country !== best.country && hint.size > 0 && hint.has(best.country) && !hint.has(p.country)) byHint = true;
    else if (!q.country && q.prefer && p.country !== best.country && best.country === q.prefer) byPrefer = true;
    else if (index.docDistance(p.doc, best.doc) > HOMONYM_METERS) {
      // a homonym of the same name in the same country leaves the city and country sure
      if (p.country !== best.country || index.str(c.docCity[p.doc]!) !== index.str(c.docCity[best.doc]!)) homonym = true;
      else inCountry = true;
    }
  }
  // ... unless a place abroad is named too: a place not much smaller, by any of its names, or a
  // postal place (of unknown size) by its own name
  const abroad = () => places.some((p) => p.country !== best.country && (c.docKind[p.doc] === c.docKind[best.doc]
    ? c.docRank[best.doc]! <= c.docRank[p.doc]! * MUCH_MORE_IMPORTANT : p.full));
  if (inCountry && !homonym && abroad()) homonym = true;
  if (homonym) out.push(HOMONYM_GUESS);
  else if (inCountry && !byHint && !byPrefer && !guessed) out.push(HOMONYM_IN_COUNTRY);
  else if (byHint) out.push(COUNTRY_WEAK_EVIDENCE);
  else if (byPrefer) out.push(COUNTRY_PREFERRED);
  if (guessed && !homonym) out.push(HOMONYM_GUESS);
  // the words are a state's name: a city is the answer only as a guess (Île-de-France → Paris)
  const words = [...best.tokens].sort((x, y) => x - y).map((i) => q.tokens[i]!.text).join(' ');
  if (stateNamedInstead(index, words, best.doc, best.full && !best.typo, () => taggedName(index, q, best.doc, best.tokens))) out.push(STATE_NAMED);
  return out;
}

/** A place named weakly (typo, other name, first words) in a country the evidence `hint` leaves out. */
function ruledOutWeak(p: PlaceHit, hint: ReadonlySet<string>): boolean {
  return p.weak && hint.size > 0 && !hint.has(p.country);
}

/**
 * A place named only by street-type words that start their part or field, in a query with more
 * words: the street's type, not a town ("Avenue Range" for "Avenue Foch 75016", "Calle" in Italy
 * for "Calle Mayor 28013").
 */
function namedByTypeWord(q: ParsedQuery, p: PlaceHit, streetWords: ReturnType<typeof streetWordsOf>): boolean {
  if (p.tokens.length >= q.tokens.length) return false;
  const { tokens: street, texts: words, firsts } = streetWords;
  return p.tokens.every((i) => {
    const k = street.indexOf(q.tokens[i]!);
    return k >= 0 && firsts[k]! && isStreetWord(words[k]!);
  });
}

/**
 * A place named only by words of the part that holds the street's house number or type word, in
 * free text whose postcode (token `pcToken`) stands in a later part, or only by words after a
 * street type word and before the postcode in its part: the street's name, not a town
 * ("Mitteldorf 27, 9490", "Bag Søndermarken 9, 2000", "Rue de Verdun 75010").
 */
function namedByStreetPart(q: ParsedQuery, p: PlaceHit, pcToken: number): boolean {
  const pcSeg = q.tokens[pcToken]?.seg;
  if (pcSeg === undefined || p.seg > pcSeg) return false;
  if (!p.tokens.every((i) => q.tokens[i]!.field === 'free' && q.tokens[i]!.seg === p.seg)) return false;
  // in the postcode's own part: the words between a street type word and the postcode ("Rue de Verdun 75010")
  if (p.seg === pcSeg) {
    const first = Math.min(...p.tokens);
    return Math.max(...p.tokens) < pcToken && q.tokens.some((t, i) => i < first && t.seg === p.seg && isStreetWord(t.text));
  }
  return q.tokens.some((t, i) => t.field === 'free' && t.seg === p.seg && i !== pcToken && (t.hnLike || isStreetWord(t.text)));
}

/** Two places of one name closer than this are taken for one (a town and its postal place). */
const HOMONYM_METERS = 10_000;

/** The place is POPULOUS and its words are the whole last part of free text of several parts (`…, Helsinki`). */
function populousLastPart(index: AddressIndex, q: ParsedQuery, best: PlaceHit): boolean {
  if (index.c.docRank[best.doc]! < POPULOUS) return false;
  let last = -1;
  for (const t of q.tokens) if (t.field === 'free' && t.seg !== undefined && t.seg > last) last = t.seg;
  if (last <= 0) return false;
  const inLast = q.tokens.flatMap((t, i) => (t.field === 'free' && t.seg === last ? [i] : []));
  return inLast.length === best.tokens.length && inLast.every((i) => best.tokens.includes(i));
}
