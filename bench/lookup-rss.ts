/**
 * Child process of bench/lookup.bench.ts: measures RSS cleanly, with nothing in the process but
 * the index and the worker threads. `node --expose-gc bench/lookup-rss.ts INDEX_DIR QUERIES.json N`
 * loads INDEX_DIR/index.bin into one SharedArrayBuffer (as the service does before it starts its
 * pool), notes the RSS, starts N worker threads (bench/lookup-rss-worker.ts, with the pool's V8
 * limits, src/pool/worker-limits.ts) that each open the shared index, run every query through
 * the engine (validation + lookup) and collect their garbage, and prints one JSON line:
 * { threads, rssIndexOnly, rss, peakRss, lookups, housenumber, indexBytes }.
 */
import { Worker } from 'node:worker_threads';
import { loadIndexFile } from '../src/data/index-file.ts';
import { ENGINE_WORKER_RESOURCE_LIMITS } from '../src/pool/worker-limits.ts';

const [dir, queriesFile, n] = process.argv.slice(2);
const threads = Number(n);
if (!dir || !queriesFile || !(threads >= 1)) {
  console.error('usage: lookup-rss.ts INDEX_DIR QUERIES.json THREADS');
  process.exit(2);
}
const gc = () => { for (let i = 0; i < 3; i++) global.gc?.(); };

const sab = await loadIndexFile(dir);
gc();
const rssIndexOnly = process.memoryUsage().rss;

const workers: Worker[] = [];
const done: Promise<{ lookups: number; housenumber: number }>[] = [];
for (let i = 0; i < threads; i++) {
  const w = new Worker(new URL('./lookup-rss-worker.ts', import.meta.url), { workerData: { sab, queriesFile, rounds: 2 }, resourceLimits: ENGINE_WORKER_RESOURCE_LIMITS });
  workers.push(w);
  done.push(new Promise((res, rej) => { w.once('message', res); w.once('error', rej); }));
}
const results = await Promise.all(done);
gc();
const rss = process.memoryUsage().rss;
const lookups = results.reduce((a, r) => a + r.lookups, 0);
const housenumber = results.reduce((a, r) => a + r.housenumber, 0);
// the peak while the threads worked: a thread's young generation is at its largest then, and a
// forced GC may shrink it before `rss` is read
const peakRss = process.resourceUsage().maxRSS * 1024;
console.log(JSON.stringify({ threads, rssIndexOnly, rss, peakRss, lookups, housenumber, indexBytes: sab.byteLength }));
for (const w of workers) w.postMessage('exit');
await Promise.all(workers.map((w) => new Promise((r) => w.once('exit', r))));
