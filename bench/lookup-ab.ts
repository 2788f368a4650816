/**
 * A/B of the lookup's speed between this checkout and another one (a base checkout beside it,
 * e.g. `git worktree add ../base <commit>`): both engines answer the same query mix
 * (bench/support/lookup-queries.ts) on the same embedded default index buffer, in one process,
 * in interleaved rounds (A B, B A, …). First checks that every answer is identical; then prints
 * the median CPU time of each and the median of the per-round ratios this/base (within 5 % is "no
 * slowdown"; the per-round ratio cancels the load that drifts between rounds on a shared machine).
 *
 *   node bench/lookup-ab.ts --base ../base [--rounds 21] [--queries 1500]
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import type { SearchRequest } from '../src/contract/requests.ts';
import { loadDefaultIndex } from '../src/data/index-file.ts';
import * as thisIndex from '../src/engine/index/index.ts';
import * as thisLookup from '../src/engine/lookup/index.ts';
import { banoQueryMix } from './support/lookup-queries.ts';

const { values } = parseArgs({ options: { base: { type: 'string' }, rounds: { type: 'string', default: '21' }, queries: { type: 'string', default: '1500' } } });
if (!values.base) {
  console.error('usage: node bench/lookup-ab.ts --base DIR [--rounds N] [--queries N]');
  process.exit(2);
}
type Lookup = (index: never, req: SearchRequest) => unknown;
const base = resolve(values.base);
const baseIndex = await import(pathToFileURL(`${base}/src/engine/index/index.ts`).href) as typeof thisIndex;
const baseLookup = (await import(pathToFileURL(`${base}/src/engine/lookup/index.ts`).href) as { lookup: Lookup }).lookup;
const buf = await loadDefaultIndex();
const a = { index: baseIndex.openIndex(buf) as never, lookup: baseLookup };
const b = { index: thisIndex.openIndex(buf) as never, lookup: thisLookup.lookup as Lookup };
const qs = banoQueryMix(Number(values.queries));
for (const q of qs) {
  if (JSON.stringify(a.lookup(a.index, q)) !== JSON.stringify(b.lookup(b.index, q))) throw new Error(`answers differ for ${JSON.stringify(q)}`);
}
// CPU time of the thread (user + system), not wall time: on a shared, oversubscribed machine the
// time a round spends descheduled would otherwise dominate
const time = (e: typeof a) => {
  const t = process.cpuUsage();
  for (const q of qs) e.lookup(e.index, q);
  const d = process.cpuUsage(t);
  return (d.user + d.system) / 1000;
};
const ta: number[] = [], tb: number[] = [];
for (let r = 0; r < Number(values.rounds); r++) {
  if (r % 2 === 0) { ta.push(time(a)); tb.push(time(b)); } else { tb.push(time(b)); ta.push(time(a)); }
}
const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[xs.length >> 1]!;
console.log(`lookup A/B: ${qs.length} queries, answers identical; ${ta.length} interleaved rounds`);
console.log(`  CPU time: base ${median(ta).toFixed(0)} ms (${Math.round(qs.length / median(ta) * 1000)}/s), this ${median(tb).toFixed(0)} ms (${Math.round(qs.length / median(tb) * 1000)}/s)`);
console.log(`  this/base: median of per-round ratios ${median(tb.map((t, i) => t / ta[i]!)).toFixed(3)}, ratio of medians ${(median(tb) / median(ta)).toFixed(3)}`);
