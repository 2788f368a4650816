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
 */
import type { SearchRequest } from '../../contract/requests.ts';
import type { SearchRecord } from '../../contract/records.ts';
import type { AddressIndex } from '../index/index.ts';
import { exactChoice } from './exact-path/exact-path.ts';
import { exactMatches } from './match/matches.ts';
import { placeNamedLikeCountry } from './named-place/country-place.ts';
import { fallback } from './named-place/fallback.ts';
import { parseRequest } from './parse/parse.ts';
import { buildRecord } from './record/record.ts';
import { searchWithTypoRetry } from './search/typo-retry.ts';

export type { AddressIndex };

export function lookup(index: AddressIndex, req: SearchRequest): SearchRecord {
  const q = parseRequest(req);
  if (q.tokens.length === 0) return buildRecord(index, q, { best: undefined, ambiguous: false });
  const matches = exactMatches(index, q);
  if (q.countryNameOnly) return buildRecord(index, q, placeNamedLikeCountry(index, q, matches));
  const exact = exactChoice(index, q, matches);
  if (exact) return buildRecord(index, q, exact);
  const choice = searchWithTypoRetry(index, q, matches);
  return buildRecord(index, q, fallback(index, q, matches, choice));
}
