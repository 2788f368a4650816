/**
 * Two engine versions, A and B, on the embedded default index in ONE process: the queries of the
 * people sets (eval/lookup/people: 10,263 queries as people write them) and the HTTP bench's single
 * `search` request. First every people-set answer of A and B is compared (the count of differing
 * records, and the first few, per set), then the CPU per lookup of each is measured, the two
 * versions taking turns round by round, so that the load of a shared machine falls on both alike.
 *
 *   node tools/lookup-people-ab.ts (--a DIR | --a-commit REV) [--b DIR] [--rounds N] [--show N]
 *
 * DIR is a checkout whose src/engine is used (`.` for this tree, the default for B); `--a-commit
 * REV` makes a copy of that commit (tools/checkout-at.ts). Needs ../shared (the people sets'
 * sources); the index is this tree's embedded default.
 */
import { parseArgs } from 'node:util';
import type { SearchRequest } from '../src/contract/requests.ts';
import { loadDefaultIndex } from '../src/data/index-file.ts';
import { PEOPLE_SETS } from '../eval/lookup/people/evaluate.ts';
import { checkoutAt, engineAt, type Engine } from './checkout-at.ts';

const { values } = parseArgs({
  options: { a: { type: 'string' }, 'a-commit': { type: 'string' }, b: { type: 'string' }, rounds: { type: 'string' }, show: { type: 'string' } },
});
const aDir = values['a-commit'] ? checkoutAt(values['a-commit']) : values.a;
if (!aDir) {
  console.error('usage: node tools/lookup-people-ab.ts (--a DIR | --a-commit REV) [--b DIR] [--rounds N] [--show N]');
  process.exit(2);
}
const rounds = Number(values.rounds ?? 5);
const show = Number(values.show ?? 5);

const buffer = await loadDefaultIndex();
const [a, b] = [await engineAt(aDir, buffer), await engineAt(values.b ?? '.', buffer)];

const people: SearchRequest[] = [];
for (const [set, make] of Object.entries(PEOPLE_SETS)) {
  let differ = 0;
  for (const c of make()) {
    people.push(c.query);
    const ra = JSON.stringify(a.lookup(a.index, c.query)), rb = JSON.stringify(b.lookup(b.index, c.query));
    if (ra === rb) continue;
    if (differ++ < show) console.log(`  ${set}: ${JSON.stringify(c.query)}\n    A ${ra}\n    B ${rb}`);
  }
  console.log(`${set}: ${differ} answers differ`);
}

/** CPU µs per lookup of `qs`, `reps` times over (after one warm pass). */
function cpu(e: Engine, qs: SearchRequest[], reps: number): number {
  for (const q of qs) e.lookup(e.index, q);
  const c0 = process.cpuUsage();
  for (let r = 0; r < reps; r++) for (const q of qs) e.lookup(e.index, q);
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / (reps * qs.length);
}
const median = (x: number[]) => [...x].sort((p, q) => p - q)[x.length >> 1]!;
const BENCH_QUERY: SearchRequest = { street: 'Rue de Rivoli', housenumber: '10', city: 'Paris', country: 'FRA' };
for (const [name, qs, reps] of [['the HTTP bench query', [BENCH_QUERY], 20_000], ['the people sets', people, 1]] as const) {
  const ua: number[] = [], ub: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const order: Array<[Engine, number[]]> = r % 2 === 0 ? [[a, ua], [b, ub]] : [[b, ub], [a, ua]];
    for (const [e, out] of order) out.push(cpu(e, [...qs], reps));
  }
  const [ma, mb] = [median(ua), median(ub)];
  console.log(`${name}: A ${ma.toFixed(1)} µs, B ${mb.toFixed(1)} µs CPU per lookup (median of ${rounds}); B ${(ma / mb).toFixed(2)}× A`
    + ` (A ${ua.map((x) => x.toFixed(0)).join('/')}, B ${ub.map((x) => x.toFixed(0)).join('/')})`);
}
