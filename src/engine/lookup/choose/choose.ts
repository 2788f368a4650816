/**
 * Stage 7 (choose, see ../index.ts): the choice among scored candidates. Candidates are scored,
 * the best street documents get their house number looked up, the postcode constraint is applied,
 * and the best eligible street (or else the best place or postcode document) is chosen; two
 * equally good streets in different towns make the answer ambiguous.
 */
import { DOC_STREET, ROLE_CITY, ROLE_DISTRICT, ROLE_NAME, ROLE_ZIP } from '../../index/format.ts';
import type { AddressIndex } from '../../index/index.ts';
import { QueryBits } from '../match/query-bits.ts';
import type { TokenMatch } from '../match/token-match.ts';
import { withinOneEdit } from '../normalize/normalize.ts';
import type { ParsedQuery } from '../parse/parse.ts';
import type { Choice } from '../record/record.ts';
import { applyPostcodeConstraint, houseNumberTokens, matchHouseNumber, scoreDoc, type Scored } from '../score/score.ts';
import { distinctiveStreetWords, ownRareName } from './street-words.ts';

/** Street documents whose house numbers are looked up. */
const HN_DOCS = 12;

/** The order of scored documents, best first: score, then rank, then document id (a total order). */
function byScore(a: Scored, b: Scored): number {
  return b.score - a.score || b.rank - a.rank || a.doc - b.doc;
}

export function chooseAmong(index: AddressIndex, q: ParsedQuery, matches: TokenMatch[][], cands: number[], streetOverGeneral = false): Choice {
  if (cands.length === 0) return { best: undefined, ambiguous: false };
  const bits = new QueryBits(matches);
  const words = streetWords(q);
  const scored: Scored[] = [];
  const streets: Scored[] = [];
  for (const d of cands) {
    if (!mayAnswer(index, q, matches, bits, words, d)) continue;
    const s = scoreDoc(index, q, matches, d, bits);
    scored.push(s);
    if (s.kind === DOC_STREET) streets.push(s);
  }
  // the house numbers of the best-scored streets
  streets.sort(byScore);
  const hnToks = houseNumberTokens(index, q);
  for (let k = 0; k < streets.length && k < HN_DOCS; k++) matchHouseNumber(index, q, streets[k]!, hnToks);
  applyPostcodeConstraint(index, q, matches, scored);
  // by byScore, now with the house numbers: the best eligible street, the next one, and the best
  // other document (a single pass: byScore is a total order, so this is the head of the sort)
  let street: Scored | undefined;
  let runnerUp: Scored | undefined;
  let general: Scored | undefined;
  for (const s of scored) {
    if (s.kind === DOC_STREET) {
      if (!streetEligible(index, q, matches, bits, s)) continue;
      if (!street || byScore(s, street) < 0) {
        runnerUp = street;
        street = s;
      } else if (!runnerUp || byScore(s, runnerUp) < 0) runnerUp = s;
    } else if (!general || byScore(s, general) < 0) general = s;
  }
  // a street that explains no more of the input than a place or postcode does is not an answer
  if (!streetOverGeneral && street && street.addr < 0 && general && explainedWeight(q, general) >= explainedWeight(q, street)) street = undefined;
  if (street) {
    const ambiguous = !!runnerUp && runnerUp.score >= street.score - 1e-9 && (street.addr < 0 || runnerUp.addr >= 0)
      && inOtherTowns(index, street.doc, runnerUp.doc);
    return { best: street, ambiguous };
  }
  return { best: general, ambiguous: false };
}

/**
 * Two street documents lie in different towns: towns of other names, or of one name far apart
 * (France alone has dozens of towns named Saint-Martin; parts of one town's street lie close).
 */
function inOtherTowns(index: AddressIndex, a: number, b: number): boolean {
  return index.c.docCity[a] !== index.c.docCity[b] || index.docDistance(a, b) > SAME_TOWN_METRES;
}

/** Street documents of one town's name further apart than this are taken for two towns. */
const SAME_TOWN_METRES = 15_000;

/**
 * A street that streetEligible would refuse whatever its score (checked from the document's
 * token list: what it holds, not yet what it explains) is not scored, and takes none of the
 * house-number lookups: one that holds none of the query's distinctive words as its name, lacks
 * one of them altogether, has a distinctive word of its own, and whose name misspells none. A
 * document holding every street word of the query (`words`: streetWords) needs no more.
 */
function mayAnswer(index: AddressIndex, q: ParsedQuery, matches: TokenMatch[][], bits: QueryBits, words: number, d: number): boolean {
  if (index.c.docKind[d] !== DOC_STREET) return true;
  const held = bits.inDoc(index, d);
  if ((held & words) === words) return true;
  const { rare, rareOrUnknown } = distinctiveStreetWords(index, q, matches);
  if ((held & rareOrUnknown) === rareOrUnknown) return true;
  if ((bits.namesInDoc(index, d) & rare) !== 0 || !ownRareName(index, bits, d)) return true;
  // a misspelt name must hold the query's other street words (a distinctive word it holds in
  // another role is taken as explained: a town's name in free text)
  const common = words & ~rareOrUnknown;
  return (held & common) === common && misspeltName(index, q, d, rareOrUnknown & ~held);
}

/** The query's street and free-text words that are not number-like (bit i = token i). */
function streetWords(q: ParsedQuery): number {
  let mask = 0;
  for (let i = 0; i < q.tokens.length && i < 32; i++) {
    const t = q.tokens[i]!;
    if ((t.field === 'street' || t.field === 'free') && !t.hnLike) mask |= 1 << i;
  }
  return mask >>> 0;
}

/**
 * One of the query words `words` is within one edit of one of the street's name words, or of two
 * neighbouring ones written together: a misspelling the typo neighbours do not reach, because it
 * is short, glues two words, or is itself another street's word ("vest" or "lest" for Rue de
 * l'Est, "lhecole" for Rue de l'École, "saintjean" for Rue Saint-Jean).
 */
function misspeltName(index: AddressIndex, q: ParsedQuery, doc: number, words: number): boolean {
  const c = index.c;
  const from = c.docTokStart[doc]!, to = index.docTokEnd(doc);
  for (let i = 0; i < q.tokens.length && i < 32; i++) {
    if (!((words >>> i) & 1)) continue;
    const w = q.tokens[i]!.text;
    if (w.length < 2) continue;
    // lengths first (a folded token's bytes are its letters): most name words are not decoded
    let prev = -1, prevLength = 0;
    for (let j = from; j < to; j++) {
      if (c.docTokRole[j] !== ROLE_NAME) continue;
      const tok = c.docTok[j]!, length = index.tokenBytes(tok);
      if (Math.abs(length - w.length) <= 1 && withinOneEdit(index.tokenText(tok), w)) return true;
      if (prev >= 0 && Math.abs(prevLength + length - w.length) <= 1 && withinOneEdit(index.tokenText(prev) + index.tokenText(tok), w)) return true;
      prev = tok;
      prevLength = length;
    }
  }
  return false;
}

/** The document explains a word of the city, district or postcode as such. */
export function placeMatched(s: Scored): boolean {
  for (let i = 0; i < s.roles.length; i++) {
    const r = s.roles[i]!;
    if (s.explained[i]! > 0 && (r === ROLE_CITY || r === ROLE_DISTRICT || r === ROLE_ZIP)) return true;
  }
  return false;
}

function explainedWeight(q: ParsedQuery, s: Scored): number {
  let e = 0;
  for (let i = 0; i < s.explained.length; i++) e += s.explained[i]! * q.tokens[i]!.weight;
  return e;
}

/**
 * The street is another one of the same kind as the query's ("Allée des Bouleaux" for an "Allée
 * des Chardonnerets" the town does not have; street-words.ts): the query leaves a distinctive
 * word unexplained (`left`: its street words the street does not explain) and the street
 * explains none (`asNames`: those it explains as its name), while it has a distinctive word of
 * its own that the query does not name ("Hauptstraße 4, Hinterhaus" stays Hauptstraße), and its
 * name is no misspelling of the query's word.
 */
function differentStreet(index: AddressIndex, q: ParsedQuery, matches: TokenMatch[][], bits: QueryBits, s: Scored, asNames: number, left: number): boolean {
  const { rare, rareOrUnknown } = distinctiveStreetWords(index, q, matches);
  if ((left & rareOrUnknown) === 0 || (asNames & rare) !== 0) return false;
  if (!ownRareName(index, bits, s.doc)) return false;
  return (left & ~rareOrUnknown) !== 0 || !misspeltName(index, q, s.doc, left);
}

/** A street answers the query when its name explains enough of the query's street words (and see differentStreet). */
function streetEligible(index: AddressIndex, q: ParsedQuery, matches: TokenMatch[][], bits: QueryBits, s: Scored): boolean {
  if (s.kind !== DOC_STREET || s.zipConflict || s.nameTokensMatched === 0) return false;
  let streetTok = 0, streetHit = 0;
  // street and free-text words the street explains as its name, and those it leaves unexplained
  let asNames = 0, left = 0;
  for (let i = 0; i < q.tokens.length && i < 32; i++) {
    const t = q.tokens[i]!;
    const asName = s.roles[i] === 0 && s.explained[i]! > 0;
    if (t.field === 'street' || t.field === 'free') {
      if (asName) asNames |= 1 << i;
      else if (!(s.explained[i]! > 0) && !t.hnLike) left |= 1 << i;
    }
    if (t.field !== 'street') continue;
    streetTok++;
    if (asName) streetHit++;
  }
  if (asNames === 0) return false;
  if (left !== 0 && differentStreet(index, q, matches, bits, s, asNames, left)) return false;
  if (streetTok > 0 && streetHit * 2 < streetTok) return false;
  return s.nameCoverage >= 0.5 || s.nameTokensMatched >= 2;
}
