/**
 * The OpenAddresses reader on hand-written fixtures in both published forms, CSV and GeoJSON
 * lines (test/data/fixtures/README.md), plain and gzip, chosen by extension or by content.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openAddressesForm, readOpenAddresses } from '../../../src/data/readers/openaddresses.ts';
import { collectSource } from '../../../src/data/readers/collect.ts';

const CSV = fileURLToPath(new URL('../fixtures/openaddresses/de/berlin-sample.csv', import.meta.url));
const GEOJSON = fileURLToPath(new URL('../fixtures/openaddresses/de/berlin-sample.geojson', import.meta.url));
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'addrflow-oa-'));
  mkdirSync(join(dir, 'de'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const expected = [
  { country: 'DE', street: 'Pariser Platz', housenumber: '1', postcode: '10117', city: 'Berlin', district: 'Mitte', lat: 52.5162746, lon: 13.3777221 },
  { country: 'DE', street: 'Unter den Linden; Nord, "Ecke"', housenumber: '12a', unit: 'Whg 3', postcode: '10117', city: 'Berlin', district: 'Mitte', lat: 52.5170365, lon: 13.3889953 },
  { country: 'DE', street: 'Alexanderplatz\n(Passage)', housenumber: '7', postcode: '10178', city: 'Berlin', district: 'Mitte', lat: 52.5219184, lon: 13.4132147 },
];

describe('OpenAddresses reader', () => {
  it('CSV: columns by name, quoted ; , "" and line breaks, unit kept apart; every rejected row counted', async () => {
    const { batch, counts } = await collectSource(readOpenAddresses, CSV);
    expect(batch.addresses).toEqual(expected);
    expect(counts.rejected).toEqual({ 'no-housenumber': 1, 'bad-coordinates': 1, 'no-coordinates': 1, 'no-street': 1, 'short-row': 1 });
  });

  it('GeoJSON lines: the same addresses; broken lines and non-features counted', async () => {
    const { batch, counts } = await collectSource(readOpenAddresses, GEOJSON);
    expect(batch.addresses).toEqual(expected);
    expect(counts.rejected).toEqual({ 'no-housenumber': 1, 'no-coordinates': 1, 'no-street': 1, 'bad-json': 1, 'not-a-feature': 1 });
  });

  it('reads both gzipped, and tells the form by content when the name does not', async () => {
    for (const [src, name] of [[CSV, 'a.csv.gz'], [GEOJSON, 'b.geojson.gz'], [GEOJSON, 'c.data.gz'], [CSV, 'd.data']] as const) {
      const f = join(dir, 'de', name);
      writeFileSync(f, name.endsWith('.gz') ? gzipSync(readFileSync(src)) : readFileSync(src));
      expect((await collectSource(readOpenAddresses, f)).batch.addresses, name).toEqual(expected);
    }
    expect(await openAddressesForm(join(dir, 'de', 'c.data.gz'))).toBe('geojson');
    expect(await openAddressesForm(join(dir, 'de', 'd.data'))).toBe('csv');
  });

  it('refuses a CSV without the OpenAddresses columns, naming the file', async () => {
    const f = join(dir, 'other.csv');
    writeFileSync(f, 'x,y,name\n1,2,a\n');
    await expect(collectSource(readOpenAddresses, f)).rejects.toThrow(/other\.csv: not an OpenAddresses CSV: the header has no LON, LAT, NUMBER, STREET column/);
  });
});
