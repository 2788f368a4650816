/**
 * Stage 9 (named place, see ../index.ts), for a query that is only a country's name (`Luxembourg`,
 * `Brasília`, `Malta`): the place of that country that bears that very name (the city of
 * Luxembourg), or that bears one of the country's names and is named by the query in another
 * language (`Luxemburg`, `Luxemburgo`: the city's German and Spanish names are the country's),
 * else no place, and the record says the country alone. Never a place that only holds the name
 * among its other words or names (Paris is not `France`).
 *
 * A country outside the destinations the service addresses, named alone, is rather a place of the
 * destinations that bears that name (`Granada` is Grenada in Spanish, and a city of Spain): the
 * query is then asked as text without a country (placeNameQuery), and the country alone answers
 * unless a place bears that very name (namesInFull: not `Jordan Springs` for `Jordan`, nor
 * Granada for `Grenada`, one of its other names). The words name a country too: the place is a
 * guess between homonyms (HOMONYM_GUESS, countryHomonym).
 */
import { DOC_PLACE } from '../../index/format.ts';
import type { AddressIndex } from '../../index/index.ts';
import type { TokenMatch } from '../match/token-match.ts';
import { foldText } from '../normalize/normalize.ts';
import { countryOfPhrase } from '../parse/countries.ts';
import type { ParsedQuery } from '../parse/parse.ts';
import type { Choice } from '../record/record.ts';
import { isSupportedDestination } from '../../lines/iso3166.ts';
import { HOMONYM_GUESS, type Deduction } from '../score/deductions.ts';
import type { Scored } from '../score/score.ts';
import { resolveNamedPlace } from './named-place.ts';

export function placeNamedLikeCountry(index: AddressIndex, q: ParsedQuery, matches: TokenMatch[][]): Choice {
  const named = resolveNamedPlace(index, q, matches);
  const typed = q.tokens.map((t) => t.text).join(' ');
  if (!named || named.kind !== DOC_PLACE) return { best: undefined, ambiguous: false };
  const city = foldText(index.str(index.c.docCity[named.doc]!));
  if (city === typed || countryOfPhrase(city) === q.country) return { best: named, ambiguous: false };
  return { best: undefined, ambiguous: false };
}

/** The query that is only the name of a country outside the destinations, asked as a place's name (no country); undefined otherwise. */
export function placeNameQuery(q: ParsedQuery): ParsedQuery | undefined {
  if (!q.countryNameOnly || isSupportedDestination(q.country)) return undefined;
  return { ...q, country: '', countryWeight: 0, countryNameOnly: false, countryText: '', totalWeight: q.totalWeight - q.countryWeight };
}

/** The answer is a place whose own name is the query's words (`Granada`). */
export function namesInFull(index: AddressIndex, q: ParsedQuery, choice: Choice): boolean {
  if (!choice.best || choice.best.kind !== DOC_PLACE) return false;
  return foldText(index.str(index.c.docCity[choice.best.doc]!)) === q.tokens.map((t) => t.text).join(' ');
}

/** The place answering a country's name, as a guess between the place and the country (HOMONYM_GUESS). */
export function countryHomonym(choice: Choice): Choice {
  const best = choice.best as (Scored & { deductions?: readonly Deduction[] }) | undefined;
  if (!best) return choice;
  return { ...choice, best: { ...best, deductions: [...(best.deductions ?? []), HOMONYM_GUESS] } as Scored };
}
