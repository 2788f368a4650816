/**
 * Child process of bench/index-scale-oa.bench.ts: builds one index with the current builder and
 * prints one JSON line { wallMs, maxRss, bytes, addressPoints, peakTempBytes, readMs, buildMs }.
 * `node bench/index-scale-build.ts OUT_DIR TMP_DIR OA.csv [GEONAMES_POSTCODES]`
 */
import { buildIndexDir, summaryLines, type SourceFile } from '../src/data/build-index.ts';
import { ProgressReporter } from '../src/data/build/progress.ts';

const [out, tmp, oa, pc] = process.argv.slice(2);
const files: SourceFile[] = [{ kind: 'openaddresses', path: oa! }];
if (pc) files.push({ kind: 'geonames-postcodes', path: pc });
const t = performance.now();
const r = await buildIndexDir(out!, { files }, { tmpDir: tmp, progress: new ProgressReporter({ tty: false, intervalMs: 30_000 }) });
process.stderr.write(summaryLines(r.sources).join('\n') + '\n');
console.log(JSON.stringify({
  wallMs: performance.now() - t, cpuMs: (process.cpuUsage().user + process.cpuUsage().system) / 1000, maxRss: process.resourceUsage().maxRSS * 1024, bytes: r.bytes, addressPoints: r.addressPoints,
  peakTempBytes: r.peakTempBytes, readMs: r.readMs, buildMs: r.buildMs,
}));
