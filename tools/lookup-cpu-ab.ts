/**
 * CPU time per lookup of two engine versions, A and B, on the national bench's mix
 * (tools/lookup-mix.ts), per category and query form, in ONE process: the index is loaded once
 * (a national index is 1 GB; both engines open views of the same buffer), and the versions take
 * turns A/B/A/B in short slices so that the load of a shared machine falls on both alike.
 *
 *   node tools/lookup-cpu-ab.ts INDEX_DIR (--a DIR | --a-commit REV) --b DIR [--ms 2000] [--rounds 4] [--cat unknown,wrongpc] [--form struct,free]
 *
 * DIR is a checkout whose src/engine is used (e.g. a `git archive` copy of the previous commit,
 * and `.` for this tree); `--a-commit REV` makes that copy itself (tools/checkout-at.ts). Issue
 * 18's 30M mix against the commit before it:
 * `node tools/lookup-cpu-ab.ts .cache/index-scale/idx-30000000 --a-commit 11d11a0 --b . --rounds 9`.
 * Prints, per category and form, the median over rounds of CPU µs per
 * lookup (process.cpuUsage, user + system) for A and B, and B's speed-up.
 *
 * INDEX_DIR `default`: the embedded default index as the eval builds it, and in place of the mix
 * the eval's queries against it (needs ../shared): the held-out addresses it does not hold, in
 * their four forms, the postcode + place pairs and the Pelias cases, one set per suite.
 * `node tools/lookup-cpu-ab.ts default --a-commit f0d1cab --b . --ms 1500`.
 */
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { SearchRequest } from '../src/contract/requests.ts';
import { loadIndexFile } from '../src/data/index-file.ts';
import type { AddressIndex } from '../src/engine/index/index.ts';
import { median } from '../bench/support/median.ts';
import { checkoutAt, engineAt, type Engine as CheckoutEngine } from './checkout-at.ts';
import { MIX_CATEGORY, lookupMix } from './lookup-mix.ts';
import { heldOutSuites, peliasCases, postcodePairs, runHeldOut, runPairs } from '../eval/lookup/fallback-suites.ts';
import { cachedIndex, sample } from '../eval/lookup/suites.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    a: { type: 'string' }, 'a-commit': { type: 'string' }, b: { type: 'string' }, ms: { type: 'string' }, rounds: { type: 'string' },
    cat: { type: 'string' }, form: { type: 'string' }, help: { type: 'boolean', short: 'h' },
  },
});
const USAGE = 'usage: node tools/lookup-cpu-ab.ts INDEX_DIR|default (--a DIR | --a-commit REV) --b DIR [--ms N] [--rounds N] [--cat c,…] [--form struct,free]';
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const indexDir = positionals[0];
const aDir = values['a-commit'] ? checkoutAt(values['a-commit']) : values.a;
if (!indexDir || !aDir || !values.b) {
  console.error(USAGE);
  process.exit(2);
}
const sliceMs = Number(values.ms ?? 2000);
const rounds = Number(values.rounds ?? 4);
const cats = (values.cat ?? 'clean,typo,unknown,wrongpc').split(',');
const forms = (values.form ?? 'struct,free').split(',');
const DEFAULT = indexDir === 'default';

type Engine = CheckoutEngine & { name: string };
const buffer = await loadIndexFile(DEFAULT ? (await cachedIndex('default')).dir : resolve(indexDir));
const engines: Engine[] = [{ name: 'A', ...await engineAt(aDir, buffer) }, { name: 'B', ...await engineAt(values.b, buffer) }];

/** CPU µs per lookup of `qs` for `slice` ms of wall time (after a warm-up pass). */
function cpuPerLookup(e: Engine, qs: SearchRequest[]): number {
  for (const q of qs) e.lookup(e.index, q);
  let n = 0;
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  while (performance.now() - t0 < sliceMs) for (const q of qs) { e.lookup(e.index, q); n++; }
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / n;
}

/** The query sets: the national mix by form and category, or the eval's suites against the default index. */
function querySets(): [string, SearchRequest[]][] {
  const sets: [string, SearchRequest[]][] = [];
  if (DEFAULT) {
    // the queries as the eval asks them (recorded while engine A answers them)
    const e = engines[0]!;
    const record = (qs: SearchRequest[]) => (i: AddressIndex, q: SearchRequest) => (qs.push(q), e.lookup(i, q));
    for (const s of heldOutSuites().filter((x) => x.index === 'default')) {
      const qs: SearchRequest[] = [];
      runHeldOut(e.index, sample(s.truth(), 1500, 9), record(qs));
      sets.push([`held-out ${s.name}`, qs]);
    }
    const pairs: SearchRequest[] = [];
    for (const { source, pairs: ps } of postcodePairs()) runPairs(e.index, source, ps, record(pairs));
    sets.push(['postcode pairs', pairs]);
    const pelias: SearchRequest[] = [];
    peliasCases(e.index, record(pelias));
    sets.push(['pelias', pelias]);
    sets.push(['all', sets.flatMap(([, qs]) => qs)]);
    return sets;
  }
  for (const form of forms) {
    const qs = lookupMix(form === 'free');
    for (const cat of cats) sets.push([`${form} ${cat}`, qs.filter((_, i) => MIX_CATEGORY[i % 10] === cat)]);
  }
  return sets;
}

for (const [name, sel] of querySets()) {
  const us: number[][] = [[], []];
  for (let r = 0; r < rounds; r++) {
    // alternate which engine goes first, so neither always runs on a warmer (or busier) slice
    const order = r % 2 === 0 ? [0, 1] : [1, 0];
    for (const k of order) us[k]!.push(cpuPerLookup(engines[k]!, sel));
  }
  const [a, b] = [median(us[0]!), median(us[1]!)];
  console.log(`${name} (${sel.length}): A ${a.toFixed(0)} µs, B ${b.toFixed(0)} µs per lookup (CPU, median of ${rounds}; A ${us[0]!.map((x) => x.toFixed(0)).join('/')}, B ${us[1]!.map((x) => x.toFixed(0)).join('/')}); B ${(a / b).toFixed(2)}× A; load ${loadavg()[0]!.toFixed(1)}`);
}

