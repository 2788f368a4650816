/**
 * The malformed corpus end to end, through the real CLI (`addrflow run --op lines`): an unclosed
 * quote followed by quoted fields, in the header, in the last row, past 1 MiB, through gzip and
 * through stdin; UTF-16 (Excel's "Unicode Text") through gzip and stdin; the hint a file in
 * another encoding gets at the start.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, runCli, type CliResult } from '../helpers/cli.ts';
import { EXIT_INPUT } from '../../src/contract/exit-codes.ts';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'addrflow-csv-malformed-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const HEADER = 'id,countrycode,street,housenumber,zip,city';
const run = (args: string[], stdin?: string) => runCli(['run', '--op', 'lines', '--progress', 'off', '--workers', '1', ...args], stdin === undefined ? {} : { stdin });

/** The CLI with bytes on stdin (runCli takes text). */
function runBytes(args: string[], stdin: Buffer): Promise<CliResult> {
  const child = spawn(process.execPath, [BIN, 'run', '--op', 'lines', '--progress', 'off', '--workers', '1', ...args], {
    env: { ...process.env, ADDRFLOW_LOG_LEVEL: 'warn' }, stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  child.stdin.end(stdin);
  return new Promise((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })));
}

/** 1,000 rows; row 10 (line 11) opens a quote it never closes; later rows have quoted fields. */
function issueRows(): string[] {
  const rows: string[] = [];
  for (let i = 0; i < 1000; i++) {
    rows.push(i % 3 === 0 ? `r${i},DE,"Haupt-, Nebenstrasse",${(i % 50) + 1},10117,"Berlin ""Mitte"""` : `r${i},DE,Hauptstrasse,${(i % 50) + 1},10117,Berlin`);
  }
  rows[9] = 'r9,DE,"Hauptstrasse,10,10117,Berlin';
  return rows;
}

/** The output rows (after the header) whose input columns are not the input row as written. */
function changedRows(output: string, rows: string[]): number[] {
  const out = output.split('\n').slice(1, -1);
  expect(out).toHaveLength(rows.length);
  return rows.flatMap((r, i) => (out[i]!.startsWith(`${r},`) ? [] : [i + 1]));
}

describe('an unclosed quote costs one row, end to end', () => {
  const rows = issueRows();
  const text = `${HEADER}\n${rows.join('\n')}\n`;
  let fileOut: string;

  it('a file: 999 rows unchanged, one rejected row naming line 11, 1,000 records', async () => {
    const input = join(dir, 'issue.csv');
    writeFileSync(input, text);
    const output = join(dir, 'issue.out.csv');
    const r = await run(['--input', input, '--output', output]);
    expect(r.stderr).toContain('1,000 records');
    fileOut = readFileSync(output, 'utf8');
    expect(changedRows(fileOut, rows)).toEqual([10]);
    expect(fileOut.split('\n')[10]).toContain('Record 10 (line 11): a quoted field opened on line 11 is not closed before line 14, where a quote followed by text opens another row');
  }, 60_000);

  it('through gzip and through stdin: the same output', async () => {
    const gz = join(dir, 'issue.csv.gz');
    writeFileSync(gz, gzipSync(text));
    const output = join(dir, 'issue-gz.out.csv');
    const g = await run(['--input', gz, '--output', output, '--format', 'csv']);
    expect(g.stderr).toContain('1,000 records');
    expect(readFileSync(output, 'utf8')).toBe(fileOut);
    const s = await run(['--format', 'csv'], text);
    expect(s.stdout).toBe(fileOut);
  }, 60_000);

  it('in the last row, and past 1 MiB: each one rejected row, the rows around them intact', async () => {
    // 2.7 MB in 90 lines: the 1 MiB limit comes before the 100-line one (checked at the ends of
    // the 1 MiB chunks the CLI reads)
    const wide = Array.from({ length: 90 }, (_, i) => `w${i},DE,${'W'.repeat(30_000)},1,10117,Berlin`);
    const all = ['a1,DE,Hauptstrasse,1,10117,Berlin', 'a2,DE,"Oberer ""Weg""",2,10117,Berlin', 'big,DE,"never closed,3,10117,Berlin', ...wide, 'z1,DE,"Am Markt",4,10117,Berlin', 'z2,DE,"Last, never closed,5,10117,Berlin'];
    const input = join(dir, 'wide.csv');
    writeFileSync(input, `${HEADER}\n${all.join('\n')}`);
    const output = join(dir, 'wide.out.csv');
    const r = await run(['--input', input, '--output', output]);
    expect(r.stderr).toContain(`${all.length} records`);
    const out = readFileSync(output, 'utf8');
    expect(changedRows(out, all)).toEqual([3, all.length]);
    const lines = out.split('\n');
    expect(lines[3]).toContain('Record 3 (line 4): a quoted field opened on line 4 is still open after 1048576 bytes');
    expect(lines[all.length]).toContain(`Record ${all.length} (line ${all.length + 1}): a quoted field opened on line ${all.length + 1} is not closed before the end of the input`);
  }, 60_000);

  it('in the header: the job does not start (exit 8), the message names line 1', async () => {
    const input = join(dir, 'header.csv');
    writeFileSync(input, `id,"street,city\nr1,Hauptstrasse,Berlin\n`);
    const r = await run(['--input', input, '--output', join(dir, 'header.out.csv')]);
    expect(r.code).toBe(EXIT_INPUT);
    expect(r.stderr).toContain('the header row (line 1) cannot be read: a quoted field opened on line 1');
    expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
  }, 60_000);
});

describe('UTF-16 and other encodings, end to end', () => {
  const rows = ['id\tcountrycode\tstreet\thousenumber\tzip\tcity', '1\tDE\tStraße des 17. Juni 😀\t1\t10623\tBerlin', '2\tDK\tKøbmagergade\t2\t1150\tKøbenhavn K', '3\tDE\t"Am ""Tor"""\t3\t10117\tBerlin'];
  const text = rows.join('\r\n') + '\r\n';
  let reference: string;

  it("Excel's Unicode Text (UTF-16 LE, BOM, tab) through gzip and UTF-16 BE through stdin: UTF-8 output, as from UTF-8 input", async () => {
    const ref = await run(['--format', 'tsv'], text);
    expect(ref.code, ref.stderr).toBe(0);
    reference = ref.stdout;
    expect(reference).toContain('Straße des 17. Juni 😀');
    const le = Buffer.from('\ufeff' + text, 'utf16le');
    const gz = join(dir, 'unicode.txt.gz');
    writeFileSync(gz, gzipSync(le));
    const output = join(dir, 'unicode.out.tsv');
    const g = await run(['--input', gz, '--output', output, '--format', 'tsv']);
    expect(g.code, g.stderr).toBe(0);
    expect(readFileSync(output, 'utf8')).toBe(reference);
    const be = Buffer.from(le).swap16();
    const s = await runBytes(['--format', 'tsv'], be);
    expect(s.code, s.stderr).toBe(0);
    expect(s.stdout).toBe(reference);
    // Without a mark, --encoding utf-16le reads it.
    const n = await runBytes(['--format', 'tsv', '--encoding', 'utf-16le'], Buffer.from(text, 'utf16le'));
    expect(n.stdout).toBe(reference);
  }, 60_000);

  it('a file in another encoding gets a hint at the start naming the --encoding to use', async () => {
    const cp = await runBytes(['--format', 'tsv'], Buffer.from(text.replace('Straße', 'Straße').replace('id\t', 'id\tÄ'), 'latin1'));
    expect(cp.stderr).toContain('warning: the header row is not valid UTF-8');
    expect(cp.stderr).toContain('--encoding windows-1252');
    const u16 = await runBytes(['--format', 'tsv'], Buffer.from(text, 'utf16le'));
    expect(u16.stderr).toContain('--encoding utf-16le');
  }, 60_000);
});
