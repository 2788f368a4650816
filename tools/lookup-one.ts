/**
 * CPU time of one lookup request on the embedded default index, repeated: what a single `search`
 * of that request costs its thread (the HTTP bench asks one request over and over).
 *
 *   node tools/lookup-one.ts '{"street":"Rue de Rivoli","housenumber":"10","city":"Paris","country":"FRA"}' [CALLS]
 */
import { loadDefaultIndex } from '../src/data/index-file.ts';
import type { SearchRequest } from '../src/contract/requests.ts';
import { openIndex } from '../src/engine/index/index.ts';
import { lookup } from '../src/engine/lookup/index.ts';

const [json, calls = '5000'] = process.argv.slice(2);
if (!json) {
  console.error("usage: node tools/lookup-one.ts '<search request as JSON>' [CALLS]");
  process.exit(2);
}
const req = JSON.parse(json) as SearchRequest;
const index = openIndex(await loadDefaultIndex());
const n = Number(calls);
let record = lookup(index, req);
for (let i = 0; i < n; i++) record = lookup(index, req); // warm-up: the optimising compiler
const times: number[] = [];
for (let round = 0; round < 5; round++) {
  const t0 = process.cpuUsage();
  for (let i = 0; i < n; i++) record = lookup(index, req);
  const c = process.cpuUsage(t0);
  times.push((c.user + c.system) / n);
}
times.sort((a, b) => a - b);
console.log(`${times[2]!.toFixed(1)} µs of CPU per lookup (median of 5 rounds of ${n}: ${times.map((t) => t.toFixed(1)).join(' ')})`);
console.log(`answer: ${record.city}, ${record.country_iso_3} (relevance ${record.relevance}, matchlevel ${record.matchlevel})`);
