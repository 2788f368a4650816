/**
 * National-scale index build (issue 9), `npm run bench -- index-scale`:
 *
 *  1. generates (once, cached in .cache/index-scale/) an OpenAddresses CSV of N points
 *     (INDEX_SCALE_POINTS, default 30M) from the real BANO points (scripts/gen-oa-national.ts);
 *  2. baseline: the previous builder (git 388608f, whole build in JS objects) and the current one
 *     on the first BASE points (INDEX_SCALE_BASE, default 2M): wall time and peak RSS, ratio;
 *  3. builds the N-point index in a child process: wall time, peak RSS, index size, peak temp disk;
 *  4. loads it cold (page cache dropped) in a fresh process; RSS with 1 and 2 worker threads;
 *  5. lookups/s on one core, structured and free text, on a mix with typos, unknown streets and
 *     wrong postcodes, p50/p99 latency; baseline: the same queries on the real-data-only index;
 *  6. accuracy on the real copy inside the N-point index (eval/lookup's query variants), beside
 *     the same suite on the real-data-only index.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { PROJECT_ROOT, hasSharedData, sharedDataPath } from '../src/config/shared-data.ts';
import { loadIndexFile } from '../src/data/index-file.ts';
import { openIndex, type AddressIndex } from '../src/engine/index/index.ts';
import { lookup } from '../src/engine/lookup/index.ts';
import type { SearchRequest } from '../src/contract/requests.ts';
import { runSuite, sample, type Truth, type Variant } from '../eval/lookup/suites.ts';
import { readBanoRows } from '../eval/support/bano-rows.ts';
import { lookupMix, MIX_CATEGORY } from '../tools/lookup-mix.ts';

if (!hasSharedData('bano-fr-2015')) {
  console.log('SKIPPED: ../shared/data/bano-fr-2015 is absent (the generator needs the real BANO points)');
  process.exit(0);
}
const N = Number(process.env.INDEX_SCALE_POINTS ?? 30_000_000);
const BASE = Number(process.env.INDEX_SCALE_BASE ?? 2_000_000);
const OLD_COMMIT = '388608fe538f66010c678e19d4a75457b38606a2';
const work = resolve(PROJECT_ROOT, '.cache', 'index-scale');
const tmp = join(work, 'tmp');
mkdirSync(join(work, 'fr'), { recursive: true });
const FR_PC = sharedDataPath('geonames-postalcodes', 'FR.csv.gz');
const mb = (b: number) => `${(b / 1048576).toFixed(0)} MiB`;
const gb = (b: number) => `${(b / 1073741824).toFixed(2)} GiB`;
const sec = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const node = process.execPath;

function childJson<T>(args: string[], opts: { cwd?: string } = {}): T {
  const r = spawnSync(node, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 1 << 26, ...opts });
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited with ${r.status ?? r.signal}`);
  return JSON.parse(r.stdout.trim().split('\n').at(-1)!) as T;
}

// ---- 1. input files
const file = join(work, 'fr', `oa-national-${N}.csv`);
if (!existsSync(file)) {
  const t = performance.now();
  execFileSync(node, [join(PROJECT_ROOT, 'scripts', 'gen-oa-national.ts'), file, String(N)], { stdio: 'inherit' });
  console.log(`generated ${file} (${gb(statSync(file).size)}) in ${sec(performance.now() - t)}`);
}
const realRows = readBanoRows();
const head = (n: number, name: string) => {
  const f = join(work, 'fr', name);
  if (!existsSync(f)) execFileSync('bash', ['-c', `head -n ${n + 1} '${file}' > '${f}'`]);
  return f;
};
const baseFile = head(BASE, `oa-head-${BASE}.csv`);
const realFile = head(realRows.length, `oa-real-${realRows.length}.csv`);

// INDEX_SCALE_BUILD=0 measures an index built by an earlier run (load, lookups, accuracy, RSS)
const dir = join(work, `idx-${N}`);
const rebuild = process.env.INDEX_SCALE_BUILD !== '0' || !existsSync(join(dir, 'index.bin'));
interface BuildOut { wallMs: number; cpuMs: number; maxRss: number; bytes: number; addressPoints: number; peakTempBytes: number; readMs: number; buildMs: number }
const load = () => `load average ${readFileSync('/proc/loadavg', 'utf8').split(' ')[0]} on ${availableParallelism()} cores`;
if (rebuild) buildBoth();
else console.log(`INDEX_SCALE_BUILD=0: measuring the index built earlier in ${dir} (no build, no baseline build)`);

function buildBoth(): void {
  // ---- 2. baseline: previous builder vs current on BASE points
const oldDir = join(work, 'old-builder');
let oldRes: { ms: number; maxRss: number; points: number } | undefined;
try {
  if (!existsSync(join(oldDir, 'src'))) {
    mkdirSync(oldDir, { recursive: true });
    execFileSync('bash', ['-c', `git -C '${PROJECT_ROOT}' archive ${OLD_COMMIT} src | tar -x -C '${oldDir}'`]);
  }
  writeFileSync(join(oldDir, 'run-old.ts'), `import { buildIndex } from './src/data/build-index.ts';
const t = performance.now();
const { stats } = await buildIndex({ openaddresses: [process.argv[2]] });
console.log(JSON.stringify({ ms: performance.now() - t, maxRss: process.resourceUsage().maxRSS * 1024, points: stats.addressPoints }));
`);
  oldRes = childJson([join(oldDir, 'run-old.ts'), baseFile]);
} catch (err) {
  console.log(`baseline (previous builder) failed on ${BASE} points: ${(err as Error).message}`);
}
const newBase = childJson<BuildOut>([join(PROJECT_ROOT, 'bench', 'index-scale-build.ts'), join(work, 'idx-base'), tmp, baseFile]);
if (oldRes) {
  console.log(`baseline at ${BASE} points: previous builder ${sec(oldRes.ms)}, peak RSS ${mb(oldRes.maxRss)}; current builder ${sec(newBase.wallMs)}, peak RSS ${mb(newBase.maxRss)}; ratio ${(oldRes.ms / newBase.wallMs).toFixed(1)}× faster, ${(oldRes.maxRss / newBase.maxRss).toFixed(1)}× less memory`);
}

// ---- 3. the N-point build
console.log(`building ${N} points …`);
const big = childJson<BuildOut>([join(PROJECT_ROOT, 'bench', 'index-scale-build.ts'), dir, tmp, file, FR_PC]);
console.log(`${N}-point build: ${sec(big.wallMs)} wall, ${sec(big.cpuMs)} CPU (${load()} at the end) (read ${sec(big.readMs)}, build ${sec(big.buildMs)}) (target ≤ 600 s: ${big.wallMs <= 600_000 ? 'met' : 'NOT met'}); peak RSS ${gb(big.maxRss)} (target ≤ 6 GiB: ${big.maxRss <= 6 * 1073741824 ? 'met' : 'NOT met'}); index ${gb(big.bytes)}; peak temporary disk ${gb(big.peakTempBytes)}; ${Math.round(big.addressPoints / (big.wallMs / 1000))} points/s vs ${Math.round(newBase.addressPoints / (newBase.wallMs / 1000))} points/s at ${BASE}`);

}

// ---- 4. cold load and worker RSS
function dropCache(): string {
  try {
    execFileSync('bash', ['-c', 'sync && echo 3 > /proc/sys/vm/drop_caches'], { stdio: 'ignore' });
    return 'page cache dropped (echo 3 > /proc/sys/vm/drop_caches)';
  } catch {
    try {
      execFileSync('dd', [`if=${join(dir, 'index.bin')}`, 'iflag=nocache', 'count=0', 'status=none']);
      return 'drop_caches not permitted; the index file\'s pages evicted with dd iflag=nocache';
    } catch {
      return 'could NOT drop the page cache: this is a warm load';
    }
  }
}
const how = dropCache();
const cold = childJson<{ loadMs: number; bytes: number }>([join(PROJECT_ROOT, 'bench', 'index-scale-load.ts'), dir]);
const warm = childJson<{ loadMs: number; bytes: number }>([join(PROJECT_ROOT, 'bench', 'index-scale-load.ts'), dir]);
console.log(`load: cold ${sec(cold.loadMs)} (${how}) (target ≤ 5 s: ${cold.loadMs <= 5000 ? 'met' : 'NOT met'}); warm ${sec(warm.loadMs)}; ratio cold/warm ${(cold.loadMs / warm.loadMs).toFixed(1)}×`);

// ---- 5. lookups on one core
const index = openIndex(await loadIndexFile(dir));
const truth: Truth[] = sample(realRows, 3000, 11).map((r) => ({ street: r.street, hn: r.hn, postcode: r.postcode, city: r.city, country: 'FR', lat: r.lat, lon: r.lon }));
function rate(idx: AddressIndex, qs: SearchRequest[]): { perS: number; perCpuS: number; p50: number; p99: number; hn: number; byCategory: string } {
  for (let i = 0; i < 2000; i++) lookup(idx, qs[i % qs.length]!);
  const lat: number[] = [];
  const catMs: Record<string, [number, number]> = {};
  let hn = 0;
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  while (performance.now() - t0 < 4000) {
    qs.forEach((q, i) => {
      const t = performance.now();
      if (lookup(idx, q).matchlevel === 'housenumber') hn++;
      const ms = performance.now() - t;
      lat.push(ms);
      const c = (catMs[MIX_CATEGORY[i % 10]!] ??= [0, 0]);
      c[0] += ms; c[1]++;
    });
  }
  const total = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  lat.sort((a, b) => a - b);
  const byCategory = Object.entries(catMs).map(([c, [ms, n]]) => `${c} ${Math.round(n / (ms / 1000))}/s`).join(', ');
  return { perS: lat.length / (total / 1000), perCpuS: lat.length / (cpuMs / 1000), p50: lat[lat.length >> 1]!, p99: lat[Math.floor(lat.length * 0.99)]!, hn: hn / lat.length, byCategory };
}
const realDir = join(work, 'idx-real');
if (rebuild || !existsSync(join(realDir, 'index.bin'))) childJson<BuildOut>([join(PROJECT_ROOT, 'bench', 'index-scale-build.ts'), realDir, tmp, realFile, FR_PC]);
const realIndex = openIndex(await loadIndexFile(realDir));
for (const free of [false, true]) {
  const qs = lookupMix(free);
  const r = rate(index, qs), b = rate(realIndex, qs);
  const target = free ? 10_000 : 20_000;
  console.log(`${free ? 'free-text' : 'structured'} lookups on the ${N}-point index, one core, mix of 70 % clean / 10 % typo / 10 % unknown street / 10 % wrong postcode: ${Math.round(r.perS)}/s wall, ${Math.round(r.perCpuS)} per CPU-second (${load()}) (target ${target}: ${Math.max(r.perS, r.perCpuS) >= target ? 'met' : 'NOT met'}), p50 ${(r.p50 * 1000).toFixed(0)} µs, p99 ${(r.p99 * 1000).toFixed(0)} µs, housenumber-level ${(r.hn * 100).toFixed(1)} %; by kind: ${r.byCategory}; baseline real-data-only index (${realRows.length} points): ${Math.round(b.perS)}/s, p99 ${(b.p99 * 1000).toFixed(0)} µs (${b.byCategory}); ratio ${(b.perS / r.perS).toFixed(1)}× slower at ${N}`);
}

// ---- 6. accuracy on the real copy
const variants: Variant[] = ['clean structured', 'free text: street hn, zip city', 'free text: zip city street hn', 'free text: hn street city zip', 'no postcode', 'one typo in street', 'wrong postcode'];
const big6 = runSuite(index, truth, variants, lookup).results;
const real6 = runSuite(realIndex, truth, variants, lookup).results;
const floors: Partial<Record<Variant, number>> = { 'clean structured': 0.995, 'free text: street hn, zip city': 0.99, 'free text: zip city street hn': 0.99, 'free text: hn street city zip': 0.99, 'one typo in street': 0.97 };
for (let i = 0; i < variants.length; i++) {
  const v = variants[i]!, r = big6[i]!, b = real6[i]!;
  const floor = floors[v];
  console.log(`accuracy on the real copy, ${v}: ${(r.hnRate * 100).toFixed(2)} % of ${r.n}${floor ? ` (floor ${(floor * 100).toFixed(1)} %: ${r.hnRate >= floor ? 'met' : 'NOT met'})` : ''}; real-data-only index ${(b.hnRate * 100).toFixed(2)} %; ratio ${(r.hnRate / b.hnRate).toFixed(3)}`);
}

// ---- RSS: the index in one SharedArrayBuffer, 1 and 2 worker threads (bench/lookup-rss.ts)
const queriesFile = join(work, 'rss-queries.json');
writeFileSync(queriesFile, JSON.stringify([...lookupMix(false).slice(0, 2000), ...lookupMix(true).slice(0, 2000)]));
interface RssResult { threads: number; rssIndexOnly: number; rss: number }
const rssChild = (threads: number) => childJson<RssResult>(['--expose-gc', join(PROJECT_ROOT, 'bench', 'lookup-rss.ts'), dir, queriesFile, String(threads)]);
// one process's RSS varies by ±20 MiB (allocator and GC timing): five alternating pairs, medians
const PAIRS = 5;
const pairs: [RssResult, RssResult][] = [];
for (let i = 0; i < PAIRS; i++) pairs.push([rssChild(1), rssChild(2)]);
const median = (xs: number[]) => xs.slice().sort((a, b) => a - b)[xs.length >> 1]!;
const deltas = pairs.map(([a, b]) => b.rss - a.rss);
const delta = median(deltas);
const r1 = median(pairs.map(([a]) => a.rss)), r2 = median(pairs.map(([, b]) => b.rss)), idxOnly = median(pairs.map(([a]) => a.rssIndexOnly));
console.log(`RSS (median of ${PAIRS} alternating runs): index only ${gb(idxOnly)}; 1 worker thread ${gb(r1)}; 2 worker threads ${gb(r2)}; the second thread adds ${mb(delta)} = ${(delta / 1e6).toFixed(1)} MB (runs: ${deltas.map(mb).join(', ')}) (target ≤ 60 MB: ${delta <= 60e6 ? 'met' : 'NOT met'}); ratio to the index ${(delta / idxOnly * 100).toFixed(1)} %`);
rmSync(tmp, { recursive: true, force: true });
