/**
 * One (country, street, city) group in several places is several street documents: two
 * "Hauptstraße" in two towns called "Neustadt" answer their own house numbers; a long street,
 * with its houses or its geometry joining its ends, stays one document. Line-only streets too.
 */
import { describe, expect, it } from 'vitest';
import { CellLinker, LINK_METERS } from '../../../src/data/build/street-parts.ts';
import { lookup } from '../../../src/engine/lookup/index.ts';
import { emptyBatch, type SourceBatch } from '../../../src/data/source-types.ts';
import { indexOfBatch } from '../../helpers/test-index.ts';

/** Degrees of latitude for `m` metres. */
const dLat = (m: number) => m / 110_574;

function components(points: [number, number][]): number[] {
  const l = new CellLinker();
  l.reset(points.length, points[0]![0]);
  points.forEach(([lat, lon], i) => l.add(i, lat, lon));
  const out = new Int32Array(points.length);
  l.components(out);
  return [...out];
}

describe('CellLinker: single linkage on a grid', () => {
  it('joins points closer than the linkage distance (2 km), never points farther apart', () => {
    expect(LINK_METERS).toBe(2000);
    // a 20 km chain of points 900 m apart: one component
    const chain = Array.from({ length: 23 }, (_, i): [number, number] => [48 + dLat(900 * i), 8]);
    expect(new Set(components(chain)).size).toBe(1);
    // two groups 2.1 km apart (north-south), and a third 50 km away: three, labelled by first item
    const a: [number, number][] = [[48, 8], [48 + dLat(100), 8]];
    const b: [number, number][] = [[48 + dLat(2_200), 8], [48 + dLat(2_300), 8]];
    const c: [number, number][] = [[48.45, 8]];
    expect(components([...a, ...c, ...b])).toEqual([0, 0, 1, 2, 2]);
  });
  it('is reusable across groups of different sizes', () => {
    const l = new CellLinker();
    const out = new Int32Array(5000);
    for (const n of [5000, 3, 1200]) {
      l.reset(n, 50);
      for (let i = 0; i < n; i++) l.add(i, 50 + (i % 2) * 0.5, 10);
      expect(l.components(out)).toBe(n === 1 ? 1 : 2);
    }
  });
});

const TOWNS = { north: { lat: 50.30, lon: 9.00, zip: '36001' }, south: { lat: 49.80, lon: 9.40, zip: '97001' } } as const;

function twoNeustadts(): SourceBatch {
  const b = emptyBatch();
  for (const t of Object.values(TOWNS)) b.places.push({ country: 'DE', name: 'Neustadt', lat: t.lat, lon: t.lon, population: 8000, type: 'town' });
  const add = (town: keyof typeof TOWNS, hn: string, offset: number) => {
    const t = TOWNS[town];
    b.addresses.push({ country: 'DE', street: 'Hauptstraße', housenumber: hn, postcode: t.zip, city: 'Neustadt', district: '', lat: t.lat + offset * 0.0002, lon: t.lon });
  };
  for (let h = 1; h <= 10; h++) { add('north', String(h), h); add('south', String(h), h); }
  add('south', '50', 12);
  for (const t of Object.values(TOWNS)) b.lines.push({ name: 'Hauptstraße', coords: Float64Array.from([t.lon - 0.0003, t.lat, t.lon - 0.0003, t.lat + 0.003]) });
  return b;
}

describe('street documents split by place', () => {
  it('two same-named streets in two same-named towns far apart are two documents, each answering its own house numbers', () => {
    const idx = indexOfBatch(twoNeustadts());
    expect(idx.meta.counts.streets).toBe(2);
    expect(idx.meta.counts.addresses).toBe(21);
    for (const [name, t] of Object.entries(TOWNS)) {
      const r = lookup(idx, { street: 'Hauptstraße', housenumber: '3', zip: t.zip, city: 'Neustadt', country: 'DE' });
      expect(r.matchlevel, name).toBe('housenumber');
      expect(Number(r.latitude), name).toBeCloseTo(t.lat + 3 * 0.0002, 5);
      expect(Number(r.longitude), name).toBeCloseTo(t.lon, 5);
      expect(r.zip, name).toBe(t.zip);
      // the street's navigation point is on its own town's line
      expect(Number(r.navigation_longitude), name).toBeCloseTo(t.lon - 0.0003, 4);
      // free text too
      const f = lookup(idx, { address: `Hauptstraße 3, ${t.zip} Neustadt`, country: 'DE' });
      expect(Number(f.latitude), name).toBeCloseTo(t.lat + 3 * 0.0002, 5);
    }
    // a number only the south town has is answered there, never from the north town
    const r = lookup(idx, { street: 'Hauptstraße', housenumber: '50', zip: TOWNS.north.zip, city: 'Neustadt', country: 'DE' });
    expect(r.matchlevel === 'housenumber' ? Number(r.latitude) : NaN).not.toBeCloseTo(TOWNS.north.lat + 50 * 0.0002, 3);
  });

  it('a long street stays one document: houses every 800 m over 12 km, or a 5 km gap its own line bridges', () => {
    const b = emptyBatch();
    b.places.push({ country: 'DE', name: 'Langdorf', lat: 50, lon: 10, population: 3000, type: 'village' });
    for (let h = 0; h < 16; h++) b.addresses.push({ country: 'DE', street: 'Lange Straße', housenumber: String(h + 1), postcode: '99001', city: 'Langdorf', district: '', lat: 50 + dLat(800 * h), lon: 10 });
    // houses at both ends of a 6 km road, nothing in between but the road itself (two pieces)
    for (const [h, m] of [[1, 0], [2, 50], [3, 6000], [4, 6050]] as const) {
      b.addresses.push({ country: 'DE', street: 'Feldweg', housenumber: String(h), postcode: '99001', city: 'Langdorf', district: '', lat: 50, lon: 10.01 + m / 71_500 });
    }
    b.lines.push({ name: 'Feldweg', coords: Float64Array.from([10.01, 50.0001, 10.01 + 3000 / 71_500, 50.0001]) });
    b.lines.push({ name: 'Feldweg', coords: Float64Array.from([10.01 + 3000 / 71_500, 50.0001, 10.01 + 6050 / 71_500, 50.0001]) });
    const idx = indexOfBatch(b);
    expect(idx.meta.counts.streets).toBe(2);
    const r = lookup(idx, { street: 'Feldweg', housenumber: '3', city: 'Langdorf', country: 'DE' });
    expect(r.matchlevel).toBe('housenumber');
  });

  it('without the bridging line, houses 6 km apart are two documents', () => {
    const b = emptyBatch();
    b.places.push({ country: 'DE', name: 'Langdorf', lat: 50, lon: 10, population: 3000, type: 'village' });
    for (const [h, m] of [[1, 0], [2, 50], [3, 6000], [4, 6050]] as const) {
      b.addresses.push({ country: 'DE', street: 'Feldweg', housenumber: String(h), postcode: '99001', city: 'Langdorf', district: '', lat: 50, lon: 10.01 + m / 71_500 });
    }
    expect(indexOfBatch(b).meta.counts.streets).toBe(2);
  });

  it('streets known only as lines: same name, same-named towns far apart → two documents; a street of several pieces → one', () => {
    const b = emptyBatch();
    for (const t of Object.values(TOWNS)) {
      b.places.push({ country: 'DE', name: 'Neustadt', lat: t.lat, lon: t.lon, population: 8000, type: 'town' });
      b.lines.push({ name: 'Mühlweg', coords: Float64Array.from([t.lon, t.lat, t.lon + 0.01, t.lat]) });
      b.lines.push({ name: 'Mühlweg', coords: Float64Array.from([t.lon + 0.01, t.lat, t.lon + 0.02, t.lat + 0.001]) });
    }
    // one address so the build has a street with houses
    b.addresses.push({ country: 'DE', street: 'Hauptstraße', housenumber: '1', postcode: TOWNS.north.zip, city: 'Neustadt', district: '', lat: TOWNS.north.lat, lon: TOWNS.north.lon });
    const idx = indexOfBatch(b);
    expect(idx.meta.counts.streets).toBe(3);
    for (const t of Object.values(TOWNS)) {
      const r = lookup(idx, { address: `Mühlweg, ${t.zip === TOWNS.north.zip ? t.zip + ' ' : ''}Neustadt`, country: 'DE' });
      expect(r.matchlevel).toBe('street');
    }
  });
});

describe('CellLinker: exact at the linkage distance, wherever the grid falls', () => {
  it('links 1.99 km gaps and never 2.01 km gaps, diagonally and shifted', () => {
    for (const shift of [0, 0.0013, 0.0071, 0.0123]) {
      for (const angle of [0, 0.4, Math.PI / 4, 1.2]) {
        const at = (m: number): [number, number] => [48 + shift + dLat(m * Math.sin(angle)), 8 + shift + (m * Math.cos(angle)) / (111_320 * Math.cos((48 * Math.PI) / 180))];
        expect(new Set(components([at(0), at(1990), at(3980)])).size, `${shift} ${angle}`).toBe(1);
        expect(new Set(components([at(0), at(2010), at(4020)])).size, `${shift} ${angle}`).toBe(3);
      }
    }
  });
});
