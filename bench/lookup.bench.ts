/**
 * Address lookup benchmark on an index of LI + Copenhagen + all BANO files (+ GeoNames postcodes
 * and the world city layer): build rate, load time, structured and free-text lookups/s on one
 * core, RSS with 1 and 2 worker threads sharing the index. Baselines in the same run: raw file
 * read speed (load), a plain Map lookup over the same keys (lookups), and the RSS of a process
 * holding only the loaded index (memory).
 *
 * RSS is measured in clean child processes (bench/lookup-rss.ts), three per thread count: each
 * only loads the index file into a SharedArrayBuffer and starts N worker threads
 * (bench/lookup-rss-worker.ts) that share it and run 12,000 lookups each through the engine, so
 * the index build done here does not colour it.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { PROJECT_ROOT, hasSharedData } from '../src/config/shared-data.ts';
import { buildIndexDir } from '../src/data/build-index.ts';
import { loadIndexFile } from '../src/data/index-file.ts';
import { openIndex } from '../src/engine/index/index.ts';
import { lookup } from '../src/engine/lookup/index.ts';
import type { SearchRequest } from '../src/contract/requests.ts';
import { INDEXES, banoTruth, osmTruth, sample, type Truth } from '../eval/lookup/suites.ts';

if (!hasSharedData('bano-fr-2015') || !hasSharedData('osm-liechtenstein-2024')) {
  console.log('SKIPPED: ../shared/data is absent');
  process.exit(0);
}
const mb = (b: number) => `${(b / 1048576).toFixed(1)} MB`;

// ---- build
const t0 = performance.now();
const dir = resolve(PROJECT_ROOT, '.cache', 'bench-lookup-index');
const stats = await buildIndexDir(dir, INDEXES.bench!);
const buildS = (performance.now() - t0) / 1000;
console.log(`index build: ${stats.addressPoints} address points in ${buildS.toFixed(1)} s = ${Math.round(stats.addressPoints / buildS)} points/s (read ${(stats.readMs / 1000).toFixed(1)} s, build ${(stats.buildMs / 1000).toFixed(1)} s); index ${mb(stats.bytes)}`);

// ---- load
const file = join(dir, 'index.bin');
let rawMs = Infinity, loadMs = Infinity;
for (let i = 0; i < 3; i++) {
  let t = performance.now();
  await readFile(file);
  rawMs = Math.min(rawMs, performance.now() - t);
  t = performance.now();
  openIndex(await loadIndexFile(dir));
  loadMs = Math.min(loadMs, performance.now() - t);
}
console.log(`index load (into SharedArrayBuffer + open): ${loadMs.toFixed(1)} ms; baseline raw readFile ${rawMs.toFixed(1)} ms; ratio ${(loadMs / rawMs).toFixed(2)}×`);

// ---- lookups
const sab = await loadIndexFile(dir);
const index = openIndex(sab);
const truth: Truth[] = [
  ...sample(osmTruth('osm-liechtenstein-2024'), 3000, 5),
  ...sample(osmTruth('osm-copenhagen-dk-2012'), 3000, 5),
  ...banoTruth(4000),
];
const structured: SearchRequest[] = truth.map((t) => ({ street: t.street, housenumber: t.hn, zip: t.postcode, city: t.city }));
const free: SearchRequest[] = truth.map((t) => ({ address: `${t.street} ${t.hn}, ${t.postcode} ${t.city}` }));

function rate(qs: SearchRequest[]): { perS: number; hn: number } {
  for (let i = 0; i < 2000; i++) lookup(index, qs[i % qs.length]!); // warm-up
  let n = 0, hn = 0;
  const t = performance.now();
  while (performance.now() - t < 3000) {
    for (const q of qs) { if (lookup(index, q).matchlevel === 'housenumber') hn++; n++; }
  }
  return { perS: n / ((performance.now() - t) / 1000), hn: hn / n };
}
// baseline: a plain Map from the exact structured key to a record, over the same keys
const map = new Map<string, object>();
for (const q of structured) map.set(`${q.street}|${q.housenumber}|${q.zip}|${q.city}`, { ...q });
let mn = 0;
const tm = performance.now();
while (performance.now() - tm < 1000) for (const q of structured) { if (map.get(`${q.street}|${q.housenumber}|${q.zip}|${q.city}`)) mn++; }
const mapPerS = mn / ((performance.now() - tm) / 1000);
const s = rate(structured);
const f = rate(free);
console.log(`structured lookups: ${Math.round(s.perS)}/s on one core (target 20000: ${s.perS >= 20000 ? 'met' : 'NOT met'}); housenumber-level ${(s.hn * 100).toFixed(1)} %; baseline Map.get ${Math.round(mapPerS)}/s; ratio ${(mapPerS / s.perS).toFixed(0)}× slower than a Map`);
console.log(`free-text lookups: ${Math.round(f.perS)}/s on one core (target 10000: ${f.perS >= 10000 ? 'met' : 'NOT met'}); housenumber-level ${(f.hn * 100).toFixed(1)} %`);

// ---- RSS with 1 and 2 worker threads sharing the index, each in a clean child process
const queriesFile = join(dir, 'rss-queries.json');
await writeFile(queriesFile, JSON.stringify(structured.slice(0, 3000).concat(free.slice(0, 3000))));
global.gc?.();
interface RssResult { threads: number; rssIndexOnly: number; rss: number; lookups: number; housenumber: number; indexBytes: number }
function rssChild(threads: number): RssResult {
  const r = spawnSync(process.execPath, ['--expose-gc', new URL('./lookup-rss.ts', import.meta.url).pathname, dir, queriesFile, String(threads)], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`lookup-rss.ts ${threads} failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as RssResult;
}
// thread heaps make single readings vary by a few MB: median of 3 child processes per count
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const runs1 = [1, 2, 3].map(() => rssChild(1));
const runs2 = [1, 2, 3].map(() => rssChild(2));
const base = median([...runs1, ...runs2].map((r) => r.rssIndexOnly));
const rss1 = median(runs1.map((r) => r.rss));
const rss2 = median(runs2.map((r) => r.rss));
const add = (rss2 - rss1) / rss1;
const range = (rs: RssResult[]) => `${mb(Math.min(...rs.map((r) => r.rss)))}–${mb(Math.max(...rs.map((r) => r.rss)))}`;
console.log(`RSS (clean child processes: index file in a SharedArrayBuffer + N worker threads doing lookups; median of 3): baseline index only ${mb(base)} (index buffer ${mb(runs1[0]!.indexBytes)}); with 1 worker thread ${mb(rss1)} (${range(runs1)}; ${(rss1 / base).toFixed(2)}× baseline); with 2 worker threads ${mb(rss2)} (${range(runs2)}; ${(rss2 / base).toFixed(2)}× baseline); the second thread adds ${(100 * add).toFixed(1)} % (target < 25 %: ${add < 0.25 ? 'met' : 'NOT met'})`);
