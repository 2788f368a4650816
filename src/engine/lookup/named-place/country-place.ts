/**
 * Stage 9 (named place, see ../index.ts), for a query that is only a country's name (`Luxembourg`,
 * `Brasília`, `Malta`): the place of that country that bears that very name (the city of
 * Luxembourg), or that bears one of the country's names and is named by the query in another
 * language (`Luxemburg`, `Luxemburgo`: the city's German and Spanish names are the country's),
 * else no place, and the record says the country alone. Never a place that only holds the name
 * among its other words or names (Paris is not `France`).
 */
import { DOC_PLACE } from '../../index/format.ts';
import type { AddressIndex } from '../../index/index.ts';
import type { TokenMatch } from '../match/token-match.ts';
import { foldText } from '../normalize/normalize.ts';
import { countryOfPhrase } from '../parse/countries.ts';
import type { ParsedQuery } from '../parse/parse.ts';
import type { Choice } from '../record/record.ts';
import { resolveNamedPlace } from './named-place.ts';

export function placeNamedLikeCountry(index: AddressIndex, q: ParsedQuery, matches: TokenMatch[][]): Choice {
  const named = resolveNamedPlace(index, q, matches);
  const typed = q.tokens.map((t) => t.text).join(' ');
  if (!named || named.kind !== DOC_PLACE) return { best: undefined, ambiguous: false };
  const city = foldText(index.str(index.c.docCity[named.doc]!));
  if (city === typed || countryOfPhrase(city) === q.country) return { best: named, ambiguous: false };
  return { best: undefined, ambiguous: false };
}
