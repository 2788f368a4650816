/**
 * Stage 9 on the embedded default (no ../shared needed): a code the post gives several places,
 * asked alone, is answered with its main place, the one named after the most important place
 * (postcode-namesake.ts), not the first of the data's order.
 */
import { describe, expect, it } from 'vitest';
import { defaultIndex as index, loadDefaultIndexBeforeAll } from '../../../helpers/default-index.ts';
import { DOC_POSTCODE } from '../../../../src/engine/index/format.ts';
import { lookup } from '../../../../src/engine/lookup/index.ts';
import { namesakeRank } from '../../../../src/engine/lookup/named-place/postcode-namesake.ts';
import type { SearchRequest } from '../../../../src/contract/requests.ts';

loadDefaultIndexBeforeAll();

const answer = (q: SearchRequest) => {
  const r = lookup(index, q);
  return `${r.zip}|${r.city}|${r.state_code}`;
};

/** The postal places of `code` in `country`, by their name. */
function postalPlaces(country: string, code: string): Map<string, number> {
  const c = index.c, out = new Map<string, number>();
  for (let d = 0; d < c.docKind.length; d++) {
    if (c.docKind[d] === DOC_POSTCODE && index.str(c.docPostcode[d]!) === code && index.str(c.docCountry[d]!) === country) out.set(index.str(c.docCity[d]!), d);
  }
  return out;
}

describe("a code's main place", () => {
  it('ranks each postal place by the place it is named after', () => {
    const fr = postalPlaces('FR', '48000');
    expect(fr.size).toBeGreaterThan(2);
    expect(namesakeRank(index, fr.get('Mende')!)).toBeGreaterThan(namesakeRank(index, fr.get('Badaroux')!));
    const at = postalPlaces('AT', '1140');
    expect(namesakeRank(index, at.get('Wien')!)).toBeGreaterThan(namesakeRank(index, at.get('Mauerbach')!));
    expect(namesakeRank(index, at.get('Wien')!)).toBe(namesakeRank(index, at.get('Wien')!)); // kept, the same
  });
  it('answers a code asked alone with its main place (was the first in the data: Badaroux, Egelsee, Mauerbach)', () => {
    expect(answer({ zip: '48000', country: 'FRA' })).toBe('48000|Mende|FR-OCC');
    expect(answer({ address: '48000, France' })).toBe('48000|Mende|FR-OCC');
    expect(answer({ address: '3500, Austria' })).toBe('3500|Krems an der Donau|AT-3');
    expect(answer({ zip: '1140', country: 'AT' })).toBe('1140|Wien|AT-9');
    // the street's type word chooses the country of a code shared abroad, then its main place
    expect(answer({ address: 'Untere Landstraße 21, 3500' })).toBe('3500|Krems an der Donau|AT-3');
  });
  it('leaves a place the query names alone', () => {
    expect(answer({ zip: '48000', city: 'Badaroux' })).toBe('48000|Badaroux|FR-OCC');
    expect(answer({ address: '1140 Purkersdorf' })).toBe('1140|Purkersdorf|AT-3');
  });
});
