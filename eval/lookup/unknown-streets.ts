/**
 * Streets the index does not hold, in towns it holds: each reference address queried with its
 * street replaced by "Allée des <word>", a word of real French street names ("Tilleuls",
 * "Chardonnerets", …) that the index holds elsewhere. The town's other streets share "Allée"
 * and "des" with it, and the answer should be the town, not one of them. Right = the named town
 * or postcode (sameArea), answered at the general level or on a street whose name holds the
 * word ("Rue des Tilleuls" for "Allée des Tilleuls": the town may have that one); another street
 * = a street of the town without the word; elsewhere = another town.
 */
import type { SearchRecord } from '../../src/contract/records.ts';
import type { SearchRequest } from '../../src/contract/requests.ts';
import type { AddressIndex } from '../../src/engine/index/index.ts';
import { foldText } from '../../src/engine/lookup/normalize/normalize.ts';
import { sameArea } from './fallback-suites.ts';
import type { Truth } from './suites.ts';

/** Words of real French street names (each names a few hundred streets of France, not most). */
export const UNKNOWN_STREET_WORDS = ['Tilleuls', 'Peupliers', 'Chardonnerets', 'Grenadiers', 'Mésanges', 'Pervenches'];

export const UNKNOWN_STREET_FORMS = ['structured', 'free text'] as const;

export interface UnknownStreetResult { form: string; n: number; right: number; otherStreet: number; elsewhere: number; failures: string[] }

export function runUnknownStreets(index: AddressIndex, truth: Truth[], lookupFn: (i: AddressIndex, r: SearchRequest) => SearchRecord): UnknownStreetResult[] {
  return UNKNOWN_STREET_FORMS.map((form) => {
    const out: UnknownStreetResult = { form, n: 0, right: 0, otherStreet: 0, elsewhere: 0, failures: [] };
    truth.forEach((t, k) => {
      const word = UNKNOWN_STREET_WORDS[k % UNKNOWN_STREET_WORDS.length]!;
      const street = `Allée des ${word}`;
      const q: SearchRequest = form === 'structured'
        ? { street, housenumber: t.hn, zip: t.postcode, city: t.city }
        : { address: `${street} ${t.hn}, ${t.postcode} ${t.city}` };
      const r = lookupFn(index, q);
      out.n++;
      const onStreet = r.matchlevel === 'street' || r.matchlevel === 'housenumber';
      if (!sameArea(t, r)) out.elsewhere++;
      else if (onStreet && !foldText(r.street).includes(foldText(word))) {
        out.otherStreet++;
        if (out.failures.length < 5) out.failures.push(`${JSON.stringify(q)} → ${r.matchlevel} ${r.street} ${r.housenumber}, ${r.zip} ${r.city}`);
      } else out.right++;
    });
    return out;
  });
}
