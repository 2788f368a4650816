/**
 * File-job throughput and memory: `addrflow run` over generated files of 1,000,000 records, for
 * both operations, with 1 and 2 worker threads, against a plain read → JSON.parse →
 * JSON.stringify → write of the same file in the same run (the I/O floor). Then a
 * 10,000,000-record NDJSON lines job, to show that peak RSS stays flat as the file grows tenfold.
 *
 * Lines requests are generated (tools/generate-requests.ts). Search requests are real addresses
 * from ../shared/data (LI, Copenhagen, a BANO sample), half structured and half free text, run on
 * the benchmark index (LI + Copenhagen + all BANO files); that part is skipped without the data.
 *
 *   npm run bench -- file-job                 (ADDRFLOW_BENCH_QUICK=1 for 200k / 1M records)
 */
import { spawnSync } from 'node:child_process';
import { createReadStream, createWriteStream, existsSync, mkdirSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { generateLines } from '../tools/generate-requests.ts';
import { hasSharedData } from '../src/config/shared-data.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const cache = `${root}.cache/bench`;
mkdirSync(cache, { recursive: true });
const quick = process.env.ADDRFLOW_BENCH_QUICK === '1';
const N = quick ? 200_000 : 1_000_000;
const BIG = quick ? 1_000_000 : 10_000_000;

async function ensureFile(name: string, count: number, format: 'ndjson' | 'array'): Promise<string> {
  const path = `${cache}/${name}`;
  if (existsSync(path)) return path;
  const out = createWriteStream(path);
  let buf = format === 'array' ? '[\n' : '';
  let first = true;
  for (const line of generateLines(count, 42, 0)) {
    buf += format === 'array' ? (first ? '' : ',\n') + line : line + '\n';
    first = false;
    if (buf.length > 1 << 20) {
      if (!out.write(buf)) await once(out, 'drain');
      buf = '';
    }
  }
  out.end(format === 'array' ? buf + '\n]\n' : buf);
  await once(out, 'close');
  return path;
}

/** The floor: the same bytes read, parsed, stringified and written, on one thread. */
async function baseline(path: string): Promise<number> {
  const t = performance.now();
  const out = createWriteStream('/dev/null');
  const rl = createInterface({ input: createReadStream(path, { highWaterMark: 1 << 20 }), crlfDelay: Infinity });
  let buf = '';
  for await (const line of rl) {
    if (!line) continue;
    buf += JSON.stringify(JSON.parse(line)) + '\n';
    if (buf.length > 1 << 16) {
      if (!out.write(buf)) await once(out, 'drain');
      buf = '';
    }
  }
  out.end(buf);
  await once(out, 'close');
  return performance.now() - t;
}

function job(path: string, workers: number, op: 'lines' | 'search' = 'lines', extra: string[] = []): { ms: number; rssMB: number } {
  const t = performance.now();
  const r = spawnSync(process.execPath, [`${root}bin/addrflow.ts`, 'run', '--op', op, '--input', path, '--output', '/dev/null', '--workers', String(workers), '--progress', 'off', ...extra], {
    encoding: 'utf8', env: { ...process.env, ADDRFLOW_LOG_LEVEL: 'warn' }, maxBuffer: 1 << 24,
  });
  const ms = performance.now() - t;
  if (r.status !== 0) throw new Error(`job failed: ${r.stderr}`);
  const rss = /peak RSS: (\d+) MB/.exec(r.stderr);
  return { ms, rssMB: rss ? Number(rss[1]) : NaN };
}

const fmt = (n: number) => Math.round(n).toLocaleString('en');
const nd = await ensureFile(`lines-${N}.ndjson`, N, 'ndjson');
const arr = await ensureFile(`lines-${N}.json`, N, 'array');
console.log(`input: ${fmt(N)} records, NDJSON ${(statSync(nd).size / 1e6).toFixed(0)} MB, JSON array ${(statSync(arr).size / 1e6).toFixed(0)} MB`);
const base = await baseline(nd);
console.log(`baseline read→parse→stringify→write (1 thread): ${fmt((N * 1000) / base)} records/s`);
for (const [label, path] of [['NDJSON', nd], ['JSON array', arr]] as const) {
  for (const w of [1, 2]) {
    const r = job(path, w);
    console.log(`addrflow run --op lines, ${label}, ${w} worker(s): ${fmt((N * 1000) / r.ms)} records/s, ${(r.ms / 1000).toFixed(1)} s, peak RSS ${r.rssMB} MB, ratio to baseline ${(base / r.ms).toFixed(2)}`);
  }
}
await searchJobs();

const big = await ensureFile(`lines-${BIG}.ndjson`, BIG, 'ndjson');
const rBig = job(big, 2);
console.log(`addrflow run --op lines, NDJSON, ${fmt(BIG)} records, 2 workers: ${fmt((BIG * 1000) / rBig.ms)} records/s, peak RSS ${rBig.rssMB} MB (flat-memory check: compare with the ${fmt(N)}-record run above)`);

async function searchJobs(): Promise<void> {
  if (!hasSharedData('osm-liechtenstein-2024')) {
    console.log('search file jobs: SKIPPED (../shared/data is absent)');
    return;
  }
  const { cachedIndex, osmTruth, banoTruth } = await import('../eval/lookup/suites.ts');
  const { dir } = await cachedIndex('bench');
  const path = `${cache}/search-${N}.ndjson`;
  if (!existsSync(path)) {
    const truth = [...osmTruth('osm-liechtenstein-2024'), ...osmTruth('osm-copenhagen-dk-2012'), ...banoTruth(20_000)];
    const out = createWriteStream(path);
    let buf = '';
    for (let i = 0; i < N; i++) {
      const t = truth[i % truth.length]!;
      const req = i % 2 === 0
        ? { id: i + 1, street: t.street, housenumber: t.hn, zip: t.postcode, city: t.city }
        : { id: i + 1, address: `${t.street} ${t.hn} ${t.postcode} ${t.city}` };
      buf += JSON.stringify(req) + '\n';
      if (buf.length > 1 << 20) {
        if (!out.write(buf)) await once(out, 'drain');
        buf = '';
      }
    }
    out.end(buf);
    await once(out, 'close');
  }
  const b = await baseline(path);
  console.log(`search input: ${fmt(N)} real addresses (half structured, half free text), ${(statSync(path).size / 1e6).toFixed(0)} MB; baseline ${fmt((N * 1000) / b)} records/s`);
  for (const w of [1, 2]) {
    const r = job(path, w, 'search', ['--index', dir]);
    console.log(`addrflow run --op search, NDJSON, ${w} worker(s): ${fmt((N * 1000) / r.ms)} records/s, ${(r.ms / 1000).toFixed(1)} s, peak RSS ${r.rssMB} MB, ratio to baseline ${(b / r.ms).toFixed(3)}`);
  }
}
