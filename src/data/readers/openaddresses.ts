/**
 * OpenAddresses, in both forms its downloads come in (https://batch.openaddresses.io/data,
 * the format described in https://github.com/openaddresses/openaddresses and
 * https://github.com/openaddresses/batch):
 *
 * - CSV (the long-standing "collection" form): UTF-8, `,`-separated, RFC 4180 quoting, header
 *   `LON,LAT,NUMBER,STREET,UNIT,CITY,DISTRICT,REGION,POSTCODE,ID,HASH`;
 * - GeoJSON lines (the current form, `.geojson`): one GeoJSON Feature per line,
 *   `{"type":"Feature","properties":{"hash","number","street","unit","city","district","region",
 *   "postcode","id"},"geometry":{"type":"Point","coordinates":[lon,lat]}}`.
 *
 * Either plain or gzip (by content). The form is chosen by the extension (.csv; .geojson,
 * .geojsonl, .geojsonld, .jsonl, .ndjson), else by the first byte (`{` is GeoJSON). The country
 * comes from a two-letter folder in the path (OpenAddresses' layout, `de/berlin.csv`), or a
 * `cc-`/`cc_` file prefix, or, when absent, from the nearest city at build time.
 */
import { createReadStream, statSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { isUtf8 } from 'node:buffer';
import { readCsvFile } from '../../csv/reader.ts';
import { gunzipIfGzip } from '../../csv/gzip.ts';
import { isCountryCode } from '../../engine/lookup/parse/countries.ts';
import type { ReaderProgress, SourceReader, SourceSink } from '../source-sink.ts';
import type { AddressPoint } from '../source-types.ts';
import { positionOf } from './position.ts';

export function countryFromPath(path: string): string {
  for (const part of dirname(path).split(/[\\/]/).reverse()) {
    if (/^[a-z]{2}$/i.test(part) && isCountryCode(part.toUpperCase())) return part.toUpperCase();
  }
  const m = /^([a-z]{2})[-_]/i.exec(basename(path));
  return m && isCountryCode(m[1]!.toUpperCase()) ? m[1]!.toUpperCase() : '';
}

/** The OpenAddresses form of a file: by extension, else by its first significant byte. */
export async function openAddressesForm(path: string): Promise<'csv' | 'geojson'> {
  const name = path.toLowerCase().replace(/\.gz$/, '');
  if (name.endsWith('.csv')) return 'csv';
  if (/\.(geojsonl?|geojsonld|jsonl|ndjson|json)$/.test(name)) return 'geojson';
  for await (const chunk of gunzipIfGzip(createReadStream(path, { start: 0, end: 65_535 }))) {
    for (const c of chunk) {
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09 || c === 0xef || c === 0xbb || c === 0xbf) continue;
      return c === 0x7b /* { */ ? 'geojson' : 'csv';
    }
  }
  return 'csv';
}

/** Fills `a` from the OpenAddresses fields, or answers why the row cannot be used. */
function fill(a: AddressPoint, number: unknown, street: unknown, at: ReturnType<typeof positionOf>, rest: { unit: unknown; city: unknown; district: unknown; postcode: unknown }): string | undefined {
  if (typeof at === 'string') return at;
  const hn = str(number);
  if (!hn) return 'no-housenumber';
  const st = str(street);
  if (!st) return 'no-street';
  a.housenumber = hn;
  a.street = st;
  a.city = str(rest.city);
  a.district = str(rest.district);
  a.postcode = str(rest.postcode);
  const unit = str(rest.unit);
  if (unit) a.unit = unit;
  else delete a.unit;
  a.lat = at.lat;
  a.lon = at.lon;
  return undefined;
}

function str(v: unknown): string {
  return typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '';
}

export const readOpenAddresses: SourceReader = async (path: string, sink: SourceSink, progress?: ReaderProgress) => {
  const a: AddressPoint = { country: countryFromPath(path), street: '', housenumber: '', postcode: '', city: '', district: '', lat: 0, lon: 0 };
  if ((await openAddressesForm(path)) === 'geojson') return readGeojsonLines(path, a, sink, progress);
  let col: Record<string, number> = {};
  let width = 0;
  await readCsvFile(path, { delimiter: ',', header: true, ...(progress ? { progress } : {}) }, {
    onHeader(fields) {
      const names = fields.map((f) => f.trim().toUpperCase());
      const missing = ['LON', 'LAT', 'NUMBER', 'STREET'].filter((r) => !names.includes(r));
      if (missing.length) throw new Error(`${path}: not an OpenAddresses CSV: the header has no ${missing.join(', ')} column (header: ${fields.join(',')})`);
      col = Object.fromEntries(names.map((n, i) => [n, i]));
      width = Math.max(col.LON!, col.LAT!, col.NUMBER!, col.STREET!) + 1;
    },
    onRow(f) {
      if (f.length < width) return sink.reject('short-row');
      const g = (n: string) => (col[n] === undefined ? '' : f[col[n]!] ?? '');
      const why = fill(a, g('NUMBER'), g('STREET'), positionOf(g('LAT'), g('LON')), { unit: g('UNIT'), city: g('CITY'), district: g('DISTRICT'), postcode: g('POSTCODE') });
      if (why) sink.reject(why);
      else sink.address(a);
    },
    onProblem(problem, _record, line) {
      sink.reject(problem, line);
    },
  });
};

/** One GeoJSON Feature per line; a line that is not one is counted (`bad-json`, `not-a-feature`). */
async function readGeojsonLines(path: string, a: AddressPoint, sink: SourceSink, progress?: ReaderProgress): Promise<void> {
  const total = statSync(path).size;
  const raw = createReadStream(path, { highWaterMark: 1 << 20 });
  let carry: Buffer | undefined;
  let lastReport = 0;
  const line = (buf: Buffer, s: number, e: number): void => {
    if (e > s && buf[e - 1] === 13) e--;
    while (s < e && (buf[s] === 0x20 || buf[s] === 0x09 || buf[s] === 0xef || buf[s] === 0xbb || buf[s] === 0xbf)) s++;
    if (s === e) return;
    if (!isUtf8(buf.subarray(s, e))) return sink.reject('bad-utf8');
    let f: { type?: unknown; properties?: Record<string, unknown> | null; geometry?: { type?: unknown; coordinates?: unknown } | null };
    try {
      f = JSON.parse(buf.toString('utf8', s, e));
    } catch {
      return sink.reject('bad-json');
    }
    if (typeof f !== 'object' || f === null || f.type !== 'Feature') return sink.reject('not-a-feature');
    const p = f.properties ?? {};
    const g = f.geometry;
    let at: ReturnType<typeof positionOf> = 'no-coordinates';
    if (g && g.type === 'Point' && Array.isArray(g.coordinates)) at = positionOf(g.coordinates[1], g.coordinates[0]);
    else if (g) at = 'bad-coordinates';
    const why = fill(a, p.number, p.street, at, { unit: p.unit, city: p.city, district: p.district, postcode: p.postcode });
    if (why) sink.reject(why);
    else sink.address(a);
  };
  try {
    for await (const chunk of gunzipIfGzip(raw)) {
      const buf = carry ? Buffer.concat([carry, chunk]) : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      let start = 0;
      let nl: number;
      while ((nl = buf.indexOf(10, start)) !== -1) {
        line(buf, start, nl);
        start = nl + 1;
      }
      carry = start < buf.length ? Buffer.from(buf.subarray(start)) : undefined;
      if (progress && raw.bytesRead - lastReport >= 1 << 24) {
        lastReport = raw.bytesRead;
        progress(raw.bytesRead, total);
      }
    }
    if (carry) line(carry, 0, carry.length);
    progress?.(raw.bytesRead, total);
  } finally {
    raw.destroy();
  }
}
