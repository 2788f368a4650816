/**
 * Stage 7, choose (src/engine/lookup/choose/choose.ts), fed by hand: a small index, one query at a
 * time, the candidate documents given (not searched). What it decides: a street over a postcode
 * or place document, a tie between streets of two towns → ambiguous, and no street that lies
 * outside a binding postcode.
 */
import { describe, expect, it } from 'vitest';
import { emptyBatch } from '../../../../src/data/source-types.ts';
import { DOC_PLACE, DOC_POSTCODE, DOC_STREET, ROLE_NAME } from '../../../../src/engine/index/format.ts';
import type { AddressIndex } from '../../../../src/engine/index/index.ts';
import { chooseAmong } from '../../../../src/engine/lookup/choose/choose.ts';
import { exactMatches } from '../../../../src/engine/lookup/match/matches.ts';
import { parseRequest } from '../../../../src/engine/lookup/parse/parse.ts';
import type { SearchRequest } from '../../../../src/contract/requests.ts';
import { indexOfBatch } from '../../../helpers/test-index.ts';

/**
 * Vaduz (9490) and Schaan (9494), 3 km apart, share a Landstrasse; Städtle is Vaduz's only.
 * Kirchstrasse is in Schaan and in Balzers-Süd (9496), a town 30 km away.
 */
function valley(): AddressIndex {
  const b = emptyBatch();
  const towns = [['Vaduz', '9490', 47.14, 9.52], ['Schaan', '9494', 47.165, 9.51], ['Balzers', '9496', 46.87, 9.50]] as const;
  for (const [name, zip, lat, lon] of towns) {
    b.places.push({ country: 'LI', name, lat, lon, population: 5000, type: 'town' });
    b.postcodes.push({ country: 'LI', code: zip, place: name, state: '', stateCode: '', county: '', lat, lon });
    const streets = name === 'Balzers' ? ['Kirchstrasse'] : name === 'Schaan' ? ['Landstrasse', 'Kirchstrasse'] : ['Landstrasse', 'Städtle'];
    for (const street of streets) {
      for (let n = 1; n <= 5; n++) b.addresses.push({ country: 'LI', street, housenumber: String(n), postcode: zip, city: name, district: '', lat, lon: lon + n * 1e-4 });
    }
  }
  return indexOfBatch(b);
}

const index = valley();
const c = index.c;

function doc(kind: number, test: (d: number) => boolean, what: string): number {
  for (let d = 0; d < index.docCount; d++) if (c.docKind[d] === kind && test(d)) return d;
  throw new Error(`no document: ${what}`);
}
const streetDoc = (street: string, city: string) => {
  const tok = index.tokenId(street.toLowerCase().replace('ä', 'a'));
  return doc(DOC_STREET, (d) => index.str(c.docCity[d]!) === city && index.docHolds(d, tok, 1 << ROLE_NAME), `${street}, ${city}`);
};
const postcodeDoc = (code: string) => doc(DOC_POSTCODE, (d) => index.str(c.docPostcode[d]!) === code, code);
const placeDoc = (name: string) => doc(DOC_PLACE, (d) => index.str(c.docCity[d]!) === name, name);

/** chooseAmong over the candidates `cands`: the chosen document (-1 none) and whether ambiguous. */
function choose(req: SearchRequest, cands: number[]) {
  const q = parseRequest(req);
  const choice = chooseAmong(index, q, exactMatches(index, q), cands);
  return { doc: choice.best?.doc ?? -1, ambiguous: choice.ambiguous, addr: choice.best?.addr ?? -1 };
}

describe('chooseAmong', () => {
  it('takes the street the query names over the postcode and the town document', () => {
    const street = streetDoc('Landstrasse', 'Vaduz');
    const r = choose({ street: 'Landstrasse', housenumber: '3', zip: '9490', city: 'Vaduz' }, [postcodeDoc('9490'), placeDoc('Vaduz'), street]);
    expect(r).toMatchObject({ doc: street, ambiguous: false });
    expect(index.tokenText(c.addrHnTok[r.addr]!)).toBe('3');
  });

  it('takes the postcode document when no candidate street holds the street the query names', () => {
    const pc = postcodeDoc('9490');
    const r = choose({ street: 'Unbekanntweg', housenumber: '3', zip: '9490', city: 'Vaduz' }, [streetDoc('Landstrasse', 'Vaduz'), pc]);
    expect(r).toEqual({ doc: pc, ambiguous: false, addr: -1 });
  });

  it('a tie between the streets of two towns far apart is ambiguous', () => {
    const cands = [streetDoc('Kirchstrasse', 'Schaan'), streetDoc('Kirchstrasse', 'Balzers')];
    expect(choose({ street: 'Kirchstrasse', housenumber: '3' }, cands).ambiguous).toBe(true);
  });

  it('the town named breaks the tie', () => {
    const balzers = streetDoc('Kirchstrasse', 'Balzers');
    const cands = [streetDoc('Kirchstrasse', 'Schaan'), balzers];
    expect(choose({ street: 'Kirchstrasse', housenumber: '3', city: 'Balzers' }, cands)).toMatchObject({ doc: balzers, ambiguous: false });
    expect(choose({ address: 'Kirchstrasse 3, 9496 Balzers' }, cands)).toMatchObject({ doc: balzers, ambiguous: false });
  });

  it('no street outside a postcode that binds (it agrees with the city): the postcode area instead', () => {
    const pc = postcodeDoc('9494');
    const r = choose({ street: 'Städtle', housenumber: '1', zip: '9494', city: 'Schaan' }, [streetDoc('Städtle', 'Vaduz'), pc]);
    expect(r.doc).toBe(pc);
  });

  it('a postcode of another town than the city named does not bind: the street in the city stands', () => {
    const städtle = streetDoc('Städtle', 'Vaduz');
    const r = choose({ street: 'Städtle', housenumber: '1', zip: '9494', city: 'Vaduz' }, [städtle, postcodeDoc('9494')]);
    expect(r).toMatchObject({ doc: städtle, ambiguous: false });
  });

  it('no candidates, no answer', () => {
    expect(choose({ street: 'Landstrasse' }, [])).toEqual({ doc: -1, ambiguous: false, addr: -1 });
  });
});
