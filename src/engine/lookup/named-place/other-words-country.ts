/**
 * Stage 9 (named place, see ../index.ts): the country the query's other words point to, when a
 * place's name is shared abroad and the query has no country, postcode, street word or letter
 * that decides: a word the chosen name leaves unexplained that names places only in one country
 * (`Halle Saale`: Halle is in Germany, Belgium and the Netherlands; `saale` names places in
 * Germany alone, the river's). People write such words as qualifiers (`Halle Saale`, `Weiden
 * Oberpfalz`) or as a region or district the index does not hold as such.
 */
import type { AddressIndex } from '../../index/index.ts';
import type { TokenMatch } from '../match/token-match.ts';
import type { ParsedQuery } from '../parse/parse.ts';
import { countriesOf } from './country-names.ts';
import type { PlaceHit } from './place-hits.ts';
import { placeDocs } from './place-docs.ts';
import { placeToken } from './street-part.ts';

/** A word naming more places than this is common, whatever its countries (`dorf`, `neu`). */
const MAX_DOCS = 400;

/**
 * The one country where the words of the query that `best` leaves unexplained (of four letters or
 * more, exactly matched; shorter ones are skipped) name places or postal places, each of them: ''
 * when a word names none, names places in several countries or too many, is a number or the
 * street's, or when the words disagree.
 */
export function otherWordsCountry(index: AddressIndex, q: ParsedQuery, matches: TokenMatch[][], best: PlaceHit, streetPart: readonly boolean[]): string {
  const countries = countriesOf(index);
  let told = '';
  for (let i = 0; i < q.tokens.length; i++) {
    if (best.tokens.includes(i)) continue;
    const t = q.tokens[i]!, number = /^\d/.test(t.text);
    // (the articles of a qualifier say nothing: `Halle an der Saale`)
    if (t.text.length < 4 && !number) continue;
    if (number || !placeToken(q, i, streetPart)) return '';
    let seen = 0;
    for (const m of matches[i]!) {
      if (m.kind === 'typo') continue;
      const docs = placeDocs(index, m.tok);
      seen += docs.length;
      if (seen > MAX_DOCS) return '';
      for (let j = 0; j < docs.length; j++) {
        const cc = countries.of(docs[j]!);
        if (!told) told = cc;
        else if (cc !== told) return '';
      }
    }
    if (seen === 0) return '';
  }
  return told;
}
