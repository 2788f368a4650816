/**
 * Stage 9 (named place, see ../index.ts): the postcode documents the query names (in a shape of
 * their country, or by their longest known prefix), and the query tokens that name a postcode
 * document's place.
 */
import { DOC_POSTCODE, PLACE_ROLES } from '../../index/format.ts';
import type { AddressIndex } from '../../index/index.ts';
import type { TokenMatch } from '../match/token-match.ts';
import type { ParsedQuery } from '../parse/parse.ts';
import { postcodeCountries, postcodeKeysToTry, postcodeSpellings, withPartialShapes } from '../parse/postcodes.ts';
import { queryCountriesPossible } from './country-evidence.ts';
import { countriesOf } from './country-names.ts';
import { foldedName, nameWords } from './name-words.ts';
import { placeDocs } from './place-docs.ts';
import { houseNumberOfStreet, placeToken } from './street-part.ts';

export interface PcHit { doc: number; country: string; token: number; raw: string; exact: boolean; shapeCountries: readonly string[] }

/**
 * Postcode documents the query names. A code of a country's partial shape only (NL's four digits)
 * is looked up there when the street words point to the country or `placeCountries` (the one
 * country of the places the query names) hold it.
 */
export function postcodeHits(index: AddressIndex, q: ParsedQuery, streetPart: readonly boolean[], placeCountries: ReadonlySet<string>): PcHit[] {
  const c = index.c;
  const names = countriesOf(index);
  const out: PcHit[] = [];
  const cands: { key: string; raw: string; token: number; countries: readonly string[] }[] = [];
  q.zipCands.forEach((z) => cands.push({ key: z.key, raw: z.raw, token: z.token ?? q.tokens.findIndex((t) => t.text === z.key), countries: z.countries }));
  const possible = queryCountriesPossible(q);
  const evidence = placeCountries.size === 0 ? possible : new Set([...possible, ...placeCountries]);
  for (const cand of cands) {
    if (houseNumberOfStreet(q, cand.token, streetPart)) continue;
    const shape = withPartialShapes(cand.key, cand.countries.length > 0 ? cand.countries : postcodeCountries(cand.raw), evidence);
    const countries = q.country ? [q.country] : shape;
    const found = new Set<string>();
    // the exact key in any country; prefixes only in the countries whose shape the code has
    const tries: [string, boolean, readonly string[]][] = [[cand.key, true, countries]];
    // (another spelling only where the query names that one country: `L-1508`, or LU given; a bare
    // `1709` is not taken to Luxembourg's L-1709 beside Denmark's 1709)
    if (countries.length === 1) for (const k of postcodeSpellings(countries[0]!, cand.key)) tries.push([k, true, countries]);
    for (const cc of countries) for (const k of postcodeKeysToTry(cc, cand.key).slice(1)) tries.push([k, false, [cc]]);
    for (const [k, exact, ccs] of tries) {
      const tok = index.tokenId(k);
      if (tok < 0) continue;
      for (const d of placeDocs(index, tok)) {
        if (c.docKind[d] !== DOC_POSTCODE) continue;
        const cc = names.of(d);
        if (ccs.length > 0 && !ccs.includes(cc)) continue;
        if (found.has(cc)) continue; // a longer key already found this country
        out.push({ doc: d, country: cc, token: cand.token, raw: cand.raw, exact, shapeCountries: shape });
      }
      for (const h of out) found.add(h.country);
    }
  }
  return out;
}

/**
 * Query tokens that name the place of a postcode document: all words of its place name, or its
 * first words (the first a real word), not a word it merely shares ("de" of "Puente De Guayar").
 */
export function pcPlaceTokens(index: AddressIndex, q: ParsedQuery, matches: TokenMatch[][], doc: number, streetPart: readonly boolean[]): number[] {
  const hit: number[] = [];
  // the index tokens by which they name it (each query token's first match in a city role)
  const typed: number[] = [];
  for (let i = 0; i < q.tokens.length; i++) {
    if (!placeToken(q, i, streetPart)) continue;
    for (const m of matches[i]!) {
      if (q.tokens[i]!.field === 'free' && m.kind === 'typo') continue;
      if (index.docHolds(doc, m.tok, PLACE_ROLES)) { hit.push(i); typed.push(m.tok); break; }
    }
  }
  if (hit.length === 0) return hit;
  const names = nameWords(index);
  const slot = names.slot(doc);
  let len: number, lead = 0, firstLen: number;
  if (slot >= 0) {
    len = names.count(slot);
    firstLen = names.firstLength(slot);
    const w = names.words, s = names.start(slot);
    while (lead < len && typed.includes(w[s + lead]!)) lead++;
  } else {
    const name = foldedName(index, doc);
    const texts = new Set(typed.map((t) => index.tokenText(t)));
    len = name.length;
    firstLen = name[0]?.length ?? 0;
    while (lead < len && texts.has(name[lead]!)) lead++;
  }
  const named = lead === len || (lead >= 1 && firstLen >= 4);
  return named ? hit : [];
}
