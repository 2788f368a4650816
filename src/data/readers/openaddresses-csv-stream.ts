/**
 * INTERIM streaming reader for OpenAddresses CSV (header
 * `LON,LAT,NUMBER,STREET,UNIT,CITY,DISTRICT,REGION,POSTCODE,ID,HASH`, columns found by name),
 * so that national files stream into the builder before the full OpenAddresses reader
 * (readers/openaddresses.ts, CSV + GeoJSON lines, written in parallel) lands; the lead replaces
 * this file's use in build-index.ts by that reader when merging. The country comes from the
 * path (`fr/…csv`), as in readers/openaddresses.ts.
 */
import { readTextLines, splitCsv, parsePosition } from './lines.ts';
import { countryFromPath } from './openaddresses.ts';
import type { AddressPoint } from '../source-types.ts';
import type { ReaderProgress, SourceSink } from '../source-sink.ts';

export async function readOpenAddressesCsvStream(path: string, sink: SourceSink, progress?: ReaderProgress): Promise<void> {
  const a: AddressPoint = { country: countryFromPath(path), street: '', housenumber: '', postcode: '', city: '', district: '', lat: 0, lon: 0, unit: '' };
  let col: number[] | undefined;
  for await (const line of readTextLines(path, progress)) {
    if (!line) continue;
    const f = splitCsv(line);
    if (!col) {
      const h = new Map(f.map((n, i) => [n.trim().toUpperCase(), i]));
      col = ['LON', 'LAT', 'NUMBER', 'STREET', 'UNIT', 'CITY', 'DISTRICT', 'POSTCODE'].map((n) => h.get(n) ?? -1);
      continue;
    }
    const g = (i: number) => (i >= 0 ? (f[i] ?? '').trim() : '');
    const at = parsePosition(g(col[1]!), g(col[0]!));
    if (!at) { sink.reject(g(col[1]!) || g(col[0]!) ? 'bad-coordinates' : 'no-coordinates'); continue; }
    a.housenumber = g(col[2]!); a.street = g(col[3]!); a.unit = g(col[4]!); a.city = g(col[5]!);
    a.district = g(col[6]!); a.postcode = g(col[7]!); a.lat = at.lat; a.lon = at.lon;
    if (!a.housenumber) { sink.reject('no-housenumber'); continue; }
    if (!a.street) { sink.reject('no-street'); continue; }
    sink.address(a);
  }
}
