/**
 * Explanation consistency (issue 18) on the lookup-equivalence queries: reads the NDJSON that
 * tools/lookup-equivalence.ts wrote (suite, request, record per line), runs `lookupExplained` on
 * the queries of the eval variants (LI, CPH, BANO indexes) and of the suites against the
 * embedded default, and counts: records identical to the stored `lookup` records, and
 * explanations whose deductions add up to 100 − relevance (within rounding: each deduction is
 * rounded to one decimal, the relevance to an integer; answers clamped at 0 are counted apart).
 * Prints the part statuses and deduction codes seen.
 *
 *   node tools/lookup-equivalence.ts --out /tmp/le.ndjson && node tools/explain-consistency.ts /tmp/le.ndjson
 */
import { readFileSync } from 'node:fs';
import type { SearchRecord } from '../src/contract/records.ts';
import type { SearchRequest } from '../src/contract/requests.ts';
import { loadDefaultIndex } from '../src/data/index-file.ts';
import { openIndex, type AddressIndex } from '../src/engine/index/index.ts';
import { lookupExplained } from '../src/engine/lookup/index.ts';
import { cachedIndex } from '../eval/lookup/suites.ts';

const file = process.argv[2];
if (!file) {
  console.error('usage: node tools/explain-consistency.ts LOOKUP-EQUIVALENCE.ndjson');
  process.exit(2);
}
const indexes = new Map<string, AddressIndex>();
async function indexFor(suite: string): Promise<AddressIndex | undefined> {
  const v = /^variants (li|cph|bano)$/.exec(suite);
  const key = v ? v[1]! : /vs embedded default|^postcode pairs|^pelias/.test(suite) ? 'default' : undefined;
  if (!key) return undefined;
  let idx = indexes.get(key);
  if (!idx) indexes.set(key, (idx = key === 'default' ? openIndex(await loadDefaultIndex()) : (await cachedIndex(key)).index));
  return idx;
}

let n = 0, identical = 0, summed = 0, checked = 0, clamped = 0, worst = 0;
const statuses = new Map<string, number>();
const codes = new Map<string, number>();
const bump = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);
for (const line of readFileSync(file, 'utf8').split('\n')) {
  if (!line.startsWith('{')) continue;
  const { s, q, r } = JSON.parse(line) as { s: string; q: SearchRequest; r: SearchRecord };
  const index = await indexFor(s);
  if (!index) continue;
  n++;
  const x = lookupExplained(index, q);
  if (JSON.stringify(x.record) === JSON.stringify(r)) identical++;
  for (const p of x.explain.parts) bump(statuses, p.status);
  for (const d of x.explain.deductions) bump(codes, d.code);
  const lost = x.explain.deductions.reduce((a, d) => a + d.points, 0);
  const rel = Number(r.relevance);
  if (rel === 0 && lost >= 100) { clamped++; continue; }
  checked++;
  const err = Math.abs(100 - lost - rel);
  worst = Math.max(worst, err);
  if (err <= 0.5 + 0.05 * x.explain.deductions.length) summed++;
}
console.log(`${n} queries: records identical to lookup's ${identical}; deductions add up to 100 − relevance ${summed}/${checked} (worst gap ${worst.toFixed(2)} points); relevance clamped at 0: ${clamped}`);
console.log(`parts: ${[...statuses].map(([k, v]) => `${k} ${v}`).join(', ')}`);
console.log(`deductions: ${[...codes].sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${v}`).join(', ')}`);
process.exit(identical === n && summed === checked ? 0 : 1);
