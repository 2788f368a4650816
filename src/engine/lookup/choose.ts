/**
 * Stage 5: the choice among scored candidates. Candidates are scored, the best street documents
 * get their house number looked up, the postcode constraint is applied, and the best eligible
 * street (or else the best place or postcode document) is chosen; two equally good streets in
 * different towns make the answer ambiguous.
 */
import { DOC_STREET, ROLE_CITY, ROLE_DISTRICT, ROLE_ZIP } from '../index/format.ts';
import type { AddressIndex } from '../index/index.ts';
import type { TokenMatch } from './candidates.ts';
import type { ParsedQuery } from './parse.ts';
import { QueryBits } from './query-bits.ts';
import type { Choice } from './record.ts';
import { applyPostcodeConstraint, houseNumberTokens, matchHouseNumber, scoreDoc, type Scored } from './score.ts';

/** Street documents whose house numbers are looked up. */
const HN_DOCS = 12;

export function chooseAmong(index: AddressIndex, q: ParsedQuery, matches: TokenMatch[][], cands: number[], streetOverGeneral = false): Choice {
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
