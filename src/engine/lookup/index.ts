/**
 * The address lookup: a pure function over the index. normalise → parse → candidates → score →
 * record (one module per stage). Never throws: bad input gives a valid record with empty keys
 * and a low relevance.
 */
import type { SearchRequest } from '../../contract/requests.ts';
import { emptySearchRecord, type SearchRecord } from '../../contract/records.ts';
import { DOC_STREET } from '../index/format.ts';
import type { AddressIndex } from '../index/index.ts';
import { candidateDocs, exactMatches, typoMatches, type TokenMatch } from './candidates.ts';
import { parseRequest, type ParsedQuery } from './parse.ts';
import { buildRecord, type Choice } from './record.ts';
import { applyPostcodeConstraint, matchHouseNumber, scoreDoc, type Scored } from './score.ts';

export type { AddressIndex };

/** Street documents whose house numbers are looked up. */
const HN_DOCS = 12;

export function lookup(index: AddressIndex, req: SearchRequest): SearchRecord {
  try {
    return lookupUnsafe(index, req);
  } catch {
    const r = emptySearchRecord();
    r.relevance = '0';
    return r;
  }
}

export function lookupUnsafe(index: AddressIndex, req: SearchRequest): SearchRecord {
  const q = parseRequest(req);
  if (q.tokens.length === 0) return buildRecord(index, q, { best: undefined, ambiguous: false });
  const matches = exactMatches(index, q);
  let choice = choose(index, q, matches);
  // typo tolerance only when the exact pass left words unexplained
  const missing = unexplainedWords(q, choice.best);
  if (missing.length > 0) {
    let added = false;
    for (const i of missing) {
      const t = typoMatches(index, q.tokens[i]!.text);
      if (t.length > 0) { matches[i] = [...matches[i]!, ...t]; added = true; }
    }
    if (added) choice = choose(index, q, matches);
  }
  return buildRecord(index, q, choice);
}

function unexplainedWords(q: ParsedQuery, s: Scored | undefined): number[] {
  const out: number[] = [];
  q.tokens.forEach((t, i) => {
    if (t.field === 'zip' || t.hnLike || t.text.length < 4) return;
    if (!s || s.explained[i] === 0) out.push(i);
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

function choose(index: AddressIndex, q: ParsedQuery, matches: TokenMatch[][]): Choice {
  const cands = candidateDocs(index, matches);
  if (cands.length === 0) return { best: undefined, ambiguous: false };
  const scored = cands.map((d) => scoreDoc(index, q, matches, d));
  scored.sort((a, b) => b.score - a.score || index.c.docRank[b.doc]! - index.c.docRank[a.doc]!);
  let hnChecked = 0;
  for (const s of scored) {
    if (s.kind !== DOC_STREET) continue;
    matchHouseNumber(index, q, s);
    if (++hnChecked >= HN_DOCS) break;
  }
  applyPostcodeConstraint(index, q, matches, scored);
  scored.sort((a, b) => b.score - a.score || index.c.docRank[b.doc]! - index.c.docRank[a.doc]!);
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
  if (street && street.addr < 0 && general && explainedWeight(q, general) >= explainedWeight(q, street)) street = undefined;
  if (street) {
    const ambiguous = !!runnerUp && runnerUp.score >= street.score - 1e-9 && (street.addr < 0 || runnerUp.addr >= 0)
      && index.c.docCity[runnerUp.doc] !== index.c.docCity[street.doc];
    return { best: street, ambiguous };
  }
  return { best: general, ambiguous: false };
}
