/**
 * Answers of two engine versions, A and B, on the embedded default index for queries written with
 * mistakes: the eval's held-out addresses and postcode + place pairs against the default (needs
 * ../shared), as the eval asks them, and each again with typos (half the words of the city or
 * free text, and of the street in half the queries, misspelt as the eval's typo variant misspells
 * one: a letter dropped, added, changed or transposed), without its postcode, or with only the
 * city's first word. Prints every query the two
 * answer differently, with which of them names the town the query came from (its city, or its
 * postcode), and the counts. Deterministic (a fixed seed).
 *
 *   node tools/lookup-typo-ab.ts (--a DIR | --a-commit REV) --b DIR [--per-suite N] [--quiet]
 *
 * DIR: a checkout whose src/engine answers (`.` for this tree); `--a-commit REV` makes that copy
 * (tools/checkout-at.ts). Issue 20's named-place retry against the commit before it:
 * `node tools/lookup-typo-ab.ts --a-commit fd07599 --b .`.
 */
import { parseArgs } from 'node:util';
import type { SearchRecord } from '../src/contract/records.ts';
import type { SearchRequest } from '../src/contract/requests.ts';
import { loadIndexFile } from '../src/data/index-file.ts';
import type { AddressIndex } from '../src/engine/index/index.ts';
import { foldText } from '../src/engine/lookup/normalize/normalize.ts';
import { heldOutSuites, postcodePairs, runHeldOut, runPairs } from '../eval/lookup/fallback-suites.ts';
import { cachedIndex, sample, typo } from '../eval/lookup/suites.ts';
import { mulberry32 } from '../eval/support/prng.ts';
import { checkoutAt, engineAt } from './checkout-at.ts';

const { values } = parseArgs({
  options: { a: { type: 'string' }, 'a-commit': { type: 'string' }, b: { type: 'string' }, 'per-suite': { type: 'string' }, quiet: { type: 'boolean' } },
});
const aDir = values['a-commit'] ? checkoutAt(values['a-commit']) : values.a;
if (!aDir || !values.b) {
  console.error('usage: node tools/lookup-typo-ab.ts (--a DIR | --a-commit REV) --b DIR [--per-suite N] [--quiet]');
  process.exit(2);
}

const buffer = await loadIndexFile((await cachedIndex('default')).dir);
const A = await engineAt(aDir, buffer), B = await engineAt(values.b, buffer);

// the queries as the eval asks them (recorded while A answers them)
const asked: SearchRequest[] = [];
const record = (i: AddressIndex, q: SearchRequest) => (asked.push(q), A.lookup(i, q));
for (const s of heldOutSuites().filter((x) => x.index === 'default')) runHeldOut(A.index, sample(s.truth(), Number(values['per-suite'] ?? 3000), 7), record);
for (const { source, pairs } of postcodePairs()) runPairs(A.index, source, pairs, record);

const rnd = mulberry32(1);
/** Half the words misspelt, each as the eval's typo variant misspells one (`typo`: words of five letters or more). */
const withTypos = (s: string) => s.split(' ').map((w) => (rnd() < 0.5 ? typo(w, rnd) : w)).join(' ');

/** Each query as asked, then its variants, each with the query it came from. */
const queries: [SearchRequest, SearchRequest][] = [];
for (const q of asked) {
  const r = q as Record<string, string>;
  queries.push([q, q]);
  const v = { ...r };
  if (r.city) v.city = withTypos(r.city);
  if (r.address) v.address = withTypos(r.address);
  if (r.street && rnd() < 0.5) v.street = withTypos(r.street);
  queries.push([v, q]);
  if (r.zip) {
    const { zip: _zip, ...w } = r;
    if (w.city) w.city = withTypos(w.city);
    queries.push([w, q]);
  }
  if (r.city && rnd() < 0.3) queries.push([{ ...r, city: r.city.split(' ')[0]! }, q]);
}

/** The answer names the town the query came from: its city (the last part of free text, without a postcode), or its postcode. */
function namesTown(ans: SearchRecord, from: SearchRequest): boolean {
  const f = from as Record<string, string>;
  const city = f.city ?? (f.address ?? '').split(',').pop()!.replace(/^\s*[\w-]*\d[\w-]*\s*/, '');
  const fold = (s: string) => foldText(s).replace(/[^a-z0-9]/g, '');
  return (ans.city !== '' && fold(ans.city) === fold(city)) || (!!f.zip && ans.zip === f.zip);
}

let differ = 0, aOnly = 0, bOnly = 0, aWrongForNone = 0, bWrongForNone = 0;
for (const [q, from] of queries) {
  const a = A.lookup(A.index, q), b = B.lookup(B.index, q);
  if (JSON.stringify(a) === JSON.stringify(b)) continue;
  differ++;
  const ra = namesTown(a, from), rb = namesTown(b, from);
  if (ra && !rb) aOnly++;
  if (rb && !ra) bOnly++;
  // a wrong town where the other version answered nothing (a relevance of 0 is no answer)
  const none = (r: SearchRecord) => r.relevance === '0' || r.city === '';
  if (!ra && !rb && none(b) && !none(a)) aWrongForNone++;
  if (!ra && !rb && none(a) && !none(b)) bWrongForNone++;
  if (!values.quiet) {
    const show = (r: SearchRecord, ok: boolean) => `${ok ? '✓' : '✗'} ${[r.zip, r.city, r.country_iso_2, `relevance ${r.relevance}`].filter(Boolean).join(', ')}`;
    console.log(`${JSON.stringify(q)}\n  A ${show(a, ra)}\n  B ${show(b, rb)}`);
  }
}
console.log(`${queries.length} queries (${asked.length} as the eval asks them, ${queries.length - asked.length} with mistakes or fields left out): ${differ} answered differently`);
console.log(`the town the query came from named by A only: ${aOnly}, by B only: ${bOnly}; another town where the other answered nothing: A ${aWrongForNone}, B ${bWrongForNone}`);
