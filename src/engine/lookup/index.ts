/**
 * The address lookup: a pure function over the index. normalise → parse → candidates → score →
 * record (one module per stage). Bad input gives a valid record with empty keys and a low
 * relevance; a defect throws, and the entrance turns it into an error result that is not charged
 * (a record with relevance 0 would be charged as a lookup that found nothing).
 */
import type { SearchRequest } from '../../contract/requests.ts';
import type { SearchRecord } from '../../contract/records.ts';
import { DOC_STREET, ROLE_CITY, ROLE_DISTRICT, ROLE_ZIP } from '../index/format.ts';
import type { AddressIndex } from '../index/index.ts';
import { candidateDocs, exactMatches, intersectDocs, narrowsCandidates, typoMatches, type TokenMatch } from './candidates.ts';
import { resolveNamedPlace, type NamedPlace } from './named-place.ts';
import { foldTokens } from './normalize.ts';
import { parseRequest, type ParsedQuery } from './parse.ts';
import { QueryBits } from './query-bits.ts';
import { keepHeld } from './sorted-lists.ts';
import { buildRecord, type Choice } from './record.ts';
import { applyPostcodeConstraint, bindingZipToken, postcodeAgrees, houseNumberTokens, matchHouseNumber, scoreDoc, type Scored } from './score.ts';

export type { AddressIndex };

/** Street documents whose house numbers are looked up. */
const HN_DOCS = 12;

export function lookup(index: AddressIndex, req: SearchRequest): SearchRecord {
  const q = parseRequest(req);
  if (q.tokens.length === 0) return buildRecord(index, q, { best: undefined, ambiguous: false });
  const matches = exactMatches(index, q);
  // exact path: the documents holding every word; taken when its answer is provably the one
  // the broader search would give (see exactChoice)
  const exact = exactChoice(index, q, matches);
  if (exact) return buildRecord(index, q, exact);
  // typo tolerance only for words that nothing explains: first the words the index does not
  // hold at all (no search can explain them), then those the best answer left unexplained
  const expanded = new Set<number>();
  addTypoMatches(index, q, matches, typoWords(q, (i) => matches[i]!.length === 0), expanded);
  let choice = choose(index, q, matches);
  const missing = typoWords(q, (i) => !expanded.has(i) && (!choice.best || choice.best.explained[i] === 0));
  const added = addTypoMatches(index, q, matches, missing, expanded);
  if (added.length > 0 && !unseenInNarrowed(index, q, matches, added)) choice = choose(index, q, matches);
  return buildRecord(index, q, fallback(index, q, matches, choice));
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
  if (!narrowsCandidates(index, matches, zip)) return false;
  const lists = added.map((m) => index.postings(m.tok));
  for (const m of matches[zip]!) if (keepHeld(index.postings(m.tok), lists).length > 0) return false;
  return true;
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
  if (s && s.kind === DOC_STREET && (!named || streetNear(index, s, named))) return choice;
  if (named) return { best: named, ambiguous: false };
  // no place named: a street the query names is still an answer ("Landstr"); a general answer
  // that the query does not name (a word shared with some other place) is none
  const street = choose(index, q, matches, true);
  if (street.best && street.best.kind === DOC_STREET) return street;
  return { best: undefined, ambiguous: false };
}

function placeMatched(s: Scored): boolean {
  for (let i = 0; i < s.roles.length; i++) {
    const r = s.roles[i]!;
    if (s.explained[i]! > 0 && (r === ROLE_CITY || r === ROLE_DISTRICT || r === ROLE_ZIP)) return true;
  }
  return false;
}

/** The city field is the street's city ("Frederiksberg Runddel", Frederiksberg: its word went to the street). */
function cityFieldNamesStreetCity(index: AddressIndex, q: ParsedQuery, s: Scored): boolean {
  const city = q.tokens.filter((t) => t.field === 'city').map((t) => t.text).join(' ');
  return city !== '' && foldTokens(index.str(index.c.docCity[s.doc]!)).join(' ') === city;
}

/** A street in the named place's country and within 15 km of it. */
function streetNear(index: AddressIndex, s: Scored, named: NamedPlace): boolean {
  const c = index.c;
  if (index.str(c.docCountry[s.doc]!) !== index.str(c.docCountry[named.doc]!)) return false;
  const la = c.docLat[s.doc]! / 1e7, lo = c.docLon[s.doc]! / 1e7, lb = c.docLat[named.doc]! / 1e7, lob = c.docLon[named.doc]! / 1e7;
  const x = (lob - lo) * Math.cos(((la + lb) / 2) * Math.PI / 180);
  return Math.sqrt(x * x + (lb - la) ** 2) * 111_320 <= 15_000;
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

function explainedWeight(q: ParsedQuery, s: Scored): number {
  let e = 0;
  for (let i = 0; i < s.explained.length; i++) e += s.explained[i]! * q.tokens[i]!.weight;
  return e;
}

function streetEligible(q: ParsedQuery, s: Scored): boolean {
  if (s.kind !== DOC_STREET || s.zipConflict || s.nameTokensMatched === 0) return false;
  let streetTok = 0, streetHit = 0, nameByStreetWords = 0;
  q.tokens.forEach((t, i) => {
    if (s.roles[i] === 0 && s.explained[i]! > 0 && (t.field === 'street' || t.field === 'free')) nameByStreetWords++;
    if (t.field !== 'street') return;
    streetTok++;
    if (s.roles[i] === 0 && s.explained[i]! > 0) streetHit++;
  });
  if (nameByStreetWords === 0) return false;
  if (streetTok > 0 && streetHit * 2 < streetTok) return false;
  return s.nameCoverage >= 0.5 || s.nameTokensMatched >= 2;
}

/**
 * The exact path. Candidates are only the documents that hold every strong word (intersection of
 * postings). Its choice is returned when it is a house-number match that explains every query
 * token and scores more than any document lacking one strong word could: such a document
 * explains at most (total − 1) token weight, plus the street-coverage bonus (0.6) and the
 * house-number-field bonus (1.2). Then the broader search cannot find a better or an equal
 * (ambiguous) answer, so the result is the same, found from a handful of documents.
 */
function exactChoice(index: AddressIndex, q: ParsedQuery, matches: TokenMatch[][]): Choice | undefined {
  // free text: a number of a postcode's shape is most likely the postcode, and the rarest word
  // of all; required first, it narrows the intersection to the streets of that postcode. A
  // document without it lacks one word, so the proof below holds for the narrower set too.
  const zip = freeTextPostcodeToken(q, matches);
  if (zip >= 0) {
    const c = exactAmong(index, q, matches, intersectDocs(index, q, matches, zip));
    if (c) return c;
  }
  return exactAmong(index, q, matches, intersectDocs(index, q, matches));
}

/** A free-text number token that is a postcode candidate of the query and in the index, or -1. */
function freeTextPostcodeToken(q: ParsedQuery, matches: TokenMatch[][]): number {
  for (let i = 0; i < q.tokens.length; i++) {
    const t = q.tokens[i]!;
    if (t.field === 'free' && t.hnLike && matches[i]!.length > 0 && q.zipCands.some((z) => z.key === t.text)) return i;
  }
  return -1;
}

function exactAmong(index: AddressIndex, q: ParsedQuery, matches: TokenMatch[][], docs: number[] | null): Choice | undefined {
  if (!docs || docs.length === 0) return undefined;
  const choice = chooseAmong(index, q, matches, docs);
  const s = choice.best;
  if (!s || s.kind !== DOC_STREET || s.addr < 0) return undefined;
  let total = 0;
  for (let i = 0; i < q.tokens.length; i++) {
    if (!(s.explained[i]! > 0)) return undefined;
    total += q.tokens[i]!.weight;
  }
  const outsiderMax = total - 1 + 0.6 + (q.hnKeys.length > 0 ? 1.2 : 0);
  return s.score > outsiderMax + 1e-9 ? choice : undefined;
}

function choose(index: AddressIndex, q: ParsedQuery, matches: TokenMatch[][], streetOverGeneral = false): Choice {
  return chooseAmong(index, q, matches, candidateDocs(index, matches, bindingZipToken(index, q, matches), placeWordMask(index, q, matches)), streetOverGeneral);
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

function chooseAmong(index: AddressIndex, q: ParsedQuery, matches: TokenMatch[][], cands: number[], streetOverGeneral = false): Choice {
  if (cands.length === 0) return { best: undefined, ambiguous: false };
  const bits = new QueryBits(matches);
  const scored = cands.map((d) => scoreDoc(index, q, matches, d, bits));
  const byScore = (a: Scored, b: Scored) => b.score - a.score || b.rank - a.rank || a.doc - b.doc;
  scored.sort(byScore);
  const hnToks = houseNumberTokens(index, q);
  let hnChecked = 0;
  for (const s of scored) {
    if (s.kind !== DOC_STREET) continue;
    matchHouseNumber(index, q, s, hnToks);
    if (++hnChecked >= HN_DOCS) break;
  }
  applyPostcodeConstraint(index, q, matches, scored);
  scored.sort(byScore);
  let street: Scored | undefined;
  let runnerUp: Scored | undefined;
  let general: Scored | undefined;
  for (const s of scored) {
    if (s.kind === DOC_STREET) {
      if (!streetEligible(q, s)) continue;
      if (!street) street = s;
      else if (!runnerUp) runnerUp = s;
    } else if (!general) general = s;
  }
  // a street that explains no more of the input than a place or postcode does is not an answer
  if (!streetOverGeneral && street && street.addr < 0 && general && explainedWeight(q, general) >= explainedWeight(q, street)) street = undefined;
  if (street) {
    const ambiguous = !!runnerUp && runnerUp.score >= street.score - 1e-9 && (street.addr < 0 || runnerUp.addr >= 0)
      && index.c.docCity[runnerUp.doc] !== index.c.docCity[street.doc];
    return { best: street, ambiguous };
  }
  return { best: general, ambiguous: false };
}
