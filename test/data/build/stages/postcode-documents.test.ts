/** The build stage postcode documents: one per (country, code, place name), the first entry's point, every entry's place words. */
import { describe, expect, it } from 'vitest';
import { AdminIndex } from '../../../../src/data/build/admin-index.ts';
import { StringInterner } from '../../../../src/data/build/interner.ts';
import { Documents } from '../../../../src/data/build/stages/documents.ts';
import { postcodeDocuments } from '../../../../src/data/build/stages/postcode-documents.ts';
import { StringKeys } from '../../../../src/data/build/string-keys.ts';
import { COORD_SCALE, DOC_POSTCODE, ROLE_CITY, ROLE_ZIP } from '../../../../src/engine/index/format.ts';
import { postcodeEntry, recorder } from './rows.ts';

describe('postcode documents', () => {
  it('groups entries by country, postcode key and folded place; drops codes without a key', () => {
    const S = new StringInterner();
    const entries = [
      postcodeEntry({ code: '9490', place: 'Vaduz' }),
      postcodeEntry({ code: '94 90', place: 'VADUZ', lat: 47.2 }),
      postcodeEntry({ code: '9490', place: 'Ebenholz', lat: 47.15 }),
      postcodeEntry({ code: '9490', place: 'Vaduz', country: 'CH' }),
      postcodeEntry({ code: '-', place: 'Nowhere' }),
    ];
    const docs = new Documents(S, new StringKeys(S), new AdminIndex([], entries));
    const pr = recorder();
    postcodeDocuments(docs, entries, 5, pr);
    expect(pr.phases).toEqual(['postcode documents']);
    const { D, T } = docs;
    expect(D.count).toBe(3);
    expect([...D.kind.view()]).toEqual([DOC_POSTCODE, DOC_POSTCODE, DOC_POSTCODE]);
    const doc = (d: number) => [S.str(D.country.a[d]!), S.str(D.name.a[d]!), S.str(D.city.a[d]!), S.str(D.postcode.a[d]!), D.lat.a[d], D.rank.a[d], D.addrStart.a[d]];
    expect(doc(0)).toEqual(['LI', '9490', 'Vaduz', '9490', Math.round(47.141 * COORD_SCALE), 1, 5]);
    expect(doc(1)).toEqual(['LI', '9490', 'Ebenholz', '9490', Math.round(47.15 * COORD_SCALE), 1, 5]);
    expect(doc(2)[0]).toBe('CH');
    const toks: string[] = [];
    for (let p = D.tokStart.a[0]!; p < D.tokStart.a[0]! + D.tokCount.a[0]!; p++) toks.push(`${T.docTokRole.a[p]}:${S.str(T.str.a[T.docTok.a[p]!]!)}`);
    expect(toks).toEqual([`${ROLE_ZIP}:9490`, `${ROLE_CITY}:vaduz`]);
  });

  it("without polygons, each place of a shared code keeps its own state and county (AT 1140: two villages of Niederösterreich and Wien, Penzing)", () => {
    const S = new StringInterner();
    const lower = { country: 'AT', code: '1140', state: 'Niederösterreich', stateCode: '03', county: 'Sankt Pölten' };
    const entries = [
      postcodeEntry({ ...lower, place: 'Mauerbach', lat: 48.2077, lon: 16.1754 }),
      postcodeEntry({ ...lower, place: 'Purkersdorf', lat: 48.2077, lon: 16.1754 }),
      postcodeEntry({ country: 'AT', code: '1140', place: 'Wien, Penzing', state: 'Wien', stateCode: '09', county: 'Wien', lat: 48.221, lon: 16.2415 }),
      postcodeEntry({ ...lower, code: '3002', place: 'Purkersdorf' }),
    ];
    const admin = new AdminIndex([], entries);
    const docs = new Documents(S, new StringKeys(S), admin);
    postcodeDocuments(docs, entries, 0, recorder());
    const { D } = docs;
    const adminOf = (d: number) => { const a = admin.list[D.admin.a[d]!]!; return [S.str(D.city.a[d]!), a.stateName, a.stateCode, a.county]; };
    expect([0, 1, 2, 3].map(adminOf)).toEqual([
      ['Mauerbach', 'Niederösterreich', 'AT-3', 'Sankt Pölten'],
      ['Purkersdorf', 'Niederösterreich', 'AT-3', 'Sankt Pölten'],
      ['Wien', 'Wien', 'AT-9', 'Wien'],
      ['Purkersdorf', 'Niederösterreich', 'AT-3', 'Sankt Pölten'],
    ]);
  });
});
