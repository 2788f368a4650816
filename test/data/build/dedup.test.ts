/**
 * The same address from two sources is one answer: same country, folded street, house number,
 * postcode (or none on one side), within 100 m; the first source wins each field it has.
 */
import { describe, expect, it } from 'vitest';
import { IndexBuilder } from '../../../src/data/index-builder.ts';
import { openIndex, type AddressIndex } from '../../../src/engine/index/index.ts';
import { lookup } from '../../../src/engine/lookup/index.ts';
import type { AddressPoint } from '../../../src/data/source-types.ts';

const pt = (o: Partial<AddressPoint>): AddressPoint => ({
  country: 'LI', street: 'Städtle', housenumber: '1', postcode: '9490', city: 'Vaduz', district: '', lat: 47.1410, lon: 9.5210, ...o,
});

function build(sources: AddressPoint[][]): AddressIndex {
  const b = new IndexBuilder();
  sources.forEach((rows, i) => {
    const s = b.source(`s${i}`);
    s.place({ country: 'LI', name: 'Vaduz', lat: 47.141, lon: 9.521, population: 5000, type: 'town' });
    for (const r of rows) s.address(r);
  });
  return openIndex(b.build().buffer);
}

const addresses = (idx: AddressIndex) => idx.c.addrLat.length;

describe('dedup across sources', () => {
  it('merges the same address from two sources; the first source wins its fields, the second fills the gaps', () => {
    const idx = build([
      [pt({ postcode: '', lat: 47.1410, lon: 9.5210 })],
      [pt({ street: 'STÄDTLE', postcode: '9490', lat: 47.1413, lon: 9.5212, city: 'Vaduz-Mitte' })],
    ]);
    expect(addresses(idx)).toBe(1);
    expect(idx.meta.counts.duplicatesMerged).toBe(1);
    const r = lookup(idx, { street: 'Städtle', housenumber: '1', zip: '9490', city: 'Vaduz' });
    expect(r).toMatchObject({ matchlevel: 'housenumber', street: 'Städtle', zip: '9490', latitude: '47.141', longitude: '9.521' });
    // the second source's city name still finds it
    const m = lookup(idx, { street: 'Städtle', housenumber: '1', city: 'Vaduz-Mitte' });
    expect(m.matchlevel).toBe('housenumber');
  });
  it('keeps both when the postcodes differ, when they are over 100 m apart, or when the country differs', () => {
    expect(addresses(build([[pt({})], [pt({ postcode: '9494' })]]))).toBe(2);
    expect(addresses(build([[pt({})], [pt({ lat: 47.1425 })]]))).toBe(2);
    expect(addresses(build([[pt({})], [pt({ country: 'CH' })]]))).toBe(2);
    expect(addresses(build([[pt({})], [pt({ housenumber: '1a' })]]))).toBe(2);
  });
  it('leaves the points of one source alone (a source’s own duplicates are its business)', () => {
    expect(addresses(build([[pt({}), pt({ lat: 47.1411 })]]))).toBe(2);
  });
  it('merges each of several countries in one index only within the country', () => {
    const idx = build([
      [pt({}), pt({ country: 'CH', street: 'Bahnhofstrasse', postcode: '8001', city: 'Zürich', lat: 47.37, lon: 8.54 })],
      [pt({ lat: 47.14101 }), pt({ country: 'CH', street: 'Bahnhofstrasse', postcode: '8001', city: 'Zürich', lat: 47.3701, lon: 8.5401 })],
    ]);
    expect(addresses(idx)).toBe(2);
    expect(idx.meta.counts.duplicatesMerged).toBe(2);
  });
});

describe('builder sink', () => {
  it('counts rows it cannot use per source and reason', () => {
    const b = new IndexBuilder();
    const s = b.source('t');
    s.address(pt({ street: '' }));
    s.address(pt({ housenumber: '' }));
    s.address(pt({ lat: NaN }));
    s.address(pt({ housenumber: '-' }));
    s.address(pt({}));
    expect(b.summary[0]!.counts.addresses).toBe(1);
    expect(b.summary[0]!.counts.rejected).toEqual({ 'no-street': 1, 'no-housenumber': 1, 'bad-coordinates': 1, 'bad-housenumber': 1 });
  });
});
