/**
 * The policy on unreadable rows (issue 19), with real processes (`node bin/addrflow.ts run`):
 * rows the reader or the format could not read as a record are counted apart from rows the
 * parameter table refused; by default the job finishes and exits 9 naming them; --max-rejected N
 * accepts up to N (exit 0) and stops past N at a record boundary with a checkpoint (exit 10),
 * from which --resume with a higher N finishes byte-for-byte as an uninterrupted run;
 * --summary-json and --report are written on every stop, a full device (exit 7) included.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateLines } from '../../../scripts/generate-requests.ts';
import { runCli, startCli } from '../../helpers/cli.ts';
import { setTimeout as sleep } from 'node:timers/promises';
import { gzipSync } from 'node:zlib';
import { EXIT_INPUT, EXIT_OUTPUT, EXIT_TOO_MANY_REJECTED, EXIT_UNREADABLE_ROWS } from '../../../src/contract/exit-codes.ts';

const dir = mkdtempSync(join(tmpdir(), 'addrflow-unreadable-'));
const small = join(dir, 'small-fs');
mkdirSync(small);

/** A real 64 KiB filesystem (tmpfs) needs CAP_SYS_ADMIN; without it that test skips, saying why. */
function mountSmall(): string | undefined {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', small], { stdio: 'pipe' });
    return undefined;
  } catch (err) {
    return `cannot mount a 64 KiB tmpfs here (${String((err as { stderr?: Buffer }).stderr ?? err).trim().split('\n')[0]})`;
  }
}
const noSmallFs = mountSmall();

afterAll(() => {
  if (!noSmallFs) spawnSync('umount', [small]);
  rmSync(dir, { recursive: true, force: true });
});

const run = (args: string[]) => runCli(['run', '--op', 'lines', '--progress', 'off', ...args]);
const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8'));

// 3,000 valid lines requests; every 250th line (from line 7 on) is not JSON, and line 100 is JSON
// but not an object: 13 unreadable lines. Line 50 lacks sendercountrycode: a 428, not unreadable.
const good = [...generateLines(3000, 17, 0)];
const lines = good.map((l, i) => {
  const n = i + 1;
  if (n % 250 === 7) return `{"id":${n},"countrycode":"DE"`;
  if (n === 100) return '[1,2,3]';
  if (n === 50) return JSON.stringify({ id: n, countrycode: 'DE' });
  return l;
});
const UNREADABLE = lines.map((l, i) => [l, i + 1] as const).filter(([l]) => l.startsWith('[') || !l.endsWith('}')).map(([, n]) => n);
const input = join(dir, 'in.ndjson');
writeFileSync(input, lines.join('\n') + '\n');

describe('by default: every readable row is done, then exit 9', () => {
  it('NDJSON with lines that are not JSON (or not an object): exit 9, one coded line naming N and the first lines; summary, --summary-json and report list them', async () => {
    expect(UNREADABLE).toHaveLength(13);
    const out = join(dir, 'default.out');
    const summary = join(dir, 'default.json');
    const report = join(dir, 'default.html');
    const r = await run(['--input', input, '--output', out, '--summary-json', summary, '--report', report]);
    expect(r.code, r.stderr).toBe(EXIT_UNREADABLE_ROWS);
    const coded = r.stderr.split('\n').filter((l) => l.includes('ADDR_ERR_'));
    expect(coded).toEqual([`addrflow run: ADDR_ERR_ROWS_UNREADABLE: 13 lines unreadable (line 7, line 100, line 257, line 507, line 757 and 8 more); every readable one was done (their errors are in the output); --max-rejected 13 accepts them with exit code 0`]);
    expect(r.stderr).toMatch(/^ {2}unreadable: {4}13 \(counted among the rejected\), the first 10:$/m);
    expect(r.stderr).toMatch(/^ {4}line 100: A request element must be a JSON object/m);
    // the output is as before: every line in its slot, the unreadable ones with their 412
    const records = readFileSync(out, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(records).toHaveLength(3000);
    expect(records[6]).toEqual({ errorcode: 412, errormessage: expect.stringMatching(/^Line 7: not valid JSON/) });
    expect(records[49]).toEqual({ id: 50, errorcode: 428, errormessage: expect.any(String) });
    expect(existsSync(`${out}.checkpoint`)).toBe(false); // the job is done
    const s = readJson(summary);
    expect(s).toMatchObject({
      version: 1, op: 'lines', resumed: false, exitCode: 9, end: 'done', records: 3000, recordsDone: 3000,
      unreadable: { count: 13, limit: null, unit: 'line', stoppedBefore: null }, credits: null,
      paths: { input, output: out, report, errors: null },
    });
    expect(s.exitMeaning).toMatch(/some rows could not be read/);
    expect(s.message).toBe(coded[0]!.replace('addrflow run: ', ''));
    expect(s.rejectedByCode['428']).toBeGreaterThanOrEqual(1);
    expect(s.rejected).toBe(s.rejectedByCode['412'] + s.rejectedByCode['428']);
    expect(s.unreadable.first.map((u: { position: number }) => u.position)).toEqual(UNREADABLE.slice(0, 10));
    expect(s.unreadable.first[0].reason).toMatch(/^not valid JSON/);
    const html = readFileSync(report, 'utf8');
    expect(html).toContain('data-tile="unreadable">13<');
    expect(html).toContain('data-unreadable-count="13"');
    expect([...html.matchAll(/data-unreadable-position="(\d+)"/g)].map((m) => Number(m[1]))).toEqual(UNREADABLE.slice(0, 10));
  }, 120_000);

  it('CSV with bad quoting and a field more than the header, as read today: exit 9 naming their records; --errors .gz keeps the reasons', async () => {
    const csv = join(dir, 'in.csv');
    writeFileSync(csv, [
      'id,countrycode,sendercountrycode,street,housenumber,zip,city',
      '1,DE,DE,Ring,1,50667,Köln',
      '2,DE,DE,"Weg"x,2,53111,Bonn',
      '3,DE,,Gasse,3,10115,Berlin',
      '4,DE,DE,Allee,4,10115,Berlin,extra',
      '5,DE,DE,"Platz, Hof",5,10115,Berlin',
    ].join('\n') + '\n');
    const summary = join(dir, 'csv.json');
    const r = await run(['--input', csv, '--output', join(dir, 'csv.out.csv'), '--errors', join(dir, 'csv.errors.csv.gz'), '--summary-json', summary]);
    expect(r.code, r.stderr).toBe(EXIT_UNREADABLE_ROWS);
    expect(r.stderr).toMatch(/^addrflow run: ADDR_ERR_ROWS_UNREADABLE: 2 records unreadable \(record 2, record 4\);.*--max-rejected 2/m);
    const s = readJson(summary);
    expect(s.unreadable).toMatchObject({ count: 2, unit: 'record' });
    expect(s.unreadable.first).toEqual([
      { position: 2, reason: expect.stringMatching(/^bad quoting/) },
      { position: 4, reason: "more fields than the header's 7." },
    ]);
    expect(s.rejectedByCode).toEqual({ 412: 2, 428: 1 }); // record 3 was refused, not unreadable
  }, 120_000);
});

describe('--max-rejected N', () => {
  let reference: string;
  beforeAll(async () => {
    const out = join(dir, 'ref.out');
    const summary = join(dir, 'ref.json');
    const r = await run(['--input', input, '--output', out, '--max-rejected', '13', '--summary-json', summary]);
    expect(r.code, r.stderr).toBe(0); // exactly at the limit: accepted
    expect(r.stderr).not.toMatch(/ADDR_ERR_/);
    expect(readJson(summary)).toMatchObject({ exitCode: 0, exitMeaning: 'done', unreadable: { count: 13, limit: 13 } });
    reference = readFileSync(out, 'utf8');
  }, 120_000);

  it('past N: stops at a record boundary with a checkpoint (exit 10, one coded line); --resume with a higher N finishes byte-identically, counting the whole job', async () => {
    const out = join(dir, 'limited.out');
    const summary = join(dir, 'limited.json');
    const args = ['--input', input, '--output', out, '--batch-size', '200', '--summary-json', summary];
    const first = await run([...args, '--max-rejected', '3']);
    expect(first.code, first.stderr).toBe(EXIT_TOO_MANY_REJECTED);
    // unreadable lines 7, 100, 257, 507: the 4th is in the batch of lines 401–600
    const coded = first.stderr.split('\n').filter((l) => l.includes('ADDR_ERR_'));
    expect(coded).toEqual([expect.stringMatching(/^addrflow run: ADDR_ERR_TOO_MANY_REJECTED: more than --max-rejected 3 unreadable lines \(at least 4: line 7, line 100, line 257, line 507\); stopped before line 401, .*--resume and --max-rejected 4 or more/)]);
    const cp = readJson(`${out}.checkpoint`);
    expect(cp.recordsDone).toBe(400);
    expect(cp.totals.unreadable).toBe(3);
    expect(cp.stoppedBecause).toMatch(/--max-rejected 3/);
    const partial = readFileSync(out, 'utf8');
    expect(Buffer.byteLength(partial)).toBe(cp.outputBytes);
    expect(partial.trimEnd().split('\n')).toHaveLength(400);
    expect(reference.startsWith(partial)).toBe(true);
    expect(readJson(summary)).toMatchObject({
      exitCode: 10, end: 'rejected', recordsDone: 400,
      unreadable: { count: 3, limit: 3, stoppedBefore: { position: 401, unreadable: 1, rows: [{ position: 507 }] } },
    });

    // a limit still too low for the whole job (13): stops again, further on
    const second = await run([...args, '--resume', '--max-rejected', '10']);
    expect(second.code, second.stderr).toBe(EXIT_TOO_MANY_REJECTED);
    expect(readJson(`${out}.checkpoint`).totals.unreadable).toBe(10);
    expect(readJson(summary)).toMatchObject({ resumed: true, exitCode: 10, unreadable: { count: 10, limit: 10 } });

    const third = await run([...args, '--resume', '--max-rejected', '20']);
    expect(third.code, third.stderr).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe(reference);
    expect(existsSync(`${out}.checkpoint`)).toBe(false);
    expect(readJson(summary)).toMatchObject({ resumed: true, exitCode: 0, records: 3000, unreadable: { count: 13, limit: 20 } });
  }, 180_000);
});

describe('a full device (exit 7)', () => {
  it.skipIf(noSmallFs !== undefined)(`output on a full 64 KiB tmpfs: exit 7, and --summary-json and --report are written with what was done${noSmallFs ? ` — SKIPPED: ${noSmallFs}` : ''}`, async () => {
    const out = join(small, 'out.ndjson');
    const summary = join(dir, 'full.json');
    const report = join(dir, 'full.html');
    const r = await run(['--input', input, '--output', out, '--batch-size', '100', '--checkpoint-interval', '1', '--summary-json', summary, '--report', report]);
    expect(r.code, r.stderr).toBe(EXIT_OUTPUT);
    expect(r.stderr).toMatch(/^addrflow run: ADDR_ERR_OUTPUT_UNWRITABLE: STOPPED — cannot write .*no space left on the device \(ENOSPC\)/m);
    const s = readJson(summary);
    expect(s).toMatchObject({ exitCode: 7, end: 'output-failed', message: expect.stringMatching(/ENOSPC/) });
    expect(s.exitMeaning).toMatch(/output could not be written/);
    expect(s.recordsDone).toBeLessThan(3000);
    expect(s.records).toBe(s.recordsDone);
    const html = readFileSync(report, 'utf8');
    expect(html).toMatch(/id="status">stopped: the output could not be written/);
    expect(html).toContain(`data-tile="records">${s.records.toLocaleString('en')}<`);
  }, 120_000);
});

describe('an input that cannot be read mid-way (exit 8)', () => {
  it('a gzip input cut short: one line, exit 8 (not an uncaught exception), --summary-json and --report with what was done', async () => {
    const gz = gzipSync(good.join('\n') + '\n');
    const cut = join(dir, 'cut.ndjson.gz');
    writeFileSync(cut, gz.subarray(0, Math.floor(gz.length * 0.6)));
    const summary = join(dir, 'cut.json');
    const report = join(dir, 'cut.html');
    const r = await run(['--input', cut, '--output', join(dir, 'cut.out'), '--batch-size', '100', '--summary-json', summary, '--report', report]);
    expect(r.code, r.stderr).toBe(EXIT_INPUT);
    expect(r.stderr).toMatch(/^addrflow run: ADDR_ERR_INPUT_UNREADABLE: STOPPED — cannot read --input .*cut\.ndjson\.gz: gzip data damaged or cut short/m);
    expect(r.stderr).not.toMatch(/^\s+at /m);
    const s = readJson(summary);
    expect(s).toMatchObject({ exitCode: 8, end: 'input-failed' });
    expect(s.recordsDone).toBeGreaterThan(0);
    expect(s.recordsDone).toBeLessThan(3000);
    expect(readFileSync(report, 'utf8')).toMatch(/id="status">stopped: the input could not be read/);
  }, 120_000);
});

describe('a signal (130)', () => {
  it('SIGINT: --summary-json says stopped by SIGINT, with what was done and the job resumable', async () => {
    const big = join(dir, 'big.ndjson');
    writeFileSync(big, [...generateLines(100_000, 23, 0)].join('\n') + '\n');
    const out = join(dir, 'big.out');
    const summary = join(dir, 'big.json');
    const { child, done } = startCli(['run', '--op', 'lines', '--progress', 'off', '--input', big, '--output', out, '--batch-size', '500', '--checkpoint-interval', '20', '--summary-json', summary]);
    const started = Date.now();
    const checkpointed = () => existsSync(`${out}.checkpoint`) && JSON.parse(readFileSync(`${out}.checkpoint`, 'utf8')).recordsDone > 0;
    while (!checkpointed() && Date.now() - started < 60_000) await sleep(10);
    child.kill('SIGINT');
    const r = await done;
    expect(r.code, r.stderr).toBe(130);
    const s = readJson(summary);
    expect(s).toMatchObject({ exitCode: 130, end: 'signal', exitMeaning: expect.stringMatching(/SIGINT/) });
    expect(s.recordsDone).toBeGreaterThan(0);
    expect(s.recordsDone).toBe(readJson(`${out}.checkpoint`).recordsDone);
  }, 120_000);
});

describe('--max-rejected on a metered job', () => {
  it('the batch it stops before is not charged (its reservation released); --resume charges every record of the job once', async () => {
    const db = `sqlite:${join(dir, 'billing.sqlite')}`;
    const created = await runCli(['accounts', 'create', '--credits', '10000000', '--agree', 'lines', '--db', db]);
    expect(created.code, created.stderr).toBe(0);
    const acc = JSON.parse(created.stdout) as { license: string; guid: string; account: string };
    const show = async () => JSON.parse((await runCli(['accounts', 'show', '--account', acc.account, '--db', db])).stdout) as { credits: number; reserved: number };
    const out = join(dir, 'metered.out');
    const summary = join(dir, 'metered.json');
    const args = ['--input', input, '--output', out, '--batch-size', '200', '--summary-json', summary, '--license', acc.license, '--guid', acc.guid, '--db', db];
    const first = await run([...args, '--max-rejected', '3']);
    expect(first.code, first.stderr).toBe(EXIT_TOO_MANY_REJECTED);
    const mid = await show();
    expect(mid.reserved).toBe(0);
    expect(10_000_000 - mid.credits).toBe(readJson(summary).credits); // only the 400 records written
    const second = await run([...args, '--resume', '--max-rejected', '13']);
    expect(second.code, second.stderr).toBe(0);
    const end = await show();
    const s = readJson(summary);
    expect(10_000_000 - end.credits).toBe(s.credits); // the whole job, each record once
    expect(end.reserved).toBe(0);
    // 20 credits per formatted block (status 0 or 1), each once (as test/adapters/file/job.test.ts)
    const chargeable = readFileSync(out, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as { addresslinestatuscode?: number })
      .filter((r) => r.addresslinestatuscode === 0 || r.addresslinestatuscode === 1).length;
    expect(s.credits).toBe(20 * chargeable);
    expect(s.records).toBe(3000);
  }, 180_000);
});
