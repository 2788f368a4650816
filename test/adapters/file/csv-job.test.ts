/**
 * `addrflow run` over CSV/TSV and gzip, through the real CLI: quoting, delimiters, BOM, bad
 * bytes, encodings, column mapping, carried-through columns, rejected rows, the Excel flavour,
 * stdin/stdout, gzip in and out, and resume after kill -9 on CSV and on .csv.gz.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { gunzipSync, gzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { generateLines } from '../../../scripts/generate-requests.ts';
import { runCli, startCli } from '../../helpers/cli.ts';
import { parseFields } from '../../../src/csv/fields.ts';
import { RecordSplitter } from '../../../src/csv/splitter.ts';
import { csvRow } from '../../../src/csv/writer.ts';
import { Billing } from '../../../src/billing/billing.ts';
import { CHECKPOINT_VERSION, emptyTotals, writeCheckpoint } from '../../../src/adapters/file/checkpoint.ts';
import { EXIT_UNREADABLE_ROWS } from '../../../src/contract/exit-codes.ts';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'addrflow-csvjob-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const COLUMNS = ['id', 'countrycode', 'sendercountrycode', 'street', 'housenumber', 'zip', 'city', 'statecode', 'countrynamelanguage', 'additionaldata'];
const LINES_OUT = ['addressline1', 'addressline2', 'addressline3', 'addressline4', 'addressline5', 'addressline6', 'addresslinestatuscode', 'addresslinestatusmessage'];

/** Generated lines requests as CSV rows (some additional data with a quoted newline and `;`). */
function csvOf(lines: string[], delimiter = ','): string {
  const o = { delimiter, newline: '\n', excel: false } as const;
  let s = csvRow(COLUMNS, o);
  lines.forEach((l, i) => {
    let r: Record<string, unknown>;
    try {
      r = JSON.parse(l) as Record<string, unknown>;
    } catch {
      r = { id: i + 1, countrycode: 'DE', street: '"broken' }; // the generator's malformed lines
    }
    if (i % 7 === 3) r.additionaldata = `Hinterhaus; 2. OG,\nlinks "Tür"`;
    s += csvRow(COLUMNS.map((c) => (r[c] === undefined ? '' : String(r[c]))), o);
  });
  return s;
}

/** Parses a whole CSV text into rows of fields with the project's own splitter and parser. */
function rowsOf(text: string, delimiter = ','): string[][] {
  const rows: string[][] = [];
  const s = new RecordSplitter(delimiter);
  const emit = (b: Buffer, st: number, e: number) => rows.push(parseFields(b.toString('utf8', st, e), delimiter).fields);
  s.push(Buffer.from(text), emit);
  s.end(emit);
  return rows;
}

const sample = [...generateLines(3000, 9, 0)];
const run = (args: string[], stdin?: string) => runCli(['run', '--op', 'lines', '--progress', 'off', ...args], stdin === undefined ? {} : { stdin });

describe('CSV file jobs', () => {
  it('keeps every input column in order, appends result_ columns, one row per record, same results as NDJSON', async () => {
    const input = join(dir, 'a.csv');
    writeFileSync(input, csvOf(sample));
    const out = join(dir, 'a.out.csv');
    const r = await run(['--input', input, '--output', out, '--batch-size', '97', '--workers', '2']);
    expect(r.code, r.stderr).toBe(0);
    const rows = rowsOf(readFileSync(out, 'utf8'));
    expect(rows[0]).toEqual([...COLUMNS, ...LINES_OUT.map((k) => `result_${k}`), 'result_errorcode', 'result_errormessage']);
    expect(rows).toHaveLength(3001);
    const inRows = rowsOf(readFileSync(input, 'utf8'));
    for (let i = 1; i <= 3000; i++) expect(rows[i]!.slice(0, COLUMNS.length)).toEqual(inRows[i]);
    // The same requests as NDJSON give the same records.
    const nd = join(dir, 'a.ndjson');
    writeFileSync(nd, inRows.slice(1).map((f) => JSON.stringify(Object.fromEntries(COLUMNS.slice(1).map((c, k) => [c, f[k + 1]]).filter(([, v]) => v !== '')))).join('\n') + '\n');
    const rn = await run(['--input', nd]);
    const recs = rn.stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    for (let i = 0; i < 3000; i++) {
      const row = rows[i + 1]!;
      const rec = recs[i]!;
      if ('errorcode' in rec) expect(row.slice(-2)).toEqual([String(rec.errorcode), rec.errormessage]);
      else expect(row.slice(COLUMNS.length, -2)).toEqual(LINES_OUT.map((k) => String(rec[k])));
    }
  });

  it('detects ; and tab, reads a UTF-8 BOM, CR LF and quoted newlines; numbers records, not lines', async () => {
    const text = '\uFEFFid;countrycode;sendercountrycode;street;city;zip\r\n1;DE;DE;"Haupt;straße\r\n(Hof)";Berlin;10115\r\n2;DE;DE;Ring;Köln;50667\r\n\r\n3;DE;DE;"bad"x;Köln;50667\r\n4;DE;DE;Weg;Bonn;53111;extra\r\n';
    const input = join(dir, 'semi.csv');
    writeFileSync(input, text);
    const r = await run(['--input', input]);
    // [unreadable] records 3 (bad quoting) and 4 (a field more than the header): exit 9, not 0
    expect(r.code, r.stderr).toBe(EXIT_UNREADABLE_ROWS);
    expect(r.stderr).toMatch(/ADDR_ERR_ROWS_UNREADABLE: 2 records unreadable \(record 3, record 4\)/);
    const rows = rowsOf(r.stdout, ';');
    expect(rows[0]!.slice(0, 6)).toEqual(['id', 'countrycode', 'sendercountrycode', 'street', 'city', 'zip']);
    expect(rows).toHaveLength(5);
    expect(rows[1]![3]).toBe('Haupt;straße\r\n(Hof)');
    expect(rows[1]![6]).toMatch(/Haupt;straße/);
    expect(rows[2]![0]).toBe('2');
    expect(rows[3]!.slice(-2)).toEqual(['412', expect.stringMatching(/^Record 3: bad quoting/)]);
    expect(rows[4]!.slice(0, 6)).toEqual(['4', 'DE', 'DE', 'Weg', 'Bonn', '53111']);
    expect(rows[4]!.slice(-2)).toEqual(['412', 'Record 4: more fields than the header\'s 6.']);
    const tsv = join(dir, 't.tsv');
    writeFileSync(tsv, 'countrycode\tsendercountrycode\tcity\tzip\tstreet\nDE\tFR\tBerlin\t10115\tA, B\n');
    const t = await run(['--input', tsv]);
    expect(t.code, t.stderr).toBe(0);
    expect(rowsOf(t.stdout, '\t')[1]!.slice(0, 6)).toEqual(['DE', 'FR', 'Berlin', '10115', 'A, B', 'A, B']);
  });

  it('gives a row that is not UTF-8 an error in its columns; --encoding windows-1252 and latin1 read it', async () => {
    const input = join(dir, 'cp.csv');
    writeFileSync(input, Buffer.concat([Buffer.from('countrycode,sendercountrycode,street,housenumber,zip,city\nDE,DE,Ring,1,50667,K'), Buffer.from([0xf6]), Buffer.from('ln\nDE,DE,Weg,2,53111,Bonn\n')]));
    const r = await run(['--input', input]);
    const rows = rowsOf(r.stdout);
    expect(rows[1]!.slice(-2)).toEqual(['412', 'Record 1: not valid UTF-8 (for a Windows-1252 or Latin-1 export, use --encoding).']);
    expect(rows[1]![5]).toBe('K\uFFFDln');
    expect(rows[2]!.at(-3)).toBe('OK');
    for (const enc of ['windows-1252', 'latin1']) {
      const w = await run(['--input', input, '--encoding', enc]);
      expect(w.code, w.stderr).toBe(0);
      const wr = rowsOf(w.stdout);
      expect(wr[1]![5]).toBe('Köln');
      expect(wr[1]![7]).toBe('50667 Köln');
    }
  });

  it('maps columns with --map, joins several into one parameter, carries the others through', async () => {
    const input = join(dir, 'map.csv');
    writeFileSync(input, 'Kunde,Strasse,Nr,PLZ,Ort,Land\nK-1,Städtle,35,9490,Vaduz,LI\nK-2,,,,,LI\n');
    const r = await runCli(['run', '--op', 'search', '--progress', 'off', '--input', input, '--map', 'address=Strasse+Nr+PLZ+Ort,country=Land', '--prefix', '']);
    expect(r.code, r.stderr).toBe(0);
    const rows = rowsOf(r.stdout);
    expect(rows[0]).toEqual(['Kunde', 'Strasse', 'Nr', 'PLZ', 'Ort', 'Land', 'country_iso_2', 'country_iso_3', 'country', 'state', 'state_name', 'state_code', 'county', 'city', 'zip', 'district', 'street', 'housenumber', 'additional_data', 'latitude', 'longitude', 'navigation_latitude', 'navigation_longitude', 'relevance', 'matchlevel', 'errorcode', 'errormessage']);
    expect(rows[1]!.slice(0, 6)).toEqual(['K-1', 'Städtle', '35', '9490', 'Vaduz', 'LI']);
    expect(rows[1]![rows[0]!.indexOf('city')]).toBe('Vaduz');
    expect(rows[2]![0]).toBe('K-2');
    const bad = await runCli(['run', '--op', 'search', '--input', input, '--map', 'address=Strasse+Hausnummer']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/no column 'Hausnummer'/);
    const none = await runCli(['run', '--op', 'lines', '--input', input]);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/no column of the header .* is a parameter of --op lines/);
  });

  it('with --errors, rejected rows go to the errors file with their record number', async () => {
    const input = join(dir, 'err.csv');
    writeFileSync(input, 'id,countrycode,sendercountrycode,city\n1,DE,DE,Berlin\n2,DE,,Köln\n3,DE,FR,Bonn\n');
    const out = join(dir, 'err.out.csv');
    const errs = join(dir, 'err.errors.csv');
    const r = await run(['--input', input, '--output', out, '--errors', errs]);
    expect(r.code, r.stderr).toBe(0);
    expect(rowsOf(readFileSync(out, 'utf8')).map((x) => x[0])).toEqual(['id', '1', '3']);
    expect(rowsOf(readFileSync(errs, 'utf8'))).toEqual([
      ['record', 'id', 'countrycode', 'sendercountrycode', 'city', 'errorcode', 'errormessage'],
      ['2', '2', 'DE', '', 'Köln', '428', expect.stringContaining('sendercountrycode')],
    ]);
    // The same with both files gzipped.
    const r2 = await run(['--input', input, '--output', `${out}.gz`, '--errors', `${errs}.gz`]);
    expect(r2.code, r2.stderr).toBe(0);
    expect(gunzipSync(readFileSync(`${out}.gz`)).toString('utf8')).toBe(readFileSync(out, 'utf8'));
    expect(gunzipSync(readFileSync(`${errs}.gz`)).toString('utf8')).toBe(readFileSync(errs, 'utf8'));
  });

  it('--excel writes a BOM, ;, CR LF and escapes formula cells', async () => {
    const r = await run(['--format', 'csv', '--excel'], 'countrycode,sendercountrycode,city,additionaldata\nDE,DE,Berlin,=HYPERLINK("x")\n');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.startsWith('\uFEFFcountrycode;sendercountrycode;city;additionaldata;result_addressline1')).toBe(true);
    expect(r.stdout).toContain(`\r\nDE;DE;Berlin;"'=HYPERLINK(""x"")";`);
    expect(r.stdout.endsWith(';;\r\n')).toBe(true);
  });

  it('reads CSV from stdin by content and writes to stdout; gzip in (by content) and out (by extension)', async () => {
    const text = csvOf(sample.slice(0, 500));
    const plain = await run([], text);
    expect(plain.code, plain.stderr).toBe(0);
    const gzIn = join(dir, 'g.csv.gz');
    writeFileSync(gzIn, gzipSync(text));
    const gzOut = join(dir, 'g.out.csv.gz');
    const g = await run(['--input', gzIn, '--output', gzOut, '--batch-size', '64']);
    expect(g.code, g.stderr).toBe(0);
    expect(gunzipSync(readFileSync(gzOut)).toString('utf8')).toBe(plain.stdout);
    // NDJSON in and out through gzip too.
    const nd = join(dir, 'g.ndjson.gz');
    writeFileSync(nd, gzipSync(sample.slice(0, 300).join('\n') + '\n'));
    const ndOut = join(dir, 'g.out.ndjson.gz');
    expect((await run(['--input', nd, '--output', ndOut])).code).toBe(0);
    expect(gunzipSync(readFileSync(ndOut)).toString('utf8').trimEnd().split('\n')).toHaveLength(300);
  });
});

describe('CSV resume refuses other format options', () => {
  it('a checkpoint written with other CSV options is not resumed with these', async () => {
    const input = join(dir, 'fmt.csv');
    writeFileSync(input, 'countrycode,sendercountrycode,city\nDE,DE,Berlin\n');
    const out = join(dir, 'fmt.out.csv');
    writeFileSync(out, '');
    const bytes = readFileSync(input);
    writeCheckpoint(`${out}.checkpoint`, { version: CHECKPOINT_VERSION, op: 'lines', jobId: 'job-fmt', input: { bytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') }, recordsDone: 0, outputBytes: 0, errorsBytes: 0, totals: emptyTotals(), formatKey: 'format=csv excel=false' });
    const r = await run(['--input', input, '--output', out, '--excel', '--resume']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--resume: the job was started with other format options/);
  });
});

describe('metered .csv.gz job that runs out of credits', () => {
  it('stops at a batch end, and after a top-up --resume gives the same .gz bytes, each record charged once', async () => {
    const records = [...generateLines(2000, 21, 0)];
    const input = join(dir, 'credits.csv');
    writeFileSync(input, csvOf(records));
    const ref = join(dir, 'credits.ref.csv.gz');
    expect((await run(['--input', input, '--output', ref, '--batch-size', '300'])).code).toBe(0);
    const db = `sqlite:${join(dir, 'credits.sqlite')}`;
    const created = await runCli(['accounts', 'create', '--credits', String(20 * 450), '--agree', 'lines', '--db', db]);
    expect(created.code, created.stderr).toBe(0);
    const acc = JSON.parse(created.stdout) as { license: string; guid: string; account: string };
    const out = join(dir, 'credits.csv.gz');
    const args = ['--input', input, '--output', out, '--batch-size', '300', '--license', acc.license, '--guid', acc.guid, '--db', db];
    const first = await run(args);
    expect(first.code, first.stderr).toBe(3);
    expect(rowsOf(gunzipSync(readFileSync(out)).toString('utf8')).length).toBe(1 + 300); // header + one whole batch
    expect((await runCli(['accounts', 'topup', '--account', acc.account, '--credits', String(20 * 3000), '--db', db])).code).toBe(0);
    const second = await run([...args, '--resume']);
    expect(second.code, second.stderr).toBe(0);
    expect(readFileSync(out).equals(readFileSync(ref))).toBe(true);
    const reference = gunzipSync(readFileSync(ref)).toString('utf8');
    const billing = await Billing.open(db);
    try {
      expect(await billing.store.ledgerCount(acc.account)).toBe(rowsOf(reference).slice(1).filter((r) => r.at(-2) === '' && (r.at(-4) === '0' || r.at(-4) === '1')).length);
    } finally {
      await billing.close();
    }
  }, 60_000);
});

describe('CSV resume after kill -9', () => {
  const big = [...generateLines(200_000, 13, 1000)];
  let input: string;
  let reference: string;
  let referenceGz: Buffer;
  beforeAll(async () => {
    input = join(dir, 'big.csv');
    writeFileSync(input, csvOf(big));
    const ref = join(dir, 'big.ref.csv');
    const refGz = join(dir, 'big.ref.csv.gz');
    const common = ['--input', input, '--batch-size', '500'];
    expect((await run([...common, '--output', ref])).code).toBe(0);
    expect((await run([...common, '--output', refGz])).code).toBe(0);
    reference = readFileSync(ref, 'utf8');
    referenceGz = readFileSync(refGz);
    expect(gunzipSync(referenceGz).toString('utf8')).toBe(reference);
  }, 120_000);

  async function killThenResume(name: string, gz: boolean, metered: boolean) {
    const out = join(dir, `${name}.csv${gz ? '.gz' : ''}`);
    const args = ['run', '--op', 'lines', '--progress', 'off', '--input', input, '--output', out, '--batch-size', '500', '--checkpoint-interval', '50'];
    let acc: { license: string; guid: string; account: string } | undefined;
    const db = `sqlite:${join(dir, `${name}.sqlite`)}`;
    if (metered) {
      const created = await runCli(['accounts', 'create', '--unlimited', '--agree', 'lines', '--db', db]);
      expect(created.code, created.stderr).toBe(0);
      acc = JSON.parse(created.stdout);
      args.push('--license', acc!.license, '--guid', acc!.guid, '--db', db);
    }
    const { child, done } = startCli(args);
    const started = Date.now();
    while (!existsSync(`${out}.checkpoint`) && Date.now() - started < 60_000) await sleep(20);
    await sleep(Math.floor(Math.random() * 150));
    child.kill('SIGKILL');
    expect((await done).signal).toBe('SIGKILL');
    expect(readFileSync(out).length).toBeLessThan(gz ? referenceGz.length : Buffer.byteLength(reference));
    const second = await runCli([...args, '--resume']);
    expect(second.code, second.stderr).toBe(0);
    if (gz) expect(readFileSync(out).equals(referenceGz)).toBe(true);
    else expect(readFileSync(out, 'utf8')).toBe(reference);
    if (acc) {
      const chargeable = rowsOf(reference).slice(1).filter((r) => r.at(-2) === '' && (r.at(-4) === '0' || r.at(-4) === '1')).length;
      const billing = await Billing.open(db);
      try {
        expect(await billing.store.ledgerCount(acc.account)).toBe(chargeable);
      } finally {
        await billing.close();
      }
    }
  }

  it('kill -9 on a CSV job (metered), then --resume: byte-identical output, each record charged once', async () => {
    await killThenResume('killed', false, true);
  }, 120_000);

  it('kill -9 on a .csv.gz output, then --resume: the .gz is byte-identical to an uninterrupted run', async () => {
    await killThenResume('killed-gz', true, false);
  }, 120_000);
});
