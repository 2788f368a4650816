/**
 * File-job equivalence: runs a fixed set of file jobs with the CLI (`node bin/addrflow.ts run`)
 * and records the SHA-256 of every output, errors and report file, so that a change that must not
 * change any file job's bytes (a refactor of the worker loop, of the pool) can be checked: run it
 * on the base commit, keep the JSON, run it again after the change with --compare.
 *
 *   node tools/file-job-equivalence.ts --out FILE [--compare BASE.json] [--rows N] [--no-search] [--root DIR]
 *
 * --root  the checkout whose CLI runs (default this tree), e.g. a `git archive BASE | tar -x` copy
 *         with a node_modules symlink, so the base can run while this tree changes.
 *
 * Inputs (made fresh in a temporary directory, deterministically): examples/lines.ndjson, and
 * the first --rows BANO rows (default 3000, ../shared/data/bano-fr-2015/bano-04.csv.gz) as CSV,
 * TSV, Windows-1252 CSV, NDJSON and a JSON array, plain and gzip, with broken records mixed in:
 * bad quoting, more fields than the header, bytes that are not UTF-8, lines that are not JSON,
 * a JSON array or scalar where an object belongs. Jobs cover both ops, --errors, --excel,
 * --report, gzip in and out, several batches on two worker threads.
 *
 * Reports carry timings and a job id: those parts (job id, started, finished, duration,
 * records/s) and the temporary directory's and the checkout's names are masked before hashing; everything else in a report is compared as bytes.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { gunzipSync, gzipSync } from 'node:zlib';
import { PROJECT_ROOT, sharedDataDir, sharedDataPath } from '../src/config/shared-data.ts';

const { values } = parseArgs({
  options: {
    out: { type: 'string' },
    compare: { type: 'string' },
    rows: { type: 'string', default: '3000' },
    'no-search': { type: 'boolean', default: false },
    root: { type: 'string' },
  },
});
if (!values.out) {
  console.error('usage: node tools/file-job-equivalence.ts --out FILE [--compare BASE.json] [--rows N] [--no-search]');
  process.exit(2);
}

const ROWS = Number(values.rows);
const ROOT = resolve(values.root ?? PROJECT_ROOT);
const bano = sharedDataPath('bano-fr-2015', 'bano-04.csv.gz');
const dir = mkdtempSync(join(tmpdir(), 'file-job-eq-'));

// BANO: id,housenumber,street,zip,city,source,lat,lon (no header)
const rows = gunzipSync(readFileSync(bano)).toString('utf8').split('\n').filter(Boolean).slice(0, ROWS)
  .map((l) => l.split(','));

function q(s: string): string {
  return /[",;\t\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

// --- CSV (lines and search share it: search carries sendercountrycode through as a column) ---
const header = 'id,housenumber,street,zip,city,countrycode,sendercountrycode,lat,lon';
const csvLines: Array<string | Buffer> = [header];
rows.forEach((r, i) => {
  const [id, hn, street, zip, city, , lat, lon] = r as [string, string, string, string, string, string, string, string];
  let line = [id, hn, street, zip, city, 'FR', 'DE', lat, lon].map(q).join(',');
  if (i % 97 === 5) line = line.replace(street, `"${street}" x`); // bad quoting
  if (i % 101 === 7) line += ',extra,fields'; // more fields than the header
  if (i % 89 === 11) line = line.replace(',FR,', ',"FR ""quoted"" ; here",'); // quoted field, valid
  if (i % 113 === 13) line = line.replace(',FR,', ',F,'); // an invalid countrycode
  if (i % 131 === 17) line = line.split(',').slice(0, 5).join(','); // fewer fields
  if (i % 83 === 19) {
    csvLines.push(Buffer.concat([Buffer.from(line.slice(0, 12)), Buffer.from([0xff, 0xfe, 0xe9]), Buffer.from(line.slice(12))]));
    return;
  }
  csvLines.push(line);
});
const csvBuf = Buffer.concat(csvLines.map((l, i) => Buffer.concat([typeof l === 'string' ? Buffer.from(l) : l, Buffer.from(i % 7 === 3 ? '\r\n' : '\n')])));
writeFileSync(join(dir, 'bano.csv'), csvBuf);
writeFileSync(join(dir, 'bano.csv.gz'), gzipSync(csvBuf));
// TSV with other header names (--map) and a Windows-1252 CSV with accents
const tsv = [['ID', 'No', 'Voie', 'CP', 'Commune', 'Pays', 'Expediteur'].join('\t'),
  ...rows.map((r) => [r[0], r[1], r[2], r[3], r[4], 'FR', 'DE'].join('\t'))].join('\n') + '\n';
writeFileSync(join(dir, 'bano.tsv'), tsv);
const accents = rows.slice(0, 800).map((r, i) => [r[0], r[1], i % 3 === 0 ? `${r[2]} é à ç` : r[2], r[3], r[4], 'FR', 'DE'].join(';'));
writeFileSync(join(dir, 'bano-1252.csv'), Buffer.from(['id;housenumber;street;zip;city;countrycode;sendercountrycode', ...accents].join('\r\n') + '\r\n', 'latin1'));

// --- NDJSON and JSON array ---
function element(r: string[], op: 'lines' | 'search'): Record<string, string> {
  const e: Record<string, string> = { id: r[0]!, countrycode: 'FR', street: r[2]!, housenumber: r[1]!, zip: r[3]!, city: r[4]! };
  if (op === 'lines') e.sendercountrycode = 'DE';
  return e;
}
for (const op of ['lines', 'search'] as const) {
  const nd: Buffer[] = [];
  rows.forEach((r, i) => {
    let line = JSON.stringify(element(r, op));
    if (i % 97 === 5) line = line.slice(0, -3); // not JSON
    if (i % 101 === 7) line = '[1,2]';
    if (i % 103 === 9) line = '"a string"';
    if (i % 107 === 11) line = JSON.stringify({ ...element(r, op), zip: 12345 }); // wrong type
    if (i % 109 === 13) line = JSON.stringify({ ...element(r, op), countrycode: 'F' });
    if (i % 83 === 19) {
      nd.push(Buffer.concat([Buffer.from(line.slice(0, 20)), Buffer.from([0xc3, 0x28]), Buffer.from(line.slice(20)), Buffer.from('\n')]));
      return;
    }
    if (i % 211 === 23) nd.push(Buffer.from('\n')); // blank line
    nd.push(Buffer.from(line + '\n'));
  });
  const ndBuf = Buffer.concat(nd);
  writeFileSync(join(dir, `${op}.ndjson`), ndBuf);
  writeFileSync(join(dir, `${op}.ndjson.gz`), gzipSync(ndBuf));
  const arr: unknown[] = rows.map((r, i) => (i % 97 === 5 ? 42 : i % 101 === 7 ? [1] : i % 103 === 9 ? null : element(r, op)));
  const json = '[\n' + arr.map((e) => JSON.stringify(e)).join(',\n') + '\n]\n';
  writeFileSync(join(dir, `${op}.json`), json);
  writeFileSync(join(dir, `${op}.json.gz`), gzipSync(json));
}
writeFileSync(join(dir, 'broken.json'), '[{"countrycode":"DE","sendercountrycode":"DE","city":"Berlin"}, {"a": tru}, {"countrycode":"FR","sendercountrycode":"DE","city":"Paris"}]');

interface Job { name: string; op: 'lines' | 'search'; input: string; outputs: string[]; args: string[] }
const J = (name: string, op: Job['op'], input: string, output: string, extra: Record<string, string> = {}, flags: string[] = []): Job => {
  const args = ['--op', op, '--input', input.startsWith('/') ? input : join(dir, input), '--output', join(dir, output)];
  const outputs = [output];
  for (const [k, v] of Object.entries(extra)) {
    const isFile = k === 'errors' || k === 'report';
    args.push(`--${k}`, isFile ? join(dir, v) : v);
    if (isFile) outputs.push(v);
  }
  args.push(...flags);
  return { name, op, input, outputs, args };
};
const example = join(ROOT, 'examples/lines.ndjson');
const jobs: Job[] = [
  J('example-lines', 'lines', example, 'ex-lines.ndjson', { report: 'ex-lines.html' }),
  J('lines-ndjson', 'lines', 'lines.ndjson', 'l1.ndjson'),
  J('lines-ndjson-errors-report', 'lines', 'lines.ndjson', 'l2.ndjson', { errors: 'l2-err.ndjson', report: 'l2.html' }),
  J('lines-ndjson-gz-report0', 'lines', 'lines.ndjson.gz', 'l3.ndjson.gz', { report: 'l3.html', 'report-rows': '0' }),
  J('lines-json', 'lines', 'lines.json', 'l4.ndjson', { report: 'l4.html' }),
  J('lines-json-gz-errors-gz', 'lines', 'lines.json.gz', 'l5.ndjson.gz', { errors: 'l5-err.ndjson.gz' }),
  J('lines-json-broken', 'lines', 'broken.json', 'l6.ndjson', { errors: 'l6-err.ndjson' }),
  J('lines-csv', 'lines', 'bano.csv', 'l7.csv'),
  J('lines-csv-excel-errors-report', 'lines', 'bano.csv', 'l8.csv', { errors: 'l8-err.csv', report: 'l8.html' }, ['--excel']),
  J('lines-csv-gz', 'lines', 'bano.csv.gz', 'l9.csv.gz', { errors: 'l9-err.csv.gz', report: 'l9.html' }),
  J('lines-tsv-map', 'lines', 'bano.tsv', 'l10.tsv', { map: 'housenumber=No,street=Voie,zip=CP,city=Commune,countrycode=Pays,sendercountrycode=Expediteur', prefix: '' }),
  J('lines-csv-1252', 'lines', 'bano-1252.csv', 'l11.csv', { encoding: 'windows-1252', report: 'l11.html' }, ['--excel']),
  J('lines-csv-utf8-of-1252', 'lines', 'bano-1252.csv', 'l12.csv', { errors: 'l12-err.csv' }),
];
if (!values['no-search']) {
  jobs.push(
    J('search-ndjson-report', 'search', 'search.ndjson', 's1.ndjson', { report: 's1.html' }),
    J('search-json-gz-errors', 'search', 'search.json.gz', 's2.ndjson.gz', { errors: 's2-err.ndjson', report: 's2.html' }),
    J('search-csv-excel-errors-report', 'search', 'bano.csv', 's3.csv', { errors: 's3-err.csv.gz', report: 's3.html' }, ['--excel']),
    J('search-csv-gz', 'search', 'bano.csv.gz', 's4.csv.gz', { 'report-rows': '7', report: 's4.html' }),
  );
}

function mask(name: string, b: Buffer): Buffer {
  if (!name.endsWith('.html')) return b;
  return Buffer.from(b.toString('utf8').replaceAll(dir, '<tmp>').replaceAll(ROOT, '<root>')
    .replace(/(data-id="(?:job|started|finished|duration|records\/s)">)[^<]*/g, '$1#')
    .replace(/(data-tile="rate">)[^<]*/g, '$1#'));
}

const result: Record<string, Record<string, string>> = {};
for (const job of jobs) {
  const t0 = Date.now();
  const r = spawnSync(process.execPath, [join(ROOT, 'bin/addrflow.ts'), 'run', ...job.args, '--workers', '2', '--batch-size', '300', '--progress', 'off'], { encoding: 'utf8', cwd: ROOT, env: { ...process.env, ADDRFLOW_DATA_DIR: sharedDataDir() } });
  const files: Record<string, string> = { exit: String(r.status) };
  for (const f of job.outputs) {
    const p = join(dir, f);
    if (!existsSync(p)) {
      files[f] = 'missing';
      continue;
    }
    const b = readFileSync(p);
    // gzip bytes themselves, and what they hold (a member boundary moved would show in the first)
    files[f] = createHash('sha256').update(mask(f, b)).digest('hex');
    if (f.endsWith('.gz')) files[`${f} (gunzipped)`] = createHash('sha256').update(gunzipSync(b)).digest('hex');
  }
  // the summary line, without its timing
  const summary = r.stdout.split('\n').concat(r.stderr.split('\n')).find((l) => l.includes('"job summary"'));
  if (summary) {
    const s = JSON.parse(summary).summary as Record<string, unknown>;
    delete s.elapsedMs;
    files.summary = JSON.stringify(s);
  }
  result[job.name] = files;
  console.log(`${job.name}: exit ${r.status} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
}
writeFileSync(values.out, JSON.stringify(result, null, 1) + '\n');
rmSync(dir, { recursive: true, force: true });

if (values.compare) {
  const base = JSON.parse(readFileSync(values.compare, 'utf8')) as typeof result;
  let same = 0;
  let differ = 0;
  for (const [job, files] of Object.entries(base)) {
    for (const [f, h] of Object.entries(files)) {
      const now = result[job]?.[f];
      if (now === h) same++;
      else {
        differ++;
        console.log(`DIFFERS ${job} ${f}: ${h} → ${now}`);
      }
    }
  }
  console.log(`${same} identical, ${differ} different`);
  process.exit(differ === 0 ? 0 : 1);
}
