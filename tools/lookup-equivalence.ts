/**
 * Lookup equivalence: runs a fixed, large query set through `lookup` and writes one JSON line per
 * query (suite, request, record), then one sha256 per suite, so that two versions of the engine can
 * be compared byte for byte (`cmp`/`diff` the files, or compare the hashes). Use it for changes
 * that must not change any answer (speed-ups, refactors).
 *
 *   node tools/lookup-equivalence.ts [--engine DIR] [--out FILE] [--real DIR] [--large DIR] [--limit N]
 *
 * --engine  a checkout of the version to run (its src/engine answers; default this tree), e.g. a
 *           `git archive <commit> src | tar -x -C .cache/base` copy. The indexes are this tree's,
 *           so both versions read the very same files.
 * --real    the bench's real-data-only index (default .cache/index-scale/idx-real): the bench mix.
 * --large   a national-scale index (e.g. .cache/index-scale/idx-30000000): the bench mix there too.
 * --limit   reference addresses per eval suite (default 3000).
 *
 * The queries: eval/lookup's suites, exactly as `npm run eval:lookup` makes them (every query
 * variant on the LI, CPH and BANO indexes; the held-out extracts against the embedded default and
 * the BANO index; postcode + place pairs and the Pelias cases against the default; the Nominatim
 * cases, the sets of queries as people write them of eval/lookup/people), then the national bench's mix (clean / typo / unknown street / wrong postcode,
 * structured and free text; tools/lookup-mix.ts). Indexes are built and cached by the eval's
 * `cachedIndex` (.cache/eval/).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, openSync, writeSync, closeSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { PROJECT_ROOT } from '../src/config/shared-data.ts';
import type { SearchRecord } from '../src/contract/records.ts';
import type { SearchRequest } from '../src/contract/requests.ts';
import { loadIndexFile } from '../src/data/index-file.ts';
import type { AddressIndex } from '../src/engine/index/index.ts';
import { nominatimCases } from '../eval/lookup/cases.ts';
import { heldOutSuites, peliasCases, postcodePairs, runHeldOut, runPairs } from '../eval/lookup/fallback-suites.ts';
import { VARIANTS, banoTruth, cachedIndex, osmTruth, runSuite, sample } from '../eval/lookup/suites.ts';
import { MIX_CATEGORY, lookupMix } from './lookup-mix.ts';
import { PEOPLE_SETS } from '../eval/lookup/people/evaluate.ts';

type Lookup = (i: AddressIndex, r: SearchRequest) => SearchRecord;

const USAGE = 'usage: node tools/lookup-equivalence.ts [--engine DIR] [--out FILE] [--real DIR] [--large DIR] [--limit N]';
let parsed;
try {
  parsed = parseArgs({
    options: {
      engine: { type: 'string' }, out: { type: 'string' }, real: { type: 'string' }, large: { type: 'string' }, limit: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
} catch (err) {
  console.error(`lookup-equivalence: ${(err as Error).message}\n${USAGE}`);
  process.exit(2);
}
const { values } = parsed;
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const engineDir = resolve(values.engine ?? PROJECT_ROOT);
const limit = Number(values.limit ?? 3000);
const outFile = resolve(values.out ?? resolve(PROJECT_ROOT, '.cache', 'equivalence', 'lookup.jsonl'));

// the engine under test: its own lookup, and its own openIndex for every index it reads
const engine = {
  lookup: (await import(resolve(engineDir, 'src/engine/lookup/index.ts'))).lookup as Lookup,
  openIndex: (await import(resolve(engineDir, 'src/engine/index/index.ts'))).openIndex as (b: ArrayBufferLike) => AddressIndex,
};

mkdirSync(dirname(outFile), { recursive: true });
const fd = openSync(outFile, 'w');
const hashes: [string, number, string][] = [];

/** Runs `body` with a lookup that writes each query and its record under `suite`. */
function suite(name: string, body: (lookup: Lookup) => void): void {
  const h = createHash('sha256');
  let n = 0;
  const t0 = performance.now();
  body((index, req) => {
    const r = engine.lookup(index, req);
    const line = JSON.stringify({ s: name, q: req, r }) + '\n';
    h.update(line);
    writeSync(fd, line);
    n++;
    return r;
  });
  const digest = h.digest('hex');
  hashes.push([name, n, digest]);
  console.error(`${name}: ${n} queries, ${((performance.now() - t0) / 1000).toFixed(1)} s, sha256 ${digest.slice(0, 16)}`);
}

const opened = new Map<string, AddressIndex>();
async function indexAt(dir: string): Promise<AddressIndex> {
  let idx = opened.get(dir);
  if (!idx) opened.set(dir, (idx = engine.openIndex(await loadIndexFile(dir))));
  return idx;
}
const evalIndex = async (name: string) => indexAt((await cachedIndex(name)).dir);

// ---- eval/lookup: every variant on the three reference suites
const refSuites: [string, () => ReturnType<typeof osmTruth>][] = [
  ['li', () => osmTruth('osm-liechtenstein-2024')],
  ['cph', () => osmTruth('osm-copenhagen-dk-2012')],
  ['bano', () => banoTruth(3000)],
];
for (const [name, truthFn] of refSuites) {
  const index = await evalIndex(name);
  const truth = sample(truthFn(), limit, 1);
  suite(`variants ${name}`, (lk) => runSuite(index, truth, VARIANTS, lk));
}

// ---- addresses the index does not hold, postcode pairs, Pelias, Nominatim
for (const s of heldOutSuites()) {
  const index = await evalIndex(s.index);
  const truth = sample(s.truth(), Math.min(limit, 1500), 9);
  suite(`held-out ${s.name}`, (lk) => runHeldOut(index, truth, lk));
}
const def = await evalIndex('default');
for (const { source, pairs } of postcodePairs()) suite(`postcode pairs ${source}`, (lk) => runPairs(def, source, pairs, lk));
suite('pelias', (lk) => peliasCases(def, lk));
const nominatim = await evalIndex('nominatim');
suite('nominatim', (lk) => nominatimCases(nominatim, lk));
// the queries as people write them (issue 18), on the default too
for (const [set, cases] of Object.entries(PEOPLE_SETS)) suite(`people ${set}`, (lk) => { for (const c of cases()) lk(def, c.query); });

// ---- the national bench's mix, on the real-data-only index and (optionally) the national one
function benchMix(label: string, index: AddressIndex): void {
  for (const free of [false, true]) {
    const qs = lookupMix(free);
    for (const cat of new Set(MIX_CATEGORY)) {
      suite(`mix ${label} ${free ? 'free' : 'struct'} ${cat}`, (lk) => qs.forEach((q, i) => { if (MIX_CATEGORY[i % 10] === cat) lk(index, q); }));
    }
  }
}
const realDir = resolve(values.real ?? resolve(PROJECT_ROOT, '.cache', 'index-scale', 'idx-real'));
if (existsSync(resolve(realDir, 'index.bin'))) benchMix('real', await indexAt(realDir));
else console.error(`bench mix skipped: no real-data index at ${realDir} (npm run bench -- index-scale builds it)`);
if (values.large) {
  opened.clear(); // let the small indexes go before mapping a national one
  benchMix('large', engine.openIndex(await loadIndexFile(resolve(values.large))));
}

closeSync(fd);
for (const [name, n, digest] of hashes) console.log(`${digest}  ${String(n).padStart(6)}  ${name}`);
console.log(`${hashes.reduce((a, [, n]) => a + n, 0)} queries → ${outFile}`);
