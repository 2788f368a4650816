/**
 * `node tools/osm-read-counts.ts FILE.osm.pbf`: reads an OSM PBF with the index reader into a
 * counting sink (rows counted, then dropped) and prints one JSON line: counts per kind, rejects per
 * reason, wall time, the process's peak RSS (worker threads included), the main thread's peak heap,
 * and the reader's own statistics. Run in a fresh process (by the scale test and the benchmark) so
 * that its peak RSS is the reader's alone; run it under `--max-old-space-size` to prove that the
 * node store lives outside the JS heap.
 */
import { createOsmPbfReader } from '../src/data/readers/osm-pbf/index.ts';
import { countingSink, type SourceSink } from '../src/data/source-sink.ts';

const file = process.argv[2];
if (!file) {
  console.error('usage: node tools/osm-read-counts.ts FILE.osm.pbf');
  process.exit(2);
}
let vertices = 0;
let heapPeak = 0;
const noop = (): void => {};
const inner: SourceSink = {
  address: noop, line: noop, place: noop, postcode: noop, reject: noop,
  admin: (a) => { for (const r of a.rings) vertices += r.length / 2; },
};
const { sink, counts } = countingSink(inner);
const reader = createOsmPbfReader();
const timer = setInterval(() => { heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed); }, 100);
const t0 = performance.now();
await reader(file, sink);
const ms = performance.now() - t0;
clearInterval(timer);
heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
console.log(JSON.stringify({
  file, ms: Math.round(ms), ...counts, adminVertices: vertices,
  // user + system CPU of the whole process, worker threads included: comparable on a loaded machine
  cpuMs: Math.round((process.cpuUsage().user + process.cpuUsage().system) / 1000),
  // the main thread's share (it orders results and feeds the sink; the workers decode)
  mainCpuMs: Math.round((process.threadCpuUsage().user + process.threadCpuUsage().system) / 1000),
  maxRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
  heapPeakMiB: Math.round(heapPeak / 1048576),
  stats: reader.lastStats,
}));
