/**
 * `npm run eval:lookup [-- --limit N] [--no-write] [--large DIR]`: builds (cached) indexes from
 * ../shared/data and measures the address lookup; writes docs/accuracy.md. No manual checking.
 * `--large DIR` adds a run on a national-scale index (built by `npm run bench -- index-scale`,
 * e.g. .cache/index-scale/idx-30000000): the real BANO copy inside it, all variants; a run without
 * it keeps the national-scale parts of docs/accuracy.md as they stand (carried-large.ts).
 * `node eval/lookup/run.ts people [--set NAME] [--failures N] [--json FILE]`: only the sets of queries as people
 * write them (issue 18, eval/lookup/people/), printed, not written.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { PROJECT_ROOT } from '../../src/config/shared-data.ts';
import { lookup } from '../../src/engine/lookup/index.ts';
import { nominatimCases, parserCases } from './cases.ts';
import { loadIndexFile } from '../../src/data/index-file.ts';
import { openIndex, type AddressIndex } from '../../src/engine/index/index.ts';
import { readBanoRows } from '../support/bano-rows.ts';
import { heldOutSuites, PAIR_POINT_KM, peliasCases, postcodePairs, runHeldOut, runPairs, runPostcodeAlone } from './fallback-suites.ts';
import { VARIANTS, banoTruth, cachedIndex, osmTruth, runSuite, sample, type Truth, type VariantResult } from './suites.ts';
import { runUnknownStreets } from './unknown-streets.ts';
import { peopleMain } from './people/main.ts';
import { baselineLines, runPeopleSection } from './people/section.ts';
import { deductionsSection } from './deductions-doc.ts';
import { peopleTargetLines } from './people/report.ts';
import { namesSectionLines } from './names-section.ts';
import { carriedLarge, carriesAny } from './carried-large.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { limit: { type: 'string' }, 'no-write': { type: 'boolean' }, bano: { type: 'string' }, large: { type: 'string' }, set: { type: 'string' }, failures: { type: 'string' }, json: { type: 'string' }, 'write-baseline': { type: 'string' } },
});
if (positionals[0] === 'people') {
  await peopleMain(values);
  process.exit(0);
}
const limit = values.limit ? Number(values.limit) : Infinity;
const PAGE = resolve(PROJECT_ROOT, 'docs', 'accuracy.md');
const carried = carriedLarge(!values.large && existsSync(PAGE) ? readFileSync(PAGE, 'utf8') : undefined);

const fmtPct = (x: number) => (Number.isFinite(x) ? `${(100 * x).toFixed(2)} %` : '–');
const fmtM = (x: number) => (Number.isFinite(x) ? `${x.toFixed(1)} m` : '–');

const out: string[] = [];
const say = (s = '') => { console.log(s); out.push(s); };

function table(rs: VariantResult[]): void {
  say('| variant | queries | housenumber-level correct | p50 | p90 | p99 | relevance ≥ 90 | correct among ≥ 90 | mean relevance |');
  say('|---|---|---|---|---|---|---|---|---|');
  for (const r of rs) {
    say(`| ${r.variant} | ${r.n} | ${fmtPct(r.hnRate)} | ${fmtM(r.p50)} | ${fmtM(r.p90)} | ${fmtM(r.p99)} | ${r.rel90} | ${fmtPct(r.rel90Correct)} | ${r.avgRelevance.toFixed(1)} |`);
  }
}

const started = performance.now();
say('# Address lookup accuracy');
say();
say(`Reproduce: \`npm run eval:lookup\`${Number.isFinite(limit) ? ` (this run: --limit ${limit})` : ''}. Indexes are built from ../shared/data into .cache/eval/ (cached by source and build-code hash).`);
say(`Run: ${new Date().toISOString()}, Node ${process.version}${carriesAny(carried) ? ' (the national-scale sections are from an earlier `--large` run, as each says)' : ''}.`);
say();
say('Correct = matchlevel `housenumber`, same house number, within 150 m of the reference point. Distances are over all house-number-level answers. No `country` is passed (all countries are searched).');
say();

const suites: [string, string, () => ReturnType<typeof osmTruth>][] = [
  ['Liechtenstein 2024 (OSM PBF, all addresses with street+number+city)', 'li', () => osmTruth('osm-liechtenstein-2024')],
  ['Copenhagen 2012 (OSM PBF, all addresses with street+number+city)', 'cph', () => osmTruth('osm-copenhagen-dk-2012')],
  ['BANO FR sample (départements 90, 2A, 48; deterministic sample)', 'bano', () => banoTruth(Number(values.bano ?? 3000))],
];
const pooledAll = { r90: 0, ok: 0 };
const summary: Record<string, Record<string, number>> = {};
for (const [title, name, truthFn] of suites) {
  const { index, buildMs } = await cachedIndex(name);
  let truth = truthFn();
  if (Number.isFinite(limit)) truth = sample(truth, limit, 1);
  const t0 = performance.now();
  const { results, pooled } = runSuite(index, truth, VARIANTS, lookup);
  const ms = performance.now() - t0;
  const nq = results.reduce((a, r) => a + r.n, 0);
  say(`## ${title}`);
  say();
  say(`${truth.length} reference addresses, ${nq} queries in ${(ms / 1000).toFixed(1)} s (${Math.round(nq / (ms / 1000))} lookups/s incl. scoring)${buildMs ? `; index built in ${(buildMs / 1000).toFixed(1)} s` : ''}.`);
  say();
  table(results);
  say();
  say(`Pooled over all variants: ${pooled.rel90} answers with relevance ≥ 90, of which ${fmtPct(pooled.rel90Correct)} correct.`);
  say();
  pooledAll.r90 += pooled.rel90;
  pooledAll.ok += pooled.rel90 * pooled.rel90Correct;
  summary[name] = Object.fromEntries(results.map((r) => [r.variant, r.hnRate]));
}
say(`**All suites pooled:** relevance ≥ 90 ⇒ correct in ${fmtPct(pooledAll.ok / pooledAll.r90)} of ${pooledAll.r90} answers.`);
say();

const large = values.large ? openIndex(await loadIndexFile(values.large)) : undefined;
const largeTruth: Truth[] = large
  ? sample(readBanoRows(), Number.isFinite(limit) ? limit : 3000, 11)
    .map((r) => ({ street: r.street, hn: r.hn, postcode: r.postcode, city: r.city, country: 'FR', lat: r.lat, lon: r.lon }))
  : [];
if (large) {
  const truth = largeTruth;
  const { results, pooled } = runSuite(large, truth, VARIANTS, lookup);
  say(`## BANO real copy inside the national-scale index (${large.meta.counts.addresses} address points, ${values.large})`);
  say();
  say(`Measured ${new Date().toISOString().slice(0, 10)} by \`npm run eval:lookup -- --large ${values.large}\`.`);
  say();
  say(`${truth.length} reference addresses sampled from all 17 BANO files (the index's copy 0; the other copies have the same street and commune names in other places and postcodes; scripts/gen-oa-national.ts).`);
  say();
  table(results);
  say();
  say(`Pooled over all variants: ${pooled.rel90} answers with relevance ≥ 90, of which ${fmtPct(pooled.rel90Correct)} correct.`);
  say();
} else {
  for (const l of carried.section) say(l);
}

const nomi = await cachedIndex('nominatim');
const nr = nominatimCases(nomi.index, lookup);
say('## Nominatim search cases (geocoder-cases/nominatim-bdd) on osm-liechtenstein-nominatim-testdb-2021');
say();
say(`${nr.total} search steps; ${nr.checkable} ask for an answer we can compare (the rest test Nominatim API formats, parameters, placeholders, or a language sent only as an HTTP Accept-Language header; \`boundingbox!in_box\` is checked on our point, \`ISO3166-2-lvlN\` on \`state_code\`, geocodejson \`name\` on street or city). Passed: **${nr.passed} / ${nr.checkable} (${fmtPct(nr.passed / nr.checkable)})**.`);
say();
if (nr.failures.length) {
  say('Failures:');
  say();
  for (const f of nr.failures) say(`- \`${f}\``);
  say();
}

say('## Parser components (libpostal and Pelias parse cases)');
say();
say('`parseComponents` (src/engine/lookup/parse/components.ts) finds the house number and the postcode without the index (street and city roles come from matching against the index, which these world-wide cases are not in). Each suite is split by a fixed rule: cases at even positions are the half the rules were tuned on, odd positions the half only measured. Accuracy = same folded component over cases where either side has it; a label\'s typed marker (`nr.`, `д.`, `CEP`) is not part of the value. A Pelias case asserted with all its solutions (`firstSolutionOnly` false: a list of solutions, best first, `[]` = none) is scored on its first solution; an earlier reading of this file took those cases as naming no house number or postcode and marked two right answers wrong.');
say();
say('| suite | half | house number | postcode |');
say('|---|---|---|---|');
const parser = parserCases();
for (const p of parser) say(`| ${p.suite} | ${p.half} | ${p.hn[0]}/${p.hn[1]} (${fmtPct(p.hn[0] / p.hn[1])}) | ${p.postcode[0]}/${p.postcode[1]} (${fmtPct(p.postcode[0] / p.postcode[1])}) |`);
say();

// ---- addresses the index does not hold (issue 10)
say('## Addresses the index does not hold');
say();
say('Each extract\'s addresses queried against an index built WITHOUT it: the embedded default (the default layer alone), or for Liechtenstein the BANO index. Right = right country and the answer\'s city or postcode is the reference one (a city counts when one name is the other with words added: `København V` / `København`, `Il-Fgura` / `Fgura`). No `country` is passed. Targets: ≥ 98 % right, 0 answers in another country, every answer `general` with relevance < 90.');
say();
say('| suite | query | n | right city or postcode | in another country | general | relevance < 90 |');
say('|---|---|---|---|---|---|---|');
const held = { n: 0, right: 0, wrong: 0, general: 0, below: 0 };
const heldNoCity = { n: 0, right: 0, wrong: 0 };
for (const suite of heldOutSuites()) {
  const { index } = await cachedIndex(suite.index);
  let truth = suite.truth();
  truth = sample(truth, Number.isFinite(limit) ? Math.min(limit, 1500) : 1500, 9);
  for (const r of runHeldOut(index, truth, lookup)) {
    say(`| ${suite.name} | ${r.variant} | ${r.n} | ${fmtPct(r.right / r.n)} | ${r.wrongCountry} | ${fmtPct(r.level / r.n)} | ${fmtPct(r.below90 / r.n)} |`);
    if (r.variant === 'structured, no city') { heldNoCity.n += r.n; heldNoCity.right += r.right; heldNoCity.wrong += r.wrongCountry; continue; }
    held.n += r.n; held.right += r.right; held.wrong += r.wrongCountry; held.general += r.level; held.below += r.below90;
  }
}
say();
say(`Pooled (queries naming a city, with or without postcode): **${fmtPct(held.right / held.n)} right**, ${held.wrong} in another country, ${fmtPct(held.general / held.n)} general, ${fmtPct(held.below / held.n)} below 90. Postcode and street without city or country (\`structured, no city\`): ${fmtPct(heldNoCity.right / heldNoCity.n)} right, ${heldNoCity.wrong} in another country (a code like \`3500\` exists in several countries; only the street\'s type word can choose one, else the answer is empty).`);
say();

say('## Streets the index does not hold, in towns it holds');
say();
say('Each BANO reference address with its street replaced by `Allée des <word>` (Tilleuls, Peupliers, Chardonnerets, Grenadiers, Mésanges, Pervenches: words of real street names, held elsewhere in the index), its house number, postcode and town kept (eval/lookup/unknown-streets.ts). Right = the named town or postcode, as a general answer or on a street whose name holds the word (the town may have a "Rue des Tilleuls"); another street = a street of the town without the word ("Allée des Bouleaux"), the answer to avoid.');
say();
say('| index | query | n | right | another street | another town |');
say('|---|---|---|---|---|---|');
const unknownRuns: [string, AddressIndex, Truth[]][] = [['BANO (17 départements)', (await cachedIndex('bano')).index, sample(banoTruth(3000), Number.isFinite(limit) ? Math.min(limit, 1000) : 1000, 5)]];
if (large) unknownRuns.push([`national-scale (${large.meta.counts.addresses} points)`, large, sample(largeTruth, Number.isFinite(limit) ? Math.min(limit, 1000) : 1000, 5)]);
const unknownFailures: string[] = [];
for (const [name, index, truth] of unknownRuns) {
  for (const r of runUnknownStreets(index, truth, lookup)) {
    say(`| ${name} | ${r.form} | ${r.n} | ${fmtPct(r.right / r.n)} | ${fmtPct(r.otherStreet / r.n)} | ${fmtPct(r.elsewhere / r.n)} |`);
    unknownFailures.push(...r.failures.slice(0, 2));
  }
}
for (const row of carried.unknownRows) say(row);
say();
if (unknownFailures.length) {
  say('Answers on another street (first ones):');
  say();
  for (const f of unknownFailures) say(`- \`${f}\``);
  say();
}

say('## Postcode queries (truth: OSM addr:postcode + addr:city of the extracts, BANO postcode + commune) against the embedded default');
say();
say(`Distinct (postcode, place) pairs. Right postcode = same country and same postcode key; right place as above; right state = the ISO 3166-2 first level of the extract (DK-84, FI-18, AT-3, DE-BY; FR by département); right point = the answer's point within ${PAIR_POINT_KM} km of the mean position of the pair's addresses in the extract (a code shared by several places: the place named, not its neighbour). GeoNames\' own pairs are not used: the default is built from them.`);
say();
say('| source | query | pairs | right country | right postcode | right place | right state | right point |');
say('|---|---|---|---|---|---|---|---|');
const def = (await cachedIndex('default')).index;
const pooledPc = { n: 0, pc: 0, st: 0, stN: 0, point: 0 };
for (const { source, pairs } of postcodePairs()) {
  for (const r of runPairs(def, source, pairs, lookup)) {
    say(`| ${r.source} | ${r.query} | ${r.n} | ${fmtPct(r.country / r.n)} | ${fmtPct(r.postcode / r.n)} | ${fmtPct(r.place / r.n)} | ${r.stateN ? fmtPct(r.state / r.stateN) : '–'} | ${fmtPct(r.point / r.n)} |`);
    pooledPc.n += r.n; pooledPc.pc += Math.min(r.postcode, r.place); pooledPc.st += r.state; pooledPc.stN += r.stateN; pooledPc.point += r.point;
  }
}
say();
say(`Pooled: right postcode and place ≥ ${fmtPct(pooledPc.pc / pooledPc.n)}; right state ${fmtPct(pooledPc.st / pooledPc.stN)}; right point ${fmtPct(pooledPc.point / pooledPc.n)}.`);
say();
say(`**A postcode alone, with its country.** The same extracts' codes, each asked with its country only; right = the code's main place there (the place with the most of the code's addresses: \`48000\` → Mende, not Badaroux), by name or by a point within ${PAIR_POINT_KM} km of its addresses. "Shared": the codes of several places in the extract, where the answer has to choose.`);
say();
say('| source | query | codes | right | codes of several places | right among them |');
say('|---|---|---|---|---|---|');
const aloneFailures: string[] = [];
for (const { source, pairs } of postcodePairs()) {
  for (const r of runPostcodeAlone(def, source, pairs, lookup)) {
    say(`| ${r.source} | ${r.query} | ${r.codes} | ${fmtPct(r.right / r.codes)} | ${r.shared} | ${r.shared ? fmtPct(r.sharedRight / r.shared) : '–'} |`);
    aloneFailures.push(...r.failures.slice(0, 2));
  }
}
say();
if (aloneFailures.length) {
  say('Codes of several places answered otherwise (first ones):');
  say();
  for (const f of aloneFailures) say(`- \`${f}\``);
  say();
}

say('## Pelias acceptance cases asking for a city, postcode or admin answer (embedded default)');
say();
say('Applicable = a forward search whose expected country is one of the 34 destinations (most of these files are about the US). Checked: country, locality, postcode, region (`state_name`), county. Without `locale` our state names are local (`Nordrhein-Westfalen`), Pelias\' are English.');
say();
say('| file | cases | applicable | passed |');
say('|---|---|---|---|');
const pel = peliasCases(def, lookup);
for (const r of pel) say(`| ${r.file} | ${r.cases} | ${r.applicable} | ${r.passed}${r.applicable ? ` (${fmtPct(r.passed / r.applicable)})` : ''} |`);
say();
const pf = pel.flatMap((r) => r.failures.map((f) => `${r.file}: ${f}`));
if (pf.length) {
  say('Failures:');
  say();
  for (const f of pf) say(`- \`${f}\``);
  say();
}

// ---- queries as people write them (issue 18)
const people = runPeopleSection(def, lookup);
for (const l of people.lines) say(l);
for (const l of baselineLines()) say(l);
for (const l of namesSectionLines(def, lookup)) say(l);

const targets: [string, string, number][] = [
  ['clean structured', 'clean structured', 0.995],
  ['free text (worst order)', 'free', 0.99],
  ['one typo', 'one typo in street', 0.97],
  ['no postcode', 'no postcode', 0.99],
];
for (const line of deductionsSection()) say(line);
say('## Targets');
say();
say('| target | goal | LI | CPH | BANO |');
say('|---|---|---|---|---|');
for (const [label, key, goal] of targets) {
  const val = (n: string) => {
    const s = summary[n]!;
    const v = key === 'free' ? Math.min(...Object.entries(s).filter(([k]) => k.startsWith('free')).map(([, x]) => x)) : s[key]!;
    return `${fmtPct(v)} ${v >= goal ? '✓' : '✗'}`;
  };
  say(`| ${label} | ≥ ${(goal * 100).toFixed(1)} % | ${val('li')} | ${val('cph')} | ${val('bano')} |`);
}
say(`| relevance ≥ 90 ⇒ correct | ≥ 99 % | pooled: ${fmtPct(pooledAll.ok / pooledAll.r90)} ${pooledAll.ok / pooledAll.r90 >= 0.99 ? '✓' : '✗'} | | |`);
say();
const ok = (v: number, goal: number) => `${fmtPct(v)} ${v >= goal ? '✓' : '✗'}`;
say('| issue 10 target | goal | measured |');
say('|---|---|---|');
say(`| held-out addresses: right city or postcode | ≥ 98 % | ${ok(held.right / held.n, 0.98)} |`);
say(`| held-out addresses: answers in another country | 0 | ${held.wrong} ${held.wrong === 0 ? '✓' : '✗'} |`);
say(`| held-out addresses: relevance < 90 | 100 % | ${ok(held.below / held.n, 1)} |`);
say(`| postcode queries: right postcode and place | ≥ 95 % | ${ok(pooledPc.pc / pooledPc.n, 0.95)} |`);
say(`| postcode queries: right state | ≥ 90 % | ${ok(pooledPc.st / pooledPc.stN, 0.9)} |`);
for (const p of parser.filter((x) => x.half === 'measured')) {
  say(`| parser ${p.suite} (measured half): house number | ≥ 90 % | ${ok(p.hn[0] / p.hn[1], 0.9)} |`);
  say(`| parser ${p.suite} (measured half): postcode | ≥ 90 % | ${ok(p.postcode[0] / p.postcode[1], 0.9)} |`);
}
say();
for (const l of peopleTargetLines(people.reports)) say(l);
say(`Total eval time ${((performance.now() - started) / 1000).toFixed(0)} s${large ? '' : ' (without `--large`)'}.`);
if (!values['no-write'] && !Number.isFinite(limit)) writeFileSync(PAGE, out.join('\n') + '\n');
