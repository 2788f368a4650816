/**
 * Stage 9 (named place): France's département number, as French lists and forms write it after
 * the town (`Lyon 69`, `Mende (48)`, `Ajaccio (2A)`). A town's département is its postcode's first
 * two digits (three overseas: 974; Corsica's 20 is 2A below 20200, else 2B). The number chooses
 * among homonyms (`Gourdon 46`: the one in the Lot, not those of the Alpes-Maritimes, Ardèche or
 * Saône-et-Loire) and is explained as the answer's admin area (state-part.ts).
 */
import type { AddressIndex } from '../../index/index.ts';
import type { ParsedQuery } from '../parse/parse.ts';
import type { PlaceHit } from './place-hits.ts';

/** A French département's number as a query's word: two digits, Corsica's 2a/2b, overseas 971–976. */
export const DEPARTEMENT = /^(?:\d{2}|2[ab]|97[1-6])$/;

/** The ways a French postcode's département is written (`69001` → 69; `20000` → 2a, 20; `97400` → 974); none outside France. */
export function departementOf(postcode: string, country: string): string[] {
  if (country !== 'FR' || !/^\d{5}$/.test(postcode)) return [];
  if (postcode.startsWith('20')) return [Number(postcode) < 20200 ? '2a' : '2b', '20'];
  return [postcode.startsWith('97') ? postcode.slice(0, 3) : postcode.slice(0, 2)];
}

/**
 * Of `places`, those in France whose département is the number written right after their name
 * (the next word, in the same part of the text); `places` itself when the query writes no such
 * number, a place's name holds it, or no place has it.
 */
export function byDepartement(index: AddressIndex, q: ParsedQuery, places: PlaceHit[]): PlaceHit[] {
  if (!q.tokens.some((t) => DEPARTEMENT.test(t.text))) return places;
  // (a place whose name holds the number: `Marseille 13`, the post's 13th arrondissement)
  if (places.some((p) => p.tokens.some((i) => DEPARTEMENT.test(q.tokens[i]!.text)))) return places;
  const c = index.c;
  const kept = places.filter((p) => {
    const next = Math.max(...p.tokens) + 1;
    const t = q.tokens[next];
    if (p.country !== 'FR' || !t || t.seg !== q.tokens[next - 1]!.seg || !DEPARTEMENT.test(t.text)) return false;
    return departementOf(index.str(c.docPostcode[p.doc]!), p.country).includes(t.text);
  });
  return kept.length > 0 ? kept : places;
}
