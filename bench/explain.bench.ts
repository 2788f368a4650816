/**
 * What asking for an explanation costs (issue 18): `lookupExplained` against `lookup` (the
 * same-run baseline) on one query mix (bench/support/lookup-queries.ts) and the embedded default
 * index, interleaved rounds, medians of CPU time. The default path's own speed against a base checkout is
 * bench/lookup-ab.ts.
 */
import { hasSharedData } from '../src/config/shared-data.ts';
import { loadDefaultIndex } from '../src/data/index-file.ts';
import { openIndex } from '../src/engine/index/index.ts';
import { lookup, lookupExplained } from '../src/engine/lookup/index.ts';
import { banoQueryMix } from './support/lookup-queries.ts';

if (!hasSharedData('bano-fr-2015')) {
  console.log('SKIPPED: ../shared/data is absent');
  process.exit(0);
}
const index = openIndex(await loadDefaultIndex());
const qs = banoQueryMix(1500);
// CPU time of the thread (user + system): on a shared machine wall time is mostly waiting
const time = (f: () => void) => { const t = process.cpuUsage(); f(); const d = process.cpuUsage(t); return (d.user + d.system) / 1000; };
const plain: number[] = [], explained: number[] = [];
for (let r = 0; r < 21; r++) {
  const p = () => plain.push(time(() => { for (const q of qs) lookup(index, q); }));
  const e = () => explained.push(time(() => { for (const q of qs) lookupExplained(index, q); }));
  if (r % 2 === 0) { p(); e(); } else { e(); p(); }
}
const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[xs.length >> 1]!;
console.log(`lookup (baseline): ${median(plain).toFixed(0)} ms for ${qs.length} queries (${Math.round(qs.length / median(plain) * 1000)}/s)`);
console.log(`lookupExplained:   ${median(explained).toFixed(0)} ms (${Math.round(qs.length / median(explained) * 1000)}/s)`);
console.log(`explained/plain: median of per-round ratios ${median(explained.map((t, i) => t / plain[i]!)).toFixed(3)}`);
