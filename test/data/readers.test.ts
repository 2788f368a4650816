/**
 * The index-build readers that the real-data evaluation does not reach (OpenAddresses, GeoNames'
 * own tab-separated dump), on small files this test writes itself, plus a build → lookup round
 * trip through the real CLI.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readOpenAddresses, countryFromPath } from '../../src/data/readers/openaddresses.ts';
import { collectSource } from '../../src/data/readers/collect.ts';
import { readGeonamesPostcodes } from '../../src/data/readers/geonames-postcodes.ts';
import { runCli } from '../helpers/cli.ts';

async function geonames(path: string) {
  return (await collectSource(readGeonamesPostcodes, path)).batch;
}

let dir: string;
let oaFile: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'addrflow-readers-'));
  mkdirSync(join(dir, 'de'));
  oaFile = join(dir, 'de', 'berlin.csv');
  writeFileSync(oaFile, [
    'LON,LAT,NUMBER,STREET,UNIT,CITY,DISTRICT,REGION,POSTCODE,ID,HASH',
    '13.3777,52.5163,1,Pariser Platz,,Berlin,Mitte,BE,10117,,a1',
    '13.3890,52.5170,"12a","Unter den Linden, Nord",,Berlin,Mitte,BE,10117,,a2',
    '13.40,52.52,,Ohne Nummer,,Berlin,,BE,10178,,a3',
    'x,52.52,5,Kaputt,,Berlin,,BE,10178,,a4',
    ',,7,Leer,,Berlin,,BE,10178,,a5',
  ].join('\n') + '\n');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('OpenAddresses reader', () => {
  it('reads address points by header name, handles quoted commas, skips rows without number or coordinates', async () => {
    const { batch: b } = await collectSource(readOpenAddresses, oaFile);
    expect(b.addresses).toEqual([
      { country: 'DE', street: 'Pariser Platz', housenumber: '1', postcode: '10117', city: 'Berlin', district: 'Mitte', lat: 52.5163, lon: 13.3777 },
      { country: 'DE', street: 'Unter den Linden, Nord', housenumber: '12a', postcode: '10117', city: 'Berlin', district: 'Mitte', lat: 52.517, lon: 13.389 },
    ]);
  });

  it('takes the country from OpenAddresses’ folder layout or a cc- file prefix', () => {
    expect(countryFromPath('/data/oa/at/wien.csv')).toBe('AT');
    expect(countryFromPath('/data/oa/fr-paris.csv')).toBe('FR');
    expect(countryFromPath('/data/oa/addresses.csv')).toBe('');
  });
});

describe('GeoNames postcode reader', () => {
  const tab = [
    ['LI', '9490', 'Vaduz', 'Vaduz', '11', '', '', '', '', '47.1415', '9.5215', '4'],
    ['AT', '6800', 'Feldkirch', 'Vorarlberg', '08', 'Politischer Bezirk Feldkirch', '804', 'Feldkirch', '80404', '47.2333', '9.6', '4'],
    ['AT', '0000', 'No position', 'Nowhere', '', '', '', '', '', '', '', ''],
  ].map((r) => r.join('\t')).join('\n') + '\n';

  it('reads GeoNames’ own tab-separated dump, plain and gzipped, and skips rows without a position', async () => {
    writeFileSync(join(dir, 'allCountries.txt'), tab);
    writeFileSync(join(dir, 'allCountries.txt.gz'), gzipSync(tab));
    const expected = [
      { country: 'LI', code: '9490', place: 'Vaduz', state: 'Vaduz', stateCode: '11', county: '', lat: 47.1415, lon: 9.5215 },
      { country: 'AT', code: '6800', place: 'Feldkirch', state: 'Vorarlberg', stateCode: '08', county: 'Politischer Bezirk Feldkirch', lat: 47.2333, lon: 9.6 },
    ];
    expect((await geonames(join(dir, 'allCountries.txt'))).postcodes).toEqual(expected);
    expect((await geonames(join(dir, 'allCountries.txt.gz'))).postcodes).toEqual(expected);
  });

  it('reads the CSV republication by its header', async () => {
    writeFileSync(join(dir, 'LI.csv'), 'country_code,zipcode,place,state,state_code,province,province_code,community,community_code,latitude,longitude\nLI,9490,Vaduz,Vaduz,7001,,,,,47.1431,9.5256\nLI,9999,Nowhere,,,,,,,,\n');
    expect((await geonames(join(dir, 'LI.csv'))).postcodes).toEqual([
      { country: 'LI', code: '9490', place: 'Vaduz', state: 'Vaduz', stateCode: '7001', county: '', lat: 47.1431, lon: 9.5256 },
    ]);
  });
});

describe('index build → lookup, through the CLI', () => {
  it('finds an OpenAddresses point at house-number level with full relevance, by structured and free-text queries', async () => {
    const out = join(dir, 'idx');
    const built = await runCli(['index', 'build', '--out', out, '--openaddresses', oaFile]);
    expect(built.code, built.stderr).toBe(0);
    const queries = [
      { id: 's', street: 'Pariser Platz', housenumber: '1', zip: '10117', city: 'Berlin' },
      { id: 'f', address: '10117 Berlin Pariser Platz 1' },
    ].map((q) => JSON.stringify(q)).join('\n');
    const r = await runCli(['run', '--op', 'search', '--index', out, '--progress', 'off'], { stdin: queries });
    expect(r.code, r.stderr).toBe(0);
    const records = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
    for (const rec of records) {
      expect(rec).toMatchObject({ country_iso_2: 'DE', street: 'Pariser Platz', housenumber: '1', zip: '10117', city: 'Berlin', matchlevel: 'housenumber', latitude: '52.5163', longitude: '13.3777' });
      expect(Number(rec.relevance)).toBeGreaterThanOrEqual(90);
    }
  }, 120_000);
});

describe('OSM addr:interpolation', () => {
  const node = (housenumber: string, lon: number, lat: number) => ({ country: 'LI', street: 'Landstrasse', housenumber, postcode: '9495', city: 'Triesen', district: '', lat, lon });

  it('places the numbers between two address nodes along the way, proportionally to their numbers', async () => {
    const { interpolateAddresses } = await import('../../src/data/readers/interpolation.ts');
    // A way of three nodes bending at node 2: 1 → 9 (odd), total length 2 (1 east, then 1 north).
    const refs = [1, 2, 3];
    const coords = [9.0, 47.0, 9.001, 47.0, 9.001, 47.001];
    const nodes = new Map([[1, node('1', 9.0, 47.0)], [3, node('9', 9.001, 47.001)]]);
    const pts = interpolateAddresses(refs, coords, nodes, 'odd');
    expect(pts.map((p) => p.housenumber)).toEqual(['3', '5', '7']);
    // 3 is a quarter of the way (on the first leg), 5 the bend, 7 three quarters (second leg).
    expect(pts[0]!.lon).toBeCloseTo(9.0005, 9);
    expect(pts[0]!.lat).toBeCloseTo(47.0, 9);
    expect(pts[1]!.lon).toBeCloseTo(9.001, 9);
    expect(pts[1]!.lat).toBeCloseTo(47.0, 9);
    expect(pts[2]!.lat).toBeCloseTo(47.0005, 9);
    expect(pts.every((p) => p.street === 'Landstrasse' && p.postcode === '9495')).toBe(true);
  });

  it('counts down, steps by `all` or a number, and ignores ways it cannot read', async () => {
    const { interpolateAddresses } = await import('../../src/data/readers/interpolation.ts');
    const nodes = new Map([[1, node('10', 9.0, 47.0)], [2, node('4', 9.003, 47.0)]]);
    expect(interpolateAddresses([1, 2], [9.0, 47.0, 9.003, 47.0], nodes, 'even').map((p) => p.housenumber)).toEqual(['8', '6']);
    expect(interpolateAddresses([1, 2], [9.0, 47.0, 9.003, 47.0], nodes, 'all').map((p) => p.housenumber)).toEqual(['9', '8', '7', '6', '5']);
    expect(interpolateAddresses([1, 2], [9.0, 47.0, 9.003, 47.0], nodes, '3').map((p) => p.housenumber)).toEqual(['7']);
    expect(interpolateAddresses([1, 2], [9.0, 47.0, 9.003, 47.0], nodes, 'alphabetic')).toEqual([]);
    expect(interpolateAddresses([1, 2], [9.0, 47.0], nodes, 'all')).toEqual([]); // a node without coordinates
    expect(interpolateAddresses([1, 2], [9.0, 47.0, 9.003, 47.0], new Map([[1, node('1a', 9, 47)], [2, node('x', 9.003, 47)]]), 'all')).toEqual([]);
  });
});
