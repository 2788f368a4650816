/**
 * Stage 8's last resort (see ../index.ts): free text that nothing answers is asked again with the
 * typo neighbours of its words allowed to name a place, as the city field's always are: `Hambrug`
 * is Hamburg, `Barcleona, ES` Barcelona, where before nothing was answered. So is free text
 * answered in part, by a place some of its words name while another is left (`Ribeorão Preto` is
 * not Preto, PT, but Ribeirão Preto), when that answer explains every word the first did and more.
 *
 * Only in the last resort: a word of free text may be a street's or a name the index does not
 * hold, and its typo neighbours would otherwise outvote the places the query names as written
 * (`Linke Kremszeile 26 Krems` stays Krems, not a neighbour of `kremszeile`; the state `Glaris`
 * stays the state, not the town Glarus). The answer carries the typo's low quality in its
 * relevance (a misspelt place alone: 30), and the named place's guards apply as to the city field
 * (a misspelling that explains under a tenth of the query is a coincidence unless the street words
 * point to the place's country, a name shared abroad with nothing to decide is no answer:
 * ../named-place/named-place.ts); and the place must hold the query's postcode, if it gives one,
 * and answer at some relevance (misspeltAnswerStands).
 */
import type { SearchRecord } from '../../../contract/records.ts';
import type { AddressIndex } from '../../index/index.ts';
import { shareAny } from '../candidates/sorted-lists.ts';
import { mayBeMisspelt, typoMatches } from '../match/matches.ts';
import type { TokenMatch } from '../match/token-match.ts';
import { placeDocs } from '../named-place/place-docs.ts';
import { placeToken, streetPartTokens } from '../named-place/street-part.ts';
import type { ParsedQuery } from '../parse/parse.ts';
import type { Choice } from '../record/record.ts';

/**
 * The query asked again with its free text's typo neighbours naming places; undefined when it
 * already was, or when no word of its free text may be misspelt. (Whether a word has typo
 * neighbours is not known here: the typo retries give them to the matches of the sub-query they
 * ask, e.g. the one with a country code as its country, not to the query's own.)
 */
export function asMisspelt(q: ParsedQuery): ParsedQuery | undefined {
  return mayBeAskedMisspelt(q) ? { ...q, freeTypoPlaces: true } : undefined;
}

/** The query was not asked as misspelt yet, and a word of its free text may be misspelt. */
function mayBeAskedMisspelt(q: ParsedQuery): boolean {
  return !q.freeTypoPlaces && q.tokens.some((t) => t.field === 'free' && mayBeMisspelt(t.text));
}

/**
 * Whether the misspelt place the query was asked again for stands as its answer (`record`, its
 * record): not where a number of the query has the postcode shape of the place's country and the
 * place does not hold it (`40 Traverse des Claux, 04200` is not Chaux-des-Crotenay; a house number
 * of another country's shape is no postcode of this one: `5423 Oak Street, Vancouvver`), and not at
 * a relevance of nothing (`Rahal Gdid` is not Arahal, ES).
 */
export function misspeltAnswerStands(q: ParsedQuery, choice: Choice, record: SearchRecord): boolean {
  const best = choice.best;
  if (!best) return false;
  if (!best.zipMatched && q.zipCands.some((z) => z.countries.includes(record.country_iso_2))) return false;
  return Number(record.relevance) > 0;
}

/** A query and the answer chosen for it (`q` may be the query asked again: with a state or country field). */
export interface Answered {
  q: ParsedQuery;
  choice: Choice;
}

/**
 * An answer that names a place by some words of free text and leaves another unexplained, one of
 * whose typo neighbours names a place together with a word the answer explains (`Ribeorão Preto`
 * is Preto, PT, by `preto`, and `ribeirao` names Ribeirão Preto with it; `Fraknfurt am Main` Main
 * Beach, AU): the misspelt place may explain more. Only words outside a street's part count, and
 * the neighbours are looked up only for an answer that leaves such a word (most explain all).
 */
export function leavesPlaceWords(index: AddressIndex, q: ParsedQuery, answered: Answered, matches: TokenMatch[][]): boolean {
  const best = answered.choice.best;
  if (!best || best.explained.every((x) => x > 0) || !mayBeAskedMisspelt(q)) return false;
  const streetPart = streetPartTokens(q);
  const placeWord = (i: number) => q.tokens[i]!.field === 'free' && placeToken(q, i, streetPart);
  const left = wordsLeft(q, answered);
  const namedBy: ArrayLike<number>[] = [];
  q.tokens.forEach((t, i) => {
    if (!placeWord(i) || left.has(t)) return;
    for (const m of matches[i]!) if (m.kind !== 'typo') namedBy.push(placeDocs(index, m.tok));
  });
  if (namedBy.length === 0) return false;
  // (typoMatches asks mayBeMisspelt of the word)
  return q.tokens.some((t, i) => placeWord(i) && left.has(t)
    && typoMatches(index, t.text).some((m) => {
      const docs = placeDocs(index, m.tok);
      return namedBy.some((named) => shareAny(docs, named));
    }));
}

/**
 * Whether `retried` explains every word of the query `answered` explains and more: the words each
 * leaves unexplained, the one's a strict subset of the other's. A word the query asked again took
 * as a field (a state's, the country's code) counts as explained.
 */
export function explainsMore(q: ParsedQuery, retried: Answered, answered: Answered): boolean {
  const now = wordsLeft(q, retried);
  const before = wordsLeft(q, answered);
  if (now.size >= before.size) return false;
  for (const t of now) if (!before.has(t)) return false;
  return true;
}

/** The query's tokens its answer leaves unexplained (the asked query's tokens are the query's own, or fields). */
function wordsLeft(q: ParsedQuery, answered: Answered): Set<ParsedQuery['tokens'][number]> {
  const best = answered.choice.best;
  const left = new Set<ParsedQuery['tokens'][number]>();
  answered.q.tokens.forEach((t, i) => {
    if (q.tokens.includes(t) && !(best && best.explained[i]! > 0)) left.add(t);
  });
  return left;
}
