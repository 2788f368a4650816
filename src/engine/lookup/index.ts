/**
 * The address lookup: a pure function over the index. Bad input gives a valid record with empty
 * keys and a low relevance; a defect throws, and the entrance turns it into an error result that
 * is not charged (a record with relevance 0 would be charged as a lookup that found nothing).
 *
 * The stages, one folder each (their modules' headers name them by these numbers); this module
 * only composes them:
 *
 *  1. normalize/    folding, tokens, house-number and postcode keys, abbreviations (shared with
 *                   the index build)
 *  2. parse/        the request (structured fields, free text, or both) → weighted query tokens,
 *                   postcodes, country, house number
 *  3. match/        each query token → the index tokens it matches (exact forms, expansions;
 *                   typo neighbours only when stage 8 asks)
 *  4. exact-path/   a proven answer from the documents holding every strong word (or all but
 *                   one), when no other document could score as high
 *  5. candidates/   the broad search's candidate documents, counted over postings
 *  6. score/        each candidate scored against the query; house number; postcode constraint
 *  7. choose/       the best street (else place or postcode document); a tie → ambiguous
 *  8. search/       the broad search (5–7), and its typo retry for the words nothing explains
 *  9. named-place/  the fallback: a street answer that agrees with the place the query names,
 *                   else the named place itself (postcode area, then city)
 * 10. record/       the spec's record and its relevance
 * 11. explain/      on request only (lookupExplained): what became of each part of the input,
 *                   and the relevance deductions (score/deductions.ts) that applied
 */
import type { SearchRequest } from '../../contract/requests.ts';
import type { Explanation } from '../../contract/explain.ts';
import type { SearchRecord } from '../../contract/records.ts';
import type { AddressIndex } from '../index/index.ts';
import { exactChoice } from './exact-path/exact-path.ts';
import { Explainer } from './explain/explain.ts';
import { exactMatches } from './match/matches.ts';
import type { TokenMatch } from './match/token-match.ts';
import { placeNamedLikeCountry } from './named-place/country-place.ts';
import { fallback } from './named-place/fallback.ts';
import { parseRequest } from './parse/parse.ts';
import { buildRecord, type Choice } from './record/record.ts';
import { searchWithTypoRetry } from './search/typo-retry.ts';

export type { AddressIndex };

export function lookup(index: AddressIndex, req: SearchRequest): SearchRecord {
  const q = parseRequest(req);
  if (q.tokens.length === 0) return buildRecord(index, q, { best: undefined, ambiguous: false });
  return buildRecord(index, q, answer(index, q, exactMatches(index, q)));
}

/** The chosen answer of a query with tokens (stages 3–9); a query that is only a country's name first looks for a place of that name. */
function answer(index: AddressIndex, q: ReturnType<typeof parseRequest>, matches: TokenMatch[][]): Choice {
  if (q.countryNameOnly) return placeNamedLikeCountry(index, q, matches);
  return exactChoice(index, q, matches) ?? fallback(index, q, matches, searchWithTypoRetry(index, q, matches));
}

/** The same answer as lookup(), with its explanation (stage 11): asked for only, never on the default path. */
export function lookupExplained(index: AddressIndex, req: SearchRequest): { record: SearchRecord; explain: Explanation } {
  const q = parseRequest(req);
  const matches = q.tokens.length === 0 ? [] : exactMatches(index, q);
  const choice = q.tokens.length === 0 ? { best: undefined, ambiguous: false } : answer(index, q, matches);
  const explainer = new Explainer(index, req, q, matches, choice);
  const record = buildRecord(index, q, choice, explainer);
  return { record, explain: explainer.explain(req, q, choice, record) };
}
