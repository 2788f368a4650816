/**
 * Stage 6, score (src/engine/lookup/score/score.ts), fed by hand: a small index of three towns,
 * one query at a time, the documents to score picked by name. What it decides: which query word
 * a document explains, in which role and how well; the house number inside a street; and when
 * a postcode binds the answer, so that a street outside it is marked as conflicting.
 */
import { describe, expect, it } from 'vitest';
import { emptyBatch } from '../../../../src/data/source-types.ts';
import { DOC_POSTCODE, DOC_STREET, ROLE_CITY, ROLE_NAME, ROLE_ZIP } from '../../../../src/engine/index/format.ts';
import type { AddressIndex } from '../../../../src/engine/index/index.ts';
import { exactMatches } from '../../../../src/engine/lookup/match/matches.ts';
import { QueryBits } from '../../../../src/engine/lookup/match/query-bits.ts';
import { parseRequest } from '../../../../src/engine/lookup/parse/parse.ts';
import {
  HOUSENUMBER_FIELD_BONUS, applyPostcodeConstraint, bindingZipToken, houseNumberTokens, matchHouseNumber, scoreDoc,
} from '../../../../src/engine/lookup/score/score.ts';
import type { SearchRequest } from '../../../../src/contract/requests.ts';
import { indexOfBatch } from '../../../helpers/test-index.ts';

/** Vaduz (9490) and Schaan (9494) share a Landstrasse; Städtle is Vaduz's only. */
function valley(): AddressIndex {
  const b = emptyBatch();
  const towns = [['Vaduz', '9490', 47.14, 9.52], ['Schaan', '9494', 47.165, 9.51]] as const;
  for (const [name, zip, lat, lon] of towns) {
    b.places.push({ country: 'LI', name, lat, lon, population: 5000, type: 'town' });
    b.postcodes.push({ country: 'LI', code: zip, place: name, state: '', stateCode: '', county: '', lat, lon });
    for (let n = 1; n <= 5; n++) b.addresses.push({ country: 'LI', street: 'Landstrasse', housenumber: String(n), postcode: zip, city: name, district: '', lat, lon: lon + n * 1e-4 });
  }
  for (const hn of ['1', '2', '168-170']) b.addresses.push({ country: 'LI', street: 'Städtle', housenumber: hn, postcode: '9490', city: 'Vaduz', district: '', lat: 47.139, lon: 9.521 });
  return indexOfBatch(b);
}

const index = valley();
const c = index.c;

/** The street document of `street` in `city`. */
function streetDoc(street: string, city: string): number {
  const tok = index.tokenId(street.toLowerCase().replace('ä', 'a'));
  for (let d = 0; d < index.docCount; d++) {
    if (c.docKind[d] === DOC_STREET && index.str(c.docCity[d]!) === city && index.docHolds(d, tok, 1 << ROLE_NAME)) return d;
  }
  throw new Error(`no street ${street} in ${city}`);
}

/** The postcode document of `code`. */
function postcodeDoc(code: string): number {
  for (let d = 0; d < index.docCount; d++) if (c.docKind[d] === DOC_POSTCODE && index.str(c.docPostcode[d]!) === code) return d;
  throw new Error(`no postcode ${code}`);
}

function query(req: SearchRequest) {
  const q = parseRequest(req);
  const matches = exactMatches(index, q);
  const token = (text: string) => q.tokens.findIndex((t) => t.text === text);
  return { q, matches, bits: new QueryBits(matches), token };
}

describe('scoreDoc', () => {
  it('a street document explains the street word as its name; the postcode document, the postcode', () => {
    const { q, matches, bits, token } = query({ street: 'Landstrasse', zip: '9490', city: 'Vaduz' });
    const street = scoreDoc(index, q, matches, streetDoc('Landstrasse', 'Vaduz'), bits);
    const postcode = scoreDoc(index, q, matches, postcodeDoc('9490'), bits);
    const [name, zip, city] = [token('landstrasse'), token('9490'), token('vaduz')];

    expect(street.kind).toBe(DOC_STREET);
    expect([street.roles[name], street.explained[name]]).toEqual([ROLE_NAME, 1]);
    expect([street.roles[zip], street.roles[city]]).toEqual([ROLE_ZIP, ROLE_CITY]);
    expect(street.nameCoverage).toBe(1);
    expect(street.zipMatched).toBe(true);

    expect(postcode.kind).toBe(DOC_POSTCODE);
    expect(postcode.roles[zip]).toBe(ROLE_ZIP);
    expect(postcode.explained[name]).toBe(0);
    // the street explains all the postcode document does, and its name besides
    expect(street.score).toBeGreaterThan(postcode.score);
  });

  it('a word of the street field that the document holds only as its town counts for less than as a name', () => {
    const { q, matches, bits, token } = query({ street: 'Vaduz' });
    const s = scoreDoc(index, q, matches, streetDoc('Landstrasse', 'Vaduz'), bits);
    expect(s.roles[token('vaduz')]).toBe(ROLE_CITY);
    expect(s.explained[token('vaduz')]).toBeGreaterThan(0);
    expect(s.explained[token('vaduz')]).toBeLessThan(1);
    expect(s.nameTokensMatched).toBe(0);
  });
});

describe('matchHouseNumber', () => {
  const hn = (street: string, housenumber: string) => {
    const { q, matches, bits } = query({ street, housenumber, zip: '9490', city: 'Vaduz' });
    const s = scoreDoc(index, q, matches, streetDoc(street, 'Vaduz'), bits);
    const before = s.score;
    matchHouseNumber(index, q, s, houseNumberTokens(index, q));
    return { s, added: s.score - before };
  };

  it('finds the number in the street and adds the housenumber field bonus', () => {
    const { s, added } = hn('Landstrasse', '3');
    expect(s.addr).toBeGreaterThanOrEqual(0);
    expect(index.tokenText(c.addrHnTok[s.addr]!)).toBe('3');
    expect(s.hnQuality).toBe(1);
    expect(added).toBeCloseTo(HOUSENUMBER_FIELD_BONUS, 9);
  });

  it('answers a number with the range that starts with it, at a lower quality', () => {
    const { s } = hn('Städtle', '168');
    expect(index.tokenText(c.addrHnTok[s.addr]!)).toBe('168-170');
    expect(s.hnQuality).toBeCloseTo(0.9, 9);
  });

  it('leaves a number the street does not have unmatched', () => {
    const { s, added } = hn('Städtle', '99');
    expect([s.addr, s.hnQuality, added]).toEqual([-1, 0, 0]);
  });
});

describe('the postcode constraint', () => {
  const conflicts = (req: SearchRequest) => {
    const { q, matches, bits } = query(req);
    const scored = [streetDoc('Landstrasse', 'Vaduz'), streetDoc('Landstrasse', 'Schaan')].map((d) => scoreDoc(index, q, matches, d, bits));
    applyPostcodeConstraint(index, q, matches, scored);
    return { binding: bindingZipToken(index, q, matches), vaduz: scored[0]!.zipConflict, schaan: scored[1]!.zipConflict };
  };

  it('a postcode that agrees with the city binds: the street outside it conflicts', () => {
    const r = conflicts({ street: 'Landstrasse', zip: '9490', city: 'Vaduz' });
    expect(r.binding).toBeGreaterThanOrEqual(0);
    expect([r.vaduz, r.schaan]).toEqual([false, true]);
  });

  it('a postcode alone binds too', () => {
    expect(conflicts({ street: 'Landstrasse', zip: '9494' })).toMatchObject({ vaduz: true, schaan: false });
  });

  it('a postcode of another town than the city named does not bind', () => {
    expect(conflicts({ street: 'Landstrasse', zip: '9494', city: 'Vaduz' })).toEqual({ binding: -1, vaduz: false, schaan: false });
  });

  it('a postcode the index does not hold does not bind', () => {
    expect(conflicts({ street: 'Landstrasse', zip: '9999', city: 'Vaduz' })).toEqual({ binding: -1, vaduz: false, schaan: false });
  });
});
