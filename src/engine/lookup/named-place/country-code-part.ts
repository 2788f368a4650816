/**
 * Stage 9 (named place, see ../index.ts): free text whose last part is a country's ISO 3166-1
 * alpha-2 code, as exports and search boxes write the country (`Wien, AT`, `Navarra, ES`,
 * `Vesterbrogade 3, 1620 København V, DK`), or whose last word is one typed in capitals
 * (`Amsterdam NL`).
 *
 * Two letters are also a state's code in several destinations (`Toronto, ON`; `Fribourg, FR` is
 * the canton, `Regina, SK` the province, `Belo Horizonte, MG` the state) and an Italian
 * province's (`Siena, SI`), so the parser keeps them a word (../parse/countries.ts): the state's
 * code is explained by the answer's own state (state-part.ts, withStateWords). When the text's
 * answer leaves the code unexplained, the query is asked again without it and with the code as its
 * country, as `Wien, Österreich` is; that answer is taken when it is more relevant. A code whose
 * country holds nothing the words name (`Siena, SI`: Slovenia) leaves the text's answer as it was.
 */
import type { ParsedQuery } from '../parse/parse.ts';
import { COUNTRY_WEIGHT } from '../parse/parse.ts';
import { isCountryCode } from '../parse/countries.ts';

/**
 * The code's part of `q`: the token that is the code, the query asked with it as the country, and
 * whether the code is a part of its own (`Wien, AT`, not `Amsterdam NL`); undefined when the last
 * part is no such code.
 */
export function countryCodePart(q: ParsedQuery): { token: number; asked: ParsedQuery; kept: number[]; ownPart: boolean } | undefined {
  if (q.country || q.countryUnknown || q.state.length > 0 || q.county.length > 0 || q.tokens.length < 2) return undefined;
  let last = 0;
  for (const t of q.tokens) {
    if (t.field !== 'free') return undefined;
    last = Math.max(last, t.seg ?? 0);
  }
  const inLast = q.tokens.flatMap((t, i) => ((t.seg ?? 0) === last ? [i] : []));
  // a part of its own after another (`Wien, AT`), or the text's last word typed in capitals
  // after others (`Amsterdam NL`; in lower case it may be a word: `… de`, `… es`)
  const own = last > 0 && inLast.length === 1;
  const token = q.tokens.length - 1;
  const t = q.tokens[token]!;
  const code = t.text.toUpperCase();
  if (!/^[A-Z]{2}$/.test(code) || !isCountryCode(code)) return undefined;
  if (!own && !new RegExp(`\\s${code}\\s*$`).test(q.rawText)) return undefined;
  const kept = q.tokens.flatMap((_, i) => (i === token ? [] : [i]));
  const asked: ParsedQuery = {
    ...q, tokens: kept.map((i) => q.tokens[i]!), country: code, countryWeight: COUNTRY_WEIGHT, countryText: t.text,
    totalWeight: q.totalWeight - t.weight + COUNTRY_WEIGHT, prefer: '',
  };
  return { token, asked, kept, ownPart: own };
}
