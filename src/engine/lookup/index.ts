/**
 * The address lookup: a pure function over the index. normalise → parse → exact path (a proven
 * answer from the documents holding every word, or all but one) or candidates (the broad search)
 * → score → choose → record (one module per stage). Bad input gives a valid record with empty keys and a low
 * relevance; a defect throws, and the entrance turns it into an error result that is not charged
 * (a record with relevance 0 would be charged as a lookup that found nothing).
 */
import type { SearchRequest } from '../../contract/requests.ts';
import type { SearchRecord } from '../../contract/records.ts';
import { DOC_STREET, ROLE_ZIP } from '../index/format.ts';
import type { AddressIndex } from '../index/index.ts';
import { candidateDocs, exactMatches, narrowsCandidates, postingsOfMatches, strongTokens, typoMatches, type TokenMatch } from './candidates.ts';
import { chooseAmong, placeMatched } from './choose.ts';
import { exactChoice, freeTextPostcodeToken, oneWordDroppedChoice } from './exact-path.ts';
import { resolveNamedPlace, type NamedPlace } from './named-place.ts';
import { foldTokens } from './normalize.ts';
import { parseRequest, type ParsedQuery } from './parse.ts';
import { shareAny } from './sorted-lists.ts';
import { buildRecord, type Choice } from './record.ts';
import { distinctiveStreetWords } from './street-words.ts';
import { bindingZipToken, postcodeAgrees, type Scored } from './score.ts';

export type { AddressIndex };

export function lookup(index: AddressIndex, req: SearchRequest): SearchRecord {
  const q = parseRequest(req);
  if (q.tokens.length === 0) return buildRecord(index, q, { best: undefined, ambiguous: false });
  const matches = exactMatches(index, q);
  // exact path: the documents holding every word; taken when no other document could score
  // as high (exact-path.ts)
  const exact = exactChoice(index, q, matches);
  if (exact) return buildRecord(index, q, exact);
  // typo tolerance only for words that nothing explains: first the words the index does not
  // hold at all (no search can explain them), then those the best answer left unexplained
  const expanded = new Set<number>();
  const typos = addTypoMatches(index, q, matches, typoWords(q, (i) => matches[i]!.length === 0), expanded);
  let choice = bestChoice(index, q, matches, typos.length > 0, true);
  const missing = typoWords(q, (i) => !expanded.has(i) && unexplained(index, q, matches, choice, i));
  const added = addTypoMatches(index, q, matches, missing, expanded);
  if (added.length > 0 && !unseenInNarrowed(index, q, matches, added) && meetRarestWord(index, q, matches, added, missing)) {
    choice = bestChoice(index, q, matches, true, true);
  }
  return buildRecord(index, q, fallback(index, q, matches, choice));
}

/**
 * Whether the answer leaves query token `i` unexplained. When the answer is no street, the common
 * street words ("Allée", "des") count as explained: streets held them, and were not taken because
 * none explained a word that tells streets apart (street-words.ts); their typo neighbours would
 * only start a second search among more streets of the same kind.
 */
function unexplained(index: AddressIndex, q: ParsedQuery, matches: TokenMatch[][], choice: Choice, i: number): boolean {
  const s = choice.best;
  if (s && s.explained[i] !== 0) return false;
  if (s && s.kind === DOC_STREET) return true;
  return ((distinctiveStreetWords(index, q, matches).rareOrUnknown >>> i) & 1) === 1 || (q.tokens[i]!.field !== 'street' && q.tokens[i]!.field !== 'free');
}

/**
 * The best-scoring answer for the current matches: proven from the few documents that hold all
 * strong words (`exact`: typo neighbours were added since the exact path failed) or all but one
 * (`dropped`) where possible (exact-path.ts), else by the broad search.
 */
function bestChoice(index: AddressIndex, q: ParsedQuery, matches: TokenMatch[][], exact: boolean, dropped: boolean): Choice {
  return (exact ? exactChoice(index, q, matches) : undefined)
    ?? (dropped ? oneWordDroppedChoice(index, q, matches) : undefined)
    ?? choose(index, q, matches);
}

/**
 * Whether some document holds one of the `added` typo neighbours together with the query's
 * rarest strong word (the postcode, mostly) other than the words `expanded` (whose neighbours
 * they are: a misspelt word is often the rarest, and no document holds it with its correction).
 * When none does, the neighbours of a word the first answer left unexplained are no misspelling
 * of a street there: the street is unknown, and its words' neighbours lead elsewhere ("Allée des
 * Chardonnerets" → "Rue des Allées" of another town). The first answer then stands, and the
 * second broad search is not made.
 */
function meetRarestWord(index: AddressIndex, q: ParsedQuery, matches: TokenMatch[][], added: TokenMatch[], expanded: number[]): boolean {
  let rarest = -1, size = Infinity;
  for (const i of strongTokens(q, freeTextPostcodeToken(q, matches))) {
    if (expanded.includes(i)) continue;
    const n = postingsOfMatches(index, matches[i]!);
    if (n < size) { size = n; rarest = i; }
  }
  return rarest >= 0 && heldTogether(index, matches[rarest]!, added);
}

/** Whether some document holds one of the tokens `a` and one of the tokens `b`. */
function heldTogether(index: AddressIndex, a: TokenMatch[], b: TokenMatch[]): boolean {
  for (const x of a) for (const y of b) if (shareAny(index.postings(x.tok), index.postings(y.tok))) return true;
  return false;
}

/** Adds the typo neighbours of the words `which` to their matches; returns those added. */
function addTypoMatches(index: AddressIndex, q: ParsedQuery, matches: TokenMatch[][], which: number[], expanded: Set<number>): TokenMatch[] {
  const added: TokenMatch[] = [];
  for (const i of which) {
    expanded.add(i);
    const t = typoMatches(index, q.tokens[i]!.text);
    if (t.length > 0) { matches[i] = [...matches[i]!, ...t]; added.push(...t); }
  }
  return added;
}

/**
 * True when the candidates are the documents of a binding postcode and none of them holds any
 * of the `added` tokens: a second search would then count, score and choose exactly as the first.
 */
function unseenInNarrowed(index: AddressIndex, q: ParsedQuery, matches: TokenMatch[][], added: TokenMatch[]): boolean {
  const zip = bindingZipToken(index, q, matches);
  return narrowsCandidates(index, matches, zip) && !heldTogether(index, matches[zip]!, added);
}

/**
 * Street answers that agree with the place the query names; else the named place itself. A
 * street whose own city, district or postcode is one the query names agrees by definition (with
 * a wrong postcode, the street and city decide); any other street must lie in the named place.
 */
function fallback(index: AddressIndex, q: ParsedQuery, matches: TokenMatch[][], choice: Choice): Choice {
  const s = choice.best;
  if (s && s.kind === DOC_STREET && (placeMatched(s) || cityFieldNamesStreetCity(index, q, s))) return choice;
  const named = resolveNamedPlace(index, q, matches);
  if (s && s.kind === DOC_STREET && (!named || (streetNear(index, s, named) && !inOtherPostcode(index, s, named)))) return choice;
  if (named) return { best: named, ambiguous: false };
  // no place named: a street the query names is still an answer ("Landstr"); a general answer
  // that the query does not name (a word shared with some other place) is none
  const street = choose(index, q, matches, true);
  if (street.best && street.best.kind === DOC_STREET) return street;
  return { best: undefined, ambiguous: false };
}

/** The city field is the street's city ("Frederiksberg Runddel", Frederiksberg: its word went to the street). */
function cityFieldNamesStreetCity(index: AddressIndex, q: ParsedQuery, s: Scored): boolean {
  const city = q.tokens.filter((t) => t.field === 'city').map((t) => t.text).join(' ');
  return city !== '' && foldTokens(index.str(index.c.docCity[s.doc]!)).join(' ') === city;
}

/**
 * The street lies in another postcode area than the one the query names, with a town that
 * agrees with it: its addresses have postcodes, none of them the query's ("Allée des Mésanges,
 * 90500 Beaucourt" is not the Allée des Mésanges of 90100 Delle, 8 km away).
 */
function inOtherPostcode(index: AddressIndex, s: Scored, named: NamedPlace): boolean {
  if (named.zipText === '' || named.placeOnly || named.penalty > 0 || s.zipMatched) return false;
  const c = index.c;
  for (let j = c.docTokStart[s.doc]!, e = index.docTokEnd(s.doc); j < e; j++) if (c.docTokRole[j] === ROLE_ZIP) return true;
  return false;
}

/** A street in the named place's country and within 15 km of it. */
function streetNear(index: AddressIndex, s: Scored, named: NamedPlace): boolean {
  const c = index.c;
  if (index.str(c.docCountry[s.doc]!) !== index.str(c.docCountry[named.doc]!)) return false;
  return index.docDistance(s.doc, named.doc) <= 15_000;
}

/** Words that may be typos (not a postcode, not a number, four letters or more) and pass `test`. */
function typoWords(q: ParsedQuery, test: (i: number) => boolean): number[] {
  const out: number[] = [];
  q.tokens.forEach((t, i) => {
    if (t.field === 'zip' || t.hnLike || t.text.length < 4) return;
    if (test(i)) out.push(i);
  });
  return out;
}

function choose(index: AddressIndex, q: ParsedQuery, matches: TokenMatch[][], streetOverGeneral = false): Choice {
  return chooseAmong(index, q, matches, candidateDocs(index, matches, bindingZipToken(index, q, matches), placeWordMask(index, q, matches), numberWordMask(q, matches)), streetOverGeneral);
}

/**
 * The query tokens that name the town, counted further by the candidate stage: the city and
 * district fields; in free text of several comma-separated parts, the words of the last part
 * when the text's postcode does not agree with them (`…, 12630 Digne-les-Bains`: a wrong
 * postcode leaves the town's name as the way to the street). With an agreeing postcode the
 * postcode already leads there, and counting the town's words would only cost time.
 */
function placeWordMask(index: AddressIndex, q: ParsedQuery, matches: TokenMatch[][]): number {
  let mask = placeWordMasks.get(q);
  if (mask === undefined) placeWordMasks.set(q, (mask = placeWordMaskOf(index, q, matches)));
  return mask;
}

/** The query's number-like tokens that are not its free-text postcode (house numbers, mostly). */
function numberWordMask(q: ParsedQuery, matches: TokenMatch[][]): number {
  const zip = freeTextPostcodeToken(q, matches);
  let mask = 0;
  q.tokens.forEach((t, i) => { if (t.hnLike && i !== zip && i < 32) mask |= 1 << i; });
  return mask >>> 0;
}

/** Per query (typo matches, added later, play no part in it). */
const placeWordMasks = new WeakMap<ParsedQuery, number>();

function placeWordMaskOf(index: AddressIndex, q: ParsedQuery, matches: TokenMatch[][]): number {
  let mask = 0;
  q.tokens.forEach((t, i) => { if ((t.field === 'city' || t.field === 'district') && i < 32) mask |= 1 << i; });
  let lastSeg = 0;
  for (const t of q.tokens) if (t.field === 'free' && (t.seg ?? 0) > lastSeg) lastSeg = t.seg ?? 0;
  if (lastSeg === 0) return mask >>> 0;
  const zip = freeTextPostcodeToken(q, matches);
  if (zip < 0) return mask >>> 0;
  const town: number[] = [];
  q.tokens.forEach((t, i) => { if (t.field === 'free' && t.seg === lastSeg && !t.hnLike && i < 32) town.push(i); });
  if (town.length === 0 || postcodeAgrees(index, q, matches, zip, town)) return mask >>> 0;
  for (const i of town) mask |= 1 << i;
  return mask >>> 0;
}

