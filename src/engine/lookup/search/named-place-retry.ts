/**
 * Stage 8 (search, see ../index.ts) on an index that holds no street — the embedded default, made
 * of places and postcodes: no street can answer, so the broad search could only find the best place
 * or postcode document, which the named place (stage 9) replaces in every case. The named place
 * is the answer, and the typo retry (typo-retry.ts) asks it rather than a broad search which words
 * it leaves unexplained:
 *
 *  - the words the index does not hold get their typo neighbours first, as in the broad search's
 *    retry, but for the structured street field's, which name no place here;
 *  - then the words the named place leaves unexplained, but a word of free text that names some
 *    place as typed is no misspelling, whichever place was chosen ("Rome, Lazio": Roma, by another
 *    of its names, not a typo neighbour of `rome`);
 *  - every word is asked as if there were no answer where the place does not agree with the
 *    query's postcode (the postcode's own document would have been the broad search's answer,
 *    explaining none of the place's words: "Wein, 1010" is Wien), where it leaves a word of the
 *    city field unexplained ("Fredriksberg C, 1963" is not Fredriksberg, SE, but Frederiksberg C),
 *    and where no place is named;
 *  - the place is named again only when one of those words may name a place (the words of a
 *    street name none: ../named-place/street-part.ts); typo neighbours widen the search and
 *    never take an answer away (when the place named again is none, the first one stands).
 *
 * Measured against the broad search's retry (docs/performance.md, 2026-11-27): the same answer
 * for every one of the 115,617 queries of tools/lookup-equivalence.ts (the eval's suites, and the
 * queries as people write them of eval/lookup/people); of 58,895 queries with mistakes
 * (tools/lookup-typo-ab.ts), 69 answered differently: the town meant 21 times where the broad
 * search's retry missed it and 3 times the other way, another town where the other answered
 * nothing 15 times and once (all at a relevance under 40); at about half the CPU per lookup.
 */
import type { AddressIndex } from '../../index/index.ts';
import type { TokenMatch } from '../match/token-match.ts';
import { resolveNamedPlace, type NamedPlace } from '../named-place/named-place.ts';
import { placeDocs } from '../named-place/place-docs.ts';
import { placeToken, streetPartTokens } from '../named-place/street-part.ts';
import type { ParsedQuery } from '../parse/parse.ts';
import type { Choice } from '../record/record.ts';
import { POSTCODE_CITY_DISAGREE } from '../score/deductions.ts';
import { addTypoMatches, typoWords, unexplained } from './typo-retry.ts';

const NO_ANSWER: Choice = { best: undefined, ambiguous: false };

/** The named place, after the typo retry asked of it (`matches` gains the typo neighbours tried). */
export function namedPlaceWithTypoRetry(index: AddressIndex, q: ParsedQuery, matches: TokenMatch[][]): Choice {
  const expanded = new Set<number>();
  addTypoMatches(index, q, matches, typoWords(q, (i) => mayChange(q, i) && matches[i]!.length === 0), expanded);
  const place = resolveNamedPlace(index, q, matches);
  const named: Choice = { best: place, ambiguous: false };
  // the answer the words are asked of: the place, or none (every word unexplained)
  const asked = place && explainsItsWords(q, place) ? named : NO_ANSWER;
  const missing = typoWords(q, (i) => mayChange(q, i) && !expanded.has(i) && !(asked === named && namesSomePlace(index, q, matches, i)) && unexplained(index, q, matches, asked, i));
  const before = missing.map((i) => matches[i]!.length);
  addTypoMatches(index, q, matches, missing, expanded);
  const gained = missing.filter((i, k) => matches[i]!.length > before[k]!);
  if (gained.length === 0) return named;
  // (the street's words are asked for only here: most lookups gain no neighbour)
  const streetPart = streetPartTokens(q);
  const mayNamePlace = gained.some((i) => placeToken(q, i, streetPart));
  return mayNamePlace ? { best: resolveNamedPlace(index, q, matches) ?? place, ambiguous: false } : named;
}

/**
 * Whether token `i`'s typo neighbours may change the answer: not a word of the structured street
 * field, which names no place (../named-place/street-part.ts, `placeToken`) on an index that holds
 * no street. Its neighbours were looked up and never used: about a sixth of the CPU of the HTTP
 * bench's `{"street":"Rue de Rivoli","housenumber":"10","city":"Paris"}` (docs/performance.md, 2026-11-28).
 */
function mayChange(q: ParsedQuery, i: number): boolean {
  return q.tokens[i]!.field !== 'street';
}

/** The place agrees with the query's postcode, if it gives one, and explains every word of its city and district fields. */
function explainsItsWords(q: ParsedQuery, place: NamedPlace): boolean {
  if (q.zipCands.length > 0 && (!place.zipMatched || place.deductions.includes(POSTCODE_CITY_DISAGREE))) return false;
  return q.tokens.every((t, i) => (t.field !== 'city' && t.field !== 'district') || place.explained[i]! > 0);
}

/** Token `i` is a word of free text that names a place or postcode document as typed (or expanded). */
function namesSomePlace(index: AddressIndex, q: ParsedQuery, matches: TokenMatch[][], i: number): boolean {
  return q.tokens[i]!.field === 'free' && matches[i]!.some((m) => m.kind !== 'typo' && placeDocs(index, m.tok).length > 0);
}
