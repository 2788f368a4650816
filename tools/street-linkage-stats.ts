/**
 * `node tools/street-linkage-stats.ts [BANO.csv.gz …]`: how many (street, commune) groups of real
 * BANO data split into several street documents at linkage distances from 0.5 to 5 km (the
 * measurement behind `LINK_METERS` in src/data/build/street-parts.ts), with the split groups at
 * the chosen distance listed. Default input: every bano-*.csv.gz in ../shared/data/bano-fr-2015.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { CellLinker, LINK_METERS } from '../src/data/build/street-parts.ts';
import { foldText } from '../src/engine/lookup/normalize/normalize.ts';
import { hasSharedData, sharedDataPath } from '../src/config/shared-data.ts';

let files = process.argv.slice(2);
if (files.length === 0) {
  if (!hasSharedData('bano-fr-2015')) { console.log(`SKIPPED: ${sharedDataPath('bano-fr-2015')} is absent`); process.exit(0); }
  files = readdirSync(sharedDataPath('bano-fr-2015')).filter((f) => /^bano-.*\.csv\.gz$/.test(f)).map((f) => sharedDataPath('bano-fr-2015', f));
}
// BANO: `id,numero,voie,code_post,nom_comm,source,lat,lon` (no quotes in these files)
const groups = new Map<string, number[]>();
let points = 0;
for (const f of files) {
  for (const line of gunzipSync(readFileSync(f)).toString('utf8').split('\n')) {
    const c = line.split(',');
    if (c.length < 8) continue;
    const lat = Number(c[c.length - 2]), lon = Number(c[c.length - 1]);
    if (!Number.isFinite(lat) || !Number.isFinite(lon) || (lat === 0 && lon === 0)) continue;
    const key = `${foldText(c[2]!)}|${foldText(c[4]!)}`;
    let g = groups.get(key);
    if (!g) groups.set(key, (g = []));
    g.push(lat, lon);
    points++;
  }
}
console.log(`${points} points, ${groups.size} (street, commune) groups`);
const out = new Int32Array(Math.max(...[...groups.values()].map((g) => g.length / 2)));
for (const R of [500, 1000, 1500, 2000, 3000, 5000]) {
  const linker = new CellLinker(R);
  let parts = 0, split = 0;
  const listed: string[] = [];
  for (const [key, g] of groups) {
    const k = g.length / 2;
    linker.reset(k, g[0]!);
    for (let i = 0; i < k; i++) linker.add(i, g[2 * i]!, g[2 * i + 1]!);
    const c = linker.components(out);
    parts += c;
    if (c > 1) {
      split++;
      if (R === LINK_METERS) {
        const n = new Array<number>(c).fill(0);
        for (let i = 0; i < k; i++) n[out[i]!]!++;
        listed.push(`  ${key}: parts of ${n.join(' + ')} points`);
      }
    }
  }
  console.log(`linkage ${R} m: ${split} groups split (${((100 * split) / groups.size).toFixed(2)} %), ${parts} street documents`);
  if (listed.length) console.log(listed.join('\n'));
}
