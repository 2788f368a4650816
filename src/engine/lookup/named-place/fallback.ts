/**
 * Stage 9 (named place, see ../index.ts), the fallback: the search's street answer when it agrees
 * with the place the query names; else the named place itself (named-place.ts); else, with no
 * place named, a street the query names.
 */
import { DOC_STREET, ROLE_ZIP } from '../../index/format.ts';
import type { AddressIndex } from '../../index/index.ts';
import { placeMatched } from '../choose/choose.ts';
import type { TokenMatch } from '../match/token-match.ts';
import { foldTokens } from '../normalize/normalize.ts';
import type { ParsedQuery } from '../parse/parse.ts';
import type { Choice } from '../record/record.ts';
import { POSTCODE_CITY_DISAGREE } from '../score/deductions.ts';
import type { Scored } from '../score/score.ts';
import { broadSearch } from '../search/broad-search.ts';
import { allowedCountries, hasStrongPostcode, queryCountryHint } from './country-evidence.ts';
import { resolveNamedPlace, type NamedPlace } from './named-place.ts';

/**
 * Street answers that agree with the place the query names; else the named place itself. A
 * street whose own city, district or postcode is one the query names agrees by definition (with
 * a wrong postcode, the street and city decide); any other street must lie in the named place.
 */
export function fallback(index: AddressIndex, q: ParsedQuery, matches: TokenMatch[][], choice0: Choice): Choice {
  // strong evidence (a postcode's shape, with the street words) is never contradicted (asked only
  // of an answer the query does not otherwise name, and cheap tests first)
  const constrained = !q.country && q.zipCands.length > 0;
  // against an answer the query does not otherwise name: a street holding the query's postcode
  // (the data puts the code there) or its city (the postcode is the wrong one) stays
  const outside = (c: Choice) => constrained && !!c.best && !c.best.zipMatched && !placeMatched(c.best)
    && ruledOut(index, q, c.best) && !cityFieldNamesStreetCity(index, q, c.best);
  const choice = outside(choice0) ? { best: undefined, ambiguous: false } : choice0;
  const s = choice.best;
  if (s && s.kind === DOC_STREET && (placeMatched(s) || cityFieldNamesStreetCity(index, q, s))) return choice;
  const named = resolveNamedPlace(index, q, matches);
  if (s && s.kind === DOC_STREET && (!named || (streetNear(index, s, named) && !inOtherPostcode(index, s, named)))) return choice;
  if (named) return { best: named, ambiguous: false };
  // no place named: a street the query names is still an answer ("Landstr"); a general answer
  // that the query does not name (a word shared with some other place) is none
  const street = broadSearch(index, q, matches, true);
  if (street.best && street.best.kind === DOC_STREET && !outside(street)) return street;
  return { best: undefined, ambiguous: false };
}

/** The answer's country is not among those the query's strong evidence allows (none: no constraint). */
function ruledOut(index: AddressIndex, q: ParsedQuery, s: Scored): boolean {
  if (!hasStrongPostcode(q)) return false;
  const allowed = allowedCountries(q, queryCountryHint(q));
  return allowed.size > 0 && !allowed.has(index.str(index.c.docCountry[s.doc]!));
}

/** The city field is the street's city ("Frederiksberg Runddel", Frederiksberg: its word went to the street). */
function cityFieldNamesStreetCity(index: AddressIndex, q: ParsedQuery, s: Scored): boolean {
  const city = q.tokens.filter((t) => t.field === 'city').map((t) => t.text).join(' ');
  return city !== '' && foldTokens(index.str(index.c.docCity[s.doc]!)).join(' ') === city;
}

/**
 * The street lies in another postcode area than the one the query names, with a town that
 * agrees with it: its addresses have postcodes, none of them the query's ("Allée des Mésanges,
 * 90500 Beaucourt" is not the Allée des Mésanges of 90100 Delle, 8 km away).
 */
function inOtherPostcode(index: AddressIndex, s: Scored, named: NamedPlace): boolean {
  if (named.zipText === '' || named.placeOnly || named.deductions.includes(POSTCODE_CITY_DISAGREE) || s.zipMatched) return false;
  const c = index.c;
  for (let j = c.docTokStart[s.doc]!, e = index.docTokEnd(s.doc); j < e; j++) if (c.docTokRole[j] === ROLE_ZIP) return true;
  return false;
}

/** A street in the named place's country and within 15 km of it. */
function streetNear(index: AddressIndex, s: Scored, named: NamedPlace): boolean {
  const c = index.c;
  if (index.str(c.docCountry[s.doc]!) !== index.str(c.docCountry[named.doc]!)) return false;
  return index.docDistance(s.doc, named.doc) <= 15_000;
}
