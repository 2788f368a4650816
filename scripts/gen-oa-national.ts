/**
 * Writes a national-size OpenAddresses CSV made of the real BANO points in
 * ../shared/data/bano-fr-2015 (never committed; the output goes where you say):
 *
 *   node scripts/gen-oa-national.ts OUT.csv [N=30000000]
 *
 * Copy 0 is the real data, unchanged. Every other copy is moved (a per-copy offset of up to a
 * few degrees), its communes renamed to other REAL commune names of the data by a per-copy
 * shuffle (so the same street and commune names recur, as in a real country), and its postcodes
 * moved to départements the real data does not have (so the postcode is what separates a real
 * address from its copies). Rows are written in the published OpenAddresses CSV header
 * `LON,LAT,NUMBER,STREET,UNIT,CITY,DISTRICT,REGION,POSTCODE,ID,HASH`, quoted per RFC 4180.
 * Put the file under a folder named `fr/` so the reader takes the country from the path.
 */
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { createHash } from 'node:crypto';
import { mulberry32 } from '../eval/support/prng.ts';
import { readBanoRows } from '../eval/support/bano-rows.ts';

const q = (s: string) => (/[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);

export function generate(out: string, n: number): { rows: number; copies: number; real: number } {
  const rows = readBanoRows();
  const communes = [...new Set(rows.map((r) => r.city))].sort();
  const communeIdx = new Map(communes.map((c, i) => [c, i]));
  const realDepts = [...new Set(rows.map((r) => r.postcode.slice(0, 2)))].sort();
  const deptIdx = new Map(realDepts.map((d, i) => [d, i]));
  const free: string[] = [];
  for (let d = 1; d <= 95; d++) {
    const s = String(d).padStart(2, '0');
    if (s !== '20' && !deptIdx.has(s)) free.push(s);
  }
  const copies = Math.ceil(n / rows.length);
  mkdirSync(dirname(out), { recursive: true });
  const fd = openSync(out, 'w');
  let buf: string[] = ['LON,LAT,NUMBER,STREET,UNIT,CITY,DISTRICT,REGION,POSTCODE,ID,HASH'];
  const flush = () => { writeSync(fd, buf.join('\n') + '\n'); buf = []; };
  let written = 0;
  for (let c = 0; c < copies && written < n; c++) {
    // per-copy commune shuffle (Fisher–Yates), offset and postcode départements
    const rnd = mulberry32(1000 + c);
    const perm = communes.map((_, i) => i);
    for (let i = perm.length - 1; i > 0; i--) { const j = Math.floor(rnd() * (i + 1)); [perm[i], perm[j]] = [perm[j]!, perm[i]!]; }
    const dLon = c === 0 ? 0 : ((c % 9) - 4) * 1.1 + 0.013 * c;
    const dLat = c === 0 ? 0 : ((Math.floor(c / 9) % 7) - 3) * 0.8 + 0.007 * c;
    for (const r of rows) {
      if (written >= n) break;
      let city = r.city, postcode = r.postcode, id = r.id;
      if (c > 0) {
        city = communes[perm[communeIdx.get(r.city)!]!]!;
        const k = (c - 1) * realDepts.length + deptIdx.get(r.postcode.slice(0, 2))!;
        const round = Math.floor(k / free.length);
        postcode = free[k % free.length]! + String((Number(r.postcode.slice(2)) + round * 137) % 1000).padStart(3, '0');
        id = `${r.id}-c${c}`;
      }
      const lon = (r.lon + dLon).toFixed(7), lat = (r.lat + dLat).toFixed(7);
      const hash = createHash('md5').update(id).digest('hex').slice(0, 16);
      buf.push(`${lon},${lat},${q(r.hn)},${q(r.street)},,${q(city)},,,${postcode},${q(id)},${hash}`);
      written++;
      if (buf.length >= 20_000) flush();
    }
  }
  flush();
  closeSync(fd);
  return { rows: written, copies, real: rows.length };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [out, nArg] = process.argv.slice(2);
  if (!out) {
    console.error('usage: node scripts/gen-oa-national.ts OUT.csv [N=30000000]');
    process.exit(2);
  }
  const t = performance.now();
  const r = generate(out, Number(nArg ?? 30_000_000));
  console.log(`wrote ${r.rows} rows (${r.copies} copies of ${r.real} real BANO points) to ${out} in ${((performance.now() - t) / 1000).toFixed(1)} s`);
}
