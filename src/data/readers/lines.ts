/**
 * Line and CSV helpers for the source readers: plain or gzip files, RFC 4180-style quoting.
 */
import { createReadStream, statSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';

/**
 * The lines of a plain or gzip text file. `progress` (optional) hears the file bytes read so
 * far (compressed bytes for .gz) and the file's size, about every 64k lines.
 */
export async function* readTextLines(path: string, progress?: (done: number, total: number) => void): AsyncGenerator<string> {
  const raw = createReadStream(path);
  const input = path.endsWith('.gz') ? raw.pipe(createGunzip()) : raw;
  const rl = createInterface({ input, crlfDelay: Infinity });
  const total = progress ? statSync(path).size : 0;
  let n = 0;
  for await (const line of rl) {
    if (progress && (++n & 0xffff) === 0) progress(raw.bytesRead, total);
    yield line;
  }
  progress?.(total, total);
}

/** Splits one CSV line; quoted fields may hold the separator and doubled quotes. */
export function splitCsv(line: string, sep = ','): string[] {
  if (!line.includes('"')) return line.split(sep);
  const out: string[] = [];
  let cur = '';
  let q = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (q) {
      if (ch === '"') {
        if (line[i + 1] === '"') { cur += '"'; i++; } else q = false;
      } else cur += ch;
    } else if (ch === '"') q = true;
    else if (ch === sep) { out.push(cur); cur = ''; }
    else cur += ch;
  }
  out.push(cur);
  return out;
}

/**
 * A position read from text: the latitude and longitude, or undefined when either is missing,
 * not a number or out of range (an empty field must not become 0, a point in the Gulf of Guinea).
 */
export function parsePosition(lat: string | undefined, lon: string | undefined): { lat: number; lon: number } | undefined {
  if (!lat || !lon || !lat.trim() || !lon.trim()) return undefined;
  const y = Number(lat);
  const x = Number(lon);
  if (!Number.isFinite(y) || !Number.isFinite(x) || Math.abs(y) > 90 || Math.abs(x) > 180) return undefined;
  return { lat: y, lon: x };
}
