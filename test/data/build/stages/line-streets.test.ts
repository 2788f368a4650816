/** The build stage line-only streets: lines no street document took become documents, unless they are pieces of a street with addresses. */
import { describe, expect, it } from 'vitest';
import { addressColumns } from '../../../../src/data/build/address-columns.ts';
import { AdminIndex } from '../../../../src/data/build/admin-index.ts';
import { Documents } from '../../../../src/data/build/stages/documents.ts';
import { houseNumberRanks } from '../../../../src/data/build/stages/house-number-order.ts';
import { lineStreets } from '../../../../src/data/build/stages/line-streets.ts';
import { placeCountries } from '../../../../src/data/build/stages/place-countries.ts';
import { splitStreets } from '../../../../src/data/build/stages/split-streets.ts';
import { streetDocuments } from '../../../../src/data/build/stages/street-documents.ts';
import { groupStreets } from '../../../../src/data/build/stages/street-groups.ts';
import { COORD_SCALE, DOC_STREET, ROLE_CITY, ROLE_NAME, ROLE_ZIP } from '../../../../src/engine/index/format.ts';
import { dLat, intakeOf, place, postcodeEntry, pt, recorder } from './rows.ts';

describe('line-only streets', () => {
  it('makes one document per named line part no street document took, placed and named from the nearest street document or place', () => {
    const { S, keys, intake } = intakeOf([pt({ housenumber: '1', lat: 47, lon: 9.5 }), pt({ housenumber: '2', lat: 47.0002, lon: 9.5 })]);
    const P = intake.points!;
    const L = intake.lines;
    const line = (name: string, ...c: number[]) => L.add(S.intern(name), 0, Float64Array.from(c));
    line('Städtle', 9.5, 47 + dLat(1700), 9.5, 47 + dLat(1800)); // a piece of the street with addresses, too far to be its geometry
    line('Feldweg', 9.504, 47, 9.504, 47.001); // 300 m east: Vaduz, 9490
    line('Feldweg', 9.504, 47.001, 9.504, 47.002); // joined to the first piece: the same document
    line('Bergweg', 9.6, 47.3, 9.6, 47.301); // near Malbun only
    line('Nirgendweg', 20, 10, 20, 10.001); // near nothing: no country
    L.finish();
    const places = [place({ name: 'Malbun', type: 'village', lat: 47.302, lon: 9.601 })];
    const grid = placeCountries(places);
    const docs = new Documents(S, keys, new AdminIndex([], [postcodeEntry({})]));
    const dead = new Uint8Array(P.count);
    const groups = groupStreets(P, dead, keys, recorder());
    const parts = splitStreets(P, L, groups, keys, recorder());
    const A = addressColumns(undefined, true);
    streetDocuments(docs, P, L, parts, groups.order, houseNumberRanks(P, dead, S, keys), A, recorder());
    expect([...L.used.view()]).toEqual([0, 0, 0, 0, 0]);
    const pr = recorder();
    lineStreets(docs, L, grid, groups.grouper, groups.count, parts, A.addrLat.length, pr);
    expect(pr.phases).toEqual(['streets without addresses']);
    const { D, T } = docs;
    expect(D.count).toBe(3);
    const doc = (d: number) => ({ kind: D.kind.a[d], name: S.str(D.name.a[d]!), city: S.str(D.city.a[d]!), country: S.str(D.country.a[d]!), postcode: S.str(D.postcode.a[d]!), addr: [D.addrStart.a[d], D.addrCount.a[d]] });
    expect(doc(1)).toEqual({ kind: DOC_STREET, name: 'Feldweg', city: 'Vaduz', country: 'LI', postcode: '9490', addr: [2, 0] });
    expect(doc(2)).toEqual({ kind: DOC_STREET, name: 'Bergweg', city: 'Malbun', country: 'LI', postcode: '', addr: [2, 0] });
    // at the middle of the part's first line, which is also the navigation point
    expect([D.lat.a[1], D.lon.a[1], D.navLat.a[1]]).toEqual([47.001, 9.504, 47.001].map((x) => Math.round(x * COORD_SCALE)));
    const toks: string[] = [];
    for (let p = D.tokStart.a[1]!; p < D.tokStart.a[1]! + D.tokCount.a[1]!; p++) toks.push(`${T.docTokRole.a[p]}:${S.str(T.str.a[T.docTok.a[p]!]!)}`);
    expect(toks).toEqual([`${ROLE_NAME}:feldweg`, `${ROLE_CITY}:vaduz`, `${ROLE_ZIP}:9490`]);
  });
});
