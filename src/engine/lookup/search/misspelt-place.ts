/**
 * Stage 8's last resort (see ../index.ts): free text that nothing answers is asked again with the
 * typo neighbours of its words allowed to name a place, as the city field's always are: `Hambrug`
 * is Hamburg, `Barcleona, ES` Barcelona, where before nothing was answered.
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
import { mayBeMisspelt } from '../match/matches.ts';
import type { ParsedQuery } from '../parse/parse.ts';
import type { Choice } from '../record/record.ts';

/**
 * The query asked again with its free text's typo neighbours naming places; undefined when it
 * already was, or when no word of its free text may be misspelt. (Whether a word has typo
 * neighbours is not known here: the typo retries give them to the matches of the sub-query they
 * ask, e.g. the one with a country code as its country, not to the query's own.)
 */
export function asMisspelt(q: ParsedQuery): ParsedQuery | undefined {
  if (q.freeTypoPlaces || !q.tokens.some((t) => t.field === 'free' && mayBeMisspelt(t.text))) return undefined;
  return { ...q, freeTypoPlaces: true };
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
