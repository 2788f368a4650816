/**
 * Stage 9 (named place, see ../index.ts): which query tokens are the street's in free text of
 * several parts, and so name no place.
 */
import { isDistrictNumber } from '../parse/district-number.ts';
import type { ParsedQuery } from '../parse/parse.ts';
import { isStreetWord } from './street-countries.ts';

/** Query tokens that may name a place (not street words of a structured query, not numbers). */
export function placeToken(q: ParsedQuery, i: number, streetPart: readonly boolean[]): boolean {
  const t = q.tokens[i]!;
  if (!(t.field === 'city' || t.field === 'district' || t.field === 'free') || streetPart[i]) return false;
  // (a district's number names a place with the city's word: `Dublin 2`)
  return !/^\d/.test(t.text) || isDistrictNumber(q.tokens, i, q.hnKeys, q.zipCands);
}

/**
 * Free text in several parts ("Triq il-Wilga 58a, Paceville"): the words of the parts that hold
 * a street type word (else of the first part with a house number, or a number after words in the
 * first part) are the street's, and do not name a place when another part has a word that may ("Wilga" is a town in
 * Poland, "Street" one in England, "an der" of "Krems an der Donau"). Per token: true when the
 * token is such a street word.
 */
export function streetPartTokens(q: ParsedQuery): boolean[] {
  const toks = q.tokens;
  const none = toks.map(() => false);
  if (!toks.some((t) => t.field === 'free' && (t.seg ?? 0) > 0)) return none;
  const zipKeys = new Set(q.zipCands.map((z) => z.key));
  const streetSegs = new Set<number>();
  let hnSeg = -1;
  toks.forEach((t, i) => {
    if (t.field !== 'free' || t.seg === undefined) return;
    const afterWord = i > 0 && toks[i - 1]!.seg === t.seg && !/^\d/.test(toks[i - 1]!.text);
    // (a district's number before an Eircode is no house number: `Dublin 4, D04 F5P2`)
    const hn = t.hnLike && (!zipKeys.has(t.text) || (t.seg === 0 && afterWord)) && !isDistrictNumber(toks, i, q.hnKeys, q.zipCands);
    if (isStreetWord(t.text)) streetSegs.add(t.seg);
    else if (hn && hnSeg < 0) hnSeg = t.seg;
  });
  // without a type word, the first part with a house number is the street's
  if (streetSegs.size === 0 && hnSeg >= 0) streetSegs.add(hnSeg);
  const placeElsewhere = toks.some((t) => t.field === 'free' && t.seg !== undefined && !streetSegs.has(t.seg) && t.text.length >= 3 && !/^\d/.test(t.text));
  if (streetSegs.size === 0 || !placeElsewhere) return none;
  return toks.map((t) => t.field === 'free' && t.seg !== undefined && streetSegs.has(t.seg));
}

/**
 * A number of the street's part that comes after its words and is that part's only number is the
 * house number ("Rue de la Poujade 6247, Saint-Geniez-d'Olt"), not a postcode; so is a number
 * that opens the street's part before its words ("1108 Davie Street, Vancouver").
 */
export function houseNumberOfStreet(q: ParsedQuery, i: number, streetPart: readonly boolean[]): boolean {
  if (i < 0 || !streetPart[i]) return false;
  const t = q.tokens[i]!;
  const next = q.tokens[i + 1];
  if ((i === 0 || q.tokens[i - 1]!.seg !== t.seg) && next !== undefined && next.seg === t.seg && !/^\d/.test(next.text)) return true;
  if (i === 0 || q.tokens[i - 1]!.seg !== t.seg || /^\d/.test(q.tokens[i - 1]!.text)) return false;
  return q.tokens.filter((u) => u.seg === t.seg && /^\d/.test(u.text)).length === 1;
}
