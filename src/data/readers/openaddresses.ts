/**
 * OpenAddresses CSV: header `LON,LAT,NUMBER,STREET,UNIT,CITY,DISTRICT,REGION,POSTCODE,ID,HASH`.
 * The country comes from a two-letter folder in the path (OpenAddresses' layout, `de/berlin.csv`)
 * or, when absent, from the nearest city at build time.
 */
import { basename, dirname } from 'node:path';
import { readTextLines, splitCsv, parsePosition } from './lines.ts';
import { emptyBatch, type SourceBatch } from '../source-types.ts';
import { isCountryCode } from '../../engine/lookup/countries.ts';

export function countryFromPath(path: string): string {
  for (const part of dirname(path).split(/[\\/]/).reverse()) {
    if (/^[a-z]{2}$/i.test(part) && isCountryCode(part.toUpperCase())) return part.toUpperCase();
  }
  const m = /^([a-z]{2})[-_]/i.exec(basename(path));
  return m && isCountryCode(m[1]!.toUpperCase()) ? m[1]!.toUpperCase() : '';
}

export async function readOpenAddresses(path: string): Promise<SourceBatch> {
  const b = emptyBatch();
  const country = countryFromPath(path);
  let h: Map<string, number> | undefined;
  for await (const line of readTextLines(path)) {
    if (!line) continue;
    const f = splitCsv(line);
    if (!h) { h = new Map(f.map((n, i) => [n.trim().toUpperCase(), i])); continue; }
    const g = (n: string) => (f[h!.get(n) ?? -1] ?? '').trim();
    const at = parsePosition(g('LAT'), g('LON'));
    if (!at || !g('NUMBER')) continue;
    b.addresses.push({
      country, street: g('STREET'), housenumber: g('NUMBER'), postcode: g('POSTCODE'),
      city: g('CITY'), district: g('DISTRICT'), ...at,
    });
  }
  return b;
}
