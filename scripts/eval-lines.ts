/**
 * `npm run eval:lines`: runs the recipient-block engine over the OpenCage test cases of the 34
 * destinations and prints, per country, how many cases match in line order and content, then every
 * deviation with its reason tag. Needs ../shared/data (or ADDRFLOW_DATA_DIR).
 *   --verbose   also print expected and actual lines of each deviation
 */
import { hasSharedData, sharedDataPath } from '../src/config/shared-data.ts';
import { TESTCASE_PARTS, classify, loadCases, runCase, summarise } from '../test/engine/lines/opencage-conformance.ts';

if (!hasSharedData(...TESTCASE_PARTS)) {
  console.error(`OpenCage test cases not found at ${sharedDataPath(...TESTCASE_PARTS)} (set ADDRFLOW_DATA_DIR)`);
  process.exit(2);
}
const verbose = process.argv.includes('--verbose');
const results = loadCases().map(runCase);
const rows = summarise(results);
console.log('country  cases  exact  match  deviations');
for (const r of rows) {
  console.log(`${r.cc.padEnd(7)} ${String(r.cases).padStart(6)} ${String(r.exact).padStart(6)} ${String(r.match).padStart(6)} ${String(r.deviations).padStart(11)}`);
}
const t = rows.reduce((a, r) => ({ cases: a.cases + r.cases, exact: a.exact + r.exact, match: a.match + r.match, dev: a.dev + r.deviations }), { cases: 0, exact: 0, match: 0, dev: 0 });
console.log(`${'TOTAL'.padEnd(7)} ${String(t.cases).padStart(6)} ${String(t.exact).padStart(6)} ${String(t.match).padStart(6)} ${String(t.dev).padStart(11)}`);
console.log('\n"exact" = byte-identical lines; "match" = same lines ignoring letter case and runs of spaces.');
const tally = new Map<string, number>();
console.log('\ndeviations:');
for (const r of results) {
  const reasons = classify(r);
  if (reasons.length === 0) continue;
  for (const x of reasons) tally.set(x, (tally.get(x) ?? 0) + 1);
  console.log(`  ${r.case.id.padEnd(6)} status ${String(r.record.addresslinestatuscode).padStart(2)}  ${reasons.join(', ')}  (${r.case.description.slice(0, 50)})`);
  if (verbose) {
    console.log(`         expected: ${JSON.stringify(r.case.expected)}`);
    console.log(`         actual:   ${JSON.stringify(r.actual)}`);
  }
}
console.log('\nby reason:');
for (const [k, n] of [...tally].sort((a, b) => b[1] - a[1])) console.log(`  ${k.padEnd(22)} ${n}`);
