/**
 * A/B of the lookup's speed between this checkout and another one: both engines answer the same
 * query mix (bench/support/lookup-queries.ts) in one process, in interleaved rounds (A B, B A, …),
 * and it prints the median CPU time of each and the median of the per-round ratios this/base
 * (within 5 % is "no slowdown"; the per-round ratio cancels the load that drifts between rounds on
 * a shared machine).
 *
 *   node bench/lookup-ab.ts --base DIR [--own-index] [--rounds 21] [--queries 1500]
 *   node bench/lookup-ab.ts --base-commit REV [--rounds 21] [--queries 1500]
 *
 * --base DIR         a checkout beside this one (e.g. `git worktree add ../base <commit>`). Both
 *                    engines read this tree's embedded default index, and every answer must be
 *                    identical (a speed-up or refactor), else it stops.
 * --base-commit REV  an earlier commit (tools/checkout-at.ts copies its src and assets into
 *                    .cache/checkouts/). Implies --own-index.
 * --own-index        each engine answers on the embedded default index its own checkout builds
 *                    (the product as shipped, before and after a change of answers or of the
 *                    default layer: issue 18's "lookup within 5 %" is
 *                    `--base-commit 11d11a0 --rounds 31`); the answers that differ are counted, not
 *                    refused. A first run builds each default index once (about 10 s of CPU each).
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import type { SearchRequest } from '../src/contract/requests.ts';
import { loadDefaultIndex } from '../src/data/index-file.ts';
import * as thisIndex from '../src/engine/index/index.ts';
import * as thisLookup from '../src/engine/lookup/index.ts';
import { checkoutAt } from '../tools/checkout-at.ts';
import { banoQueryMix } from './support/lookup-queries.ts';

const USAGE = 'usage: node bench/lookup-ab.ts (--base DIR [--own-index] | --base-commit REV) [--rounds N] [--queries N]';
const { values } = parseArgs({
  options: {
    base: { type: 'string' }, 'base-commit': { type: 'string' }, 'own-index': { type: 'boolean' },
    rounds: { type: 'string', default: '21' }, queries: { type: 'string', default: '1500' }, help: { type: 'boolean', short: 'h' },
  },
});
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
if (!values.base === !values['base-commit']) {
  console.error(USAGE);
  process.exit(2);
}
type Lookup = (index: never, req: SearchRequest) => unknown;
const base = values['base-commit'] ? checkoutAt(values['base-commit']) : resolve(values.base!);
const ownIndex = !!values['own-index'] || !!values['base-commit'];
const baseIndex = await import(pathToFileURL(`${base}/src/engine/index/index.ts`).href) as typeof thisIndex;
const baseLookup = (await import(pathToFileURL(`${base}/src/engine/lookup/index.ts`).href) as { lookup: Lookup }).lookup;
const buf = await loadDefaultIndex();
const baseBuf = ownIndex
  ? await (await import(pathToFileURL(`${base}/src/data/index-file.ts`).href) as { loadDefaultIndex: () => Promise<SharedArrayBuffer> }).loadDefaultIndex()
  : buf;
const a = { index: baseIndex.openIndex(baseBuf) as never, lookup: baseLookup };
const b = { index: thisIndex.openIndex(buf) as never, lookup: thisLookup.lookup as Lookup };
const qs = banoQueryMix(Number(values.queries));
let differ = 0;
for (const q of qs) {
  if (JSON.stringify(a.lookup(a.index, q)) === JSON.stringify(b.lookup(b.index, q))) continue;
  if (!ownIndex) throw new Error(`answers differ for ${JSON.stringify(q)}`);
  differ++;
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
const answers = ownIndex ? `each on its own default index, ${differ} answers differ` : 'answers identical';
console.log(`lookup A/B against ${values['base-commit'] ?? base}: ${qs.length} queries, ${answers}; ${ta.length} interleaved rounds`);
console.log(`  CPU time: base ${median(ta).toFixed(0)} ms (${Math.round(qs.length / median(ta) * 1000)}/s), this ${median(tb).toFixed(0)} ms (${Math.round(qs.length / median(tb) * 1000)}/s)`);
console.log(`  this/base: median of per-round ratios ${median(tb.map((t, i) => t / ta[i]!)).toFixed(3)}, ratio of medians ${(median(tb) / median(ta)).toFixed(3)}`);
