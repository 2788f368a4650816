/** The build stage street documents: one per street part, addresses in house-number order, tokens, postcode, admin, address rows. */
import { describe, expect, it } from 'vitest';
import { addressColumns, type AddressColumn } from '../../../../src/data/build/address-columns.ts';
import { AdminIndex } from '../../../../src/data/build/admin-index.ts';
import type { MemoryColumn } from '../../../../src/data/build/spill.ts';
import { Documents } from '../../../../src/data/build/stages/documents.ts';
import { houseNumberRanks } from '../../../../src/data/build/stages/house-number-order.ts';
import { splitStreets } from '../../../../src/data/build/stages/split-streets.ts';
import { streetDocuments } from '../../../../src/data/build/stages/street-documents.ts';
import { groupStreets } from '../../../../src/data/build/stages/street-groups.ts';
import { COORD_SCALE, DOC_STREET, NO_COORD, ROLE_CITY, ROLE_DISTRICT, ROLE_NAME, ROLE_ZIP } from '../../../../src/engine/index/format.ts';
import { intakeOf, postcodeEntry, pt, recorder } from './rows.ts';

const values = (c: AddressColumn) => [...(c as MemoryColumn).array()];

function build(withLine: boolean) {
  const { S, keys, intake } = intakeOf([
    pt({ housenumber: '3', lat: 47.0010, lon: 9.5, postcode: '9494' }),
    pt({ housenumber: '1', lat: 47.0000, lon: 9.5, district: 'Ebenholz' }),
    pt({ housenumber: '2', lat: 47.0005, lon: 9.5, altCities: ['Vaduz-Mitte'] }),
    pt({ street: 'Aeulestrasse', housenumber: '7', lat: 47.002, lon: 9.51, postcode: '' }),
  ]);
  const P = intake.points!;
  if (withLine) intake.lines.add(S.intern('Städtle'), S.intern('de\u001fStädtle'), Float64Array.from([9.501, 46.999, 9.501, 47.002]));
  intake.lines.finish();
  const dead = new Uint8Array(P.count);
  const groups = groupStreets(P, dead, keys, recorder());
  const parts = splitStreets(P, intake.lines, groups, keys, recorder());
  const docs = new Documents(S, keys, new AdminIndex([], [postcodeEntry({ code: '9490' }), postcodeEntry({ code: '9494', place: 'Schaan' })]));
  const A = addressColumns(undefined, withLine);
  const pr = recorder();
  const nav = streetDocuments(docs, P, intake.lines, parts, groups.order, houseNumberRanks(P, dead, S, keys), A, pr);
  return { S, docs, A, nav, pr };
}

describe('street documents', () => {
  it('writes one document per part with its addresses in house-number order, its most frequent postcode and its words', () => {
    const { S, docs, A, nav, pr } = build(false);
    const { D, T } = docs;
    expect(pr.phases).toEqual(['street documents']);
    expect(D.count).toBe(2);
    expect([...D.kind.view()]).toEqual([DOC_STREET, DOC_STREET]);
    expect(S.str(D.name.a[0]!)).toBe('Städtle');
    expect(S.str(D.country.a[0]!)).toBe('LI');
    expect(S.str(D.district.a[0]!)).toBe('Ebenholz');
    expect(S.str(D.postcode.a[0]!)).toBe('9490');
    expect([D.addrStart.a[0], D.addrCount.a[0], D.addrStart.a[1], D.addrCount.a[1]]).toEqual([0, 3, 3, 1]);
    expect(D.rank.a[0]).toBe(3);
    expect(values(A.addrHn).map((id) => S.str(id))).toEqual(['1', '2', '3', '7']);
    expect(values(A.addrLat)).toEqual([47.0, 47.0005, 47.001, 47.002].map((x) => Math.round(x * COORD_SCALE)));
    expect(values(A.addrPostcode).map((id) => S.str(id))).toEqual(['9490', '9490', '9494', '']);
    // without lines: the display point is the address nearest the centroid, no navigation point
    expect([D.lat.a[0], D.navLat.a[0]]).toEqual([Math.round(47.0005 * COORD_SCALE), NO_COORD]);
    expect(nav).toBe(0);
    expect(A.addrNavLat.length).toBe(4);
    // the document's tokens with their roles
    const toks = new Set<string>();
    for (let p = D.tokStart.a[0]!; p < D.tokStart.a[0]! + D.tokCount.a[0]!; p++) toks.add(`${T.docTokRole.a[p]}:${S.str(T.str.a[T.docTok.a[p]!]!)}`);
    expect(toks).toEqual(new Set([`${ROLE_NAME}:stadtle`, `${ROLE_CITY}:vaduz`, `${ROLE_DISTRICT}:ebenholz`, `${ROLE_CITY}:mitte`, `${ROLE_ZIP}:9490`, `${ROLE_ZIP}:9494`]));
  });

  it('with the street\'s line: names, display and navigation points on it', () => {
    const { S, docs, A, nav } = build(true);
    const { D } = docs;
    expect(S.str(D.names.a[0]!)).toBe('de\u001fStädtle');
    expect(D.lon.a[0]).toBe(Math.round(9.501 * COORD_SCALE));
    expect(D.navLon.a[0]).toBe(D.lon.a[0]);
    expect(nav).toBe(3);
    expect(values(A.addrNavLon)).toEqual([9.501, 9.501, 9.501].map((x) => Math.round(x * COORD_SCALE)).concat([NO_COORD]));
  });
});
