/**
 * The job report without a browser: the aggregator's state is the same however a job is
 * batched, stays within a fixed size however large the job, escapes every input value, rides in
 * the checkpoint so that a job killed with -9 and resumed reports the whole job, and leaves input
 * data out with --report-rows 0. (The rendered page in a real Chromium: browser.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { generateLines } from '../../../../scripts/generate-requests.ts';
import { runCli, startCli } from '../../../helpers/cli.ts';
import { readNdjsonBatches } from '../../../../src/adapters/file/ndjson-reader.ts';
import { runFileBatch } from '../../../../src/adapters/file/worker/run-file-batch.ts';
import type { RawResult } from '../../../../src/adapters/file/worker/batch-task.ts';
import { ReportAggregator, emptyReportState, type ReportState } from '../../../../src/adapters/file/report/aggregate.ts';
import { renderReport } from '../../../../src/adapters/file/report/render.ts';
import { packCountry } from '../../../../src/adapters/file/worker/report-facts.ts';
import { INJECTIONS, drawnCounts, drawnCountries, expectedCounts, searchLines } from './fixtures.ts';
import { EXIT_OUTPUT, EXIT_UNREADABLE_ROWS } from '../../../../src/contract/exit-codes.ts';
import { parseFields } from '../../../../src/csv/fields.ts';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'addrflow-report-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function* once(text: string): AsyncGenerator<Uint8Array> {
  yield Buffer.from(text);
}

/** Folds a lines job in-process (the workers' own code) with batches of `batchSize`. */
async function fold(lines: string[], batchSize: number, rows: number): Promise<ReportState> {
  const agg = new ReportAggregator(emptyReportState('lines', rows, new Date(0)));
  for await (const batch of readNdjsonBatches(once(lines.join('\n') + '\n'), batchSize)) {
    const positions = batch.positions;
    const result = runFileBatch({ ctx: {} }, { kind: 'file-batch', op: 'lines', ...batch, unit: 'line', report: agg.request });
    agg.addBatch(positions, result);
  }
  return agg.state();
}

const META = { jobId: 'j', input: 'in.ndjson', output: 'out.ndjson', end: 'done', finishedAt: new Date(0), elapsedMs: 1000, credits: undefined, unit: 'line' };

describe('the report aggregator', () => {
  const lines = [...generateLines(20_000, 3, 37)];

  it('gives the same state whatever the batch size (rows included)', async () => {
    const a = await fold(lines, 7, 25);
    const b = await fold(lines, 1000, 25);
    expect(b).toEqual(a);
    expect(a.records).toBe(20_000);
    expect(a.rejected).toBeGreaterThan(0);
    expect(a.rows.length + a.rejectedRows.length).toBeGreaterThan(0);
    expect(a.rejectedRows.map((r) => r.position)).toEqual([...a.rejectedRows.map((r) => r.position)].sort((x, y) => x - y));
  });

  it('stays within a fixed size however many records and points it sees', () => {
    const agg = new ReportAggregator(emptyReportState('search', 50, new Date(0)));
    const n = 100_000;
    let seed = 1;
    const rand = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    for (let round = 0; round < 20; round++) {
      const result: RawResult = {
        output: new Uint8Array(0), errors: new Uint8Array(0), flags: new Uint8Array(n).fill(1), codes: new Uint16Array(n), matchlevels: new Uint8Array(n).fill(3),
        report: {
          relevance: Uint8Array.from({ length: n }, () => Math.floor(rand() * 101)),
          country: Uint16Array.from({ length: n }, () => packCountry(String.fromCharCode(65 + Math.floor(rand() * 26), 65 + Math.floor(rand() * 26)))),
          lat: Float32Array.from({ length: n }, () => rand() * 180 - 90),
          lon: Float32Array.from({ length: n }, () => rand() * 360 - 180),
          rows: [],
        },
      };
      agg.addBatch(Array.from({ length: n }, (_, i) => round * n + i + 1), result);
    }
    const s = agg.state();
    expect(s.records).toBe(2_000_000);
    expect(Object.keys(s.grids[0]!).length).toBeLessThanOrEqual(360 * 180);
    expect(s.grids.slice(1)).toEqual([null, null]); // the finer grids passed their cap and were dropped
    expect(Object.keys(s.byCountry).length).toBeLessThanOrEqual(26 * 26 + 1);
    // The whole world covered by 2M points: the bound of the grid, not the job, sets the size.
    expect(JSON.stringify(s).length).toBeLessThan(1_200_000);
    const html = renderReport(s, { ...META, unit: 'line' });
    expect(html.length).toBeLessThan(2_500_000);
  });
});

describe('escaping', () => {
  it('renders every input value as text: no tag, attribute or entity from the data survives', async () => {
    const lines = INJECTIONS.map((v, i) => JSON.stringify({ id: v, countrycode: 'DE', sendercountrycode: 'XX', city: v, street: v }))
      .concat(INJECTIONS.map((v) => `{"id":"${v.replaceAll('"', "'")}",`));
    const s = await fold(lines, 3, 50);
    expect(s.rows.length + s.rejectedRows.length).toBe(lines.length);
    const html = renderReport(s, { ...META, input: '<b>in</b>"x.ndjson', jobId: "'><script>alert(9)</script>" });
    for (const v of INJECTIONS) expect(html).not.toContain(v);
    const tags = new Set([...html.matchAll(/<([a-zA-Z][\w-]*)/g)].map((m) => m[1]!.toLowerCase()));
    const allowed = ['html', 'head', 'meta', 'title', 'style', 'body', 'main', 'h1', 'h2', 'p', 'span', 'div', 'section', 'svg', 'g', 'text', 'rect', 'path', 'line', 'dl', 'dt', 'dd', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'b', 'i', 'code', 'footer'];
    expect([...tags].filter((t) => !allowed.includes(t))).toEqual([]);
    expect(html).not.toMatch(/<script|<img|<iframe|<svg onload/i);
    expect(html).not.toMatch(/<[^>]*\son\w+\s*=/i); // no event-handler attribute in any real tag
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('&lt;b&gt;in&lt;/b&gt;&quot;x.ndjson');
  });
});

describe('addrflow run --report', () => {
  const input = searchLines(30_000);
  let inputPath: string;
  let reference: ReturnType<typeof drawnCounts>;
  let referenceOutput: string;

  beforeAll(async () => {
    inputPath = join(dir, 'search.ndjson');
    writeFileSync(inputPath, input.join('\n') + '\n');
    const out = join(dir, 'ref.out');
    const report = join(dir, 'ref.html');
    const r = await runCli(['run', '--op', 'search', '--input', inputPath, '--output', out, '--report', report, '--report-rows', '30', '--progress', 'off']);
    expect(r.code, r.stderr).toBe(EXIT_UNREADABLE_ROWS); // [unreadable] searchLines has lines that are not JSON: exit 9
    expect(r.stderr).toContain(`report: ${report}`);
    referenceOutput = readFileSync(out, 'utf8');
    reference = drawnCounts(readFileSync(report, 'utf8'));
  }, 120_000);

  it('draws the counts of the job, worked out from its input and output', () => {
    const e = expectedCounts(input, referenceOutput.trimEnd().split('\n'));
    expect(reference.charts.codes).toEqual(e.codes);
    expect(reference.charts.matchlevels).toEqual(e.matchlevels);
    expect(reference.charts.relevance).toEqual(e.relevance);
    expect(reference.charts.countries).toEqual(drawnCountries(e.countries));
    expect(reference.tiles).toMatchObject({ records: '30,000', processed: e.processed.toLocaleString('en'), rejected: e.rejected.toLocaleString('en'), answered: e.answered.toLocaleString('en') });
    expect(reference.rows).toHaveLength(30 + 10);
    expect(reference.cells).toMatch(/<path fill=/);
  });

  it('after kill -9 and --resume, the report covers the whole job (its state rides in the checkpoint)', async () => {
    const out = join(dir, 'killed.out');
    const report = join(dir, 'killed.html');
    const args = ['run', '--op', 'search', '--input', inputPath, '--output', out, '--report', report, '--report-rows', '30', '--batch-size', '250', '--checkpoint-interval', '30', '--progress', 'off'];
    const { child, done } = startCli(args);
    const started = Date.now();
    const checkpointed = () => existsSync(`${out}.checkpoint`) && JSON.parse(readFileSync(`${out}.checkpoint`, 'utf8')).recordsDone > 0;
    while (!checkpointed() && Date.now() - started < 60_000) await sleep(10);
    child.kill('SIGKILL');
    expect((await done).signal).toBe('SIGKILL');
    const cp = JSON.parse(readFileSync(`${out}.checkpoint`, 'utf8'));
    expect(cp.recordsDone).toBeLessThan(30_000);
    expect(cp.report.records).toBe(cp.recordsDone);
    expect(existsSync(report)).toBe(false);
    const second = await runCli([...args, '--resume']);
    expect(second.code, second.stderr).toBe(EXIT_UNREADABLE_ROWS); // [unreadable] searchLines has lines that are not JSON: exit 9
    expect(readFileSync(out, 'utf8')).toBe(referenceOutput);
    expect(drawnCounts(readFileSync(report, 'utf8'))).toEqual(reference);
  }, 120_000);

  it('--report-rows 0 leaves every input value out of the report', async () => {
    const report = join(dir, 'norows.html');
    const r = await runCli(['run', '--op', 'search', '--input', inputPath, '--output', join(dir, 'norows.out'), '--report', report, '--report-rows', '0', '--progress', 'off']);
    expect(r.code, r.stderr).toBe(EXIT_UNREADABLE_ROWS); // [unreadable] searchLines has lines that are not JSON: exit 9
    const html = readFileSync(report, 'utf8');
    expect(html).toContain('--report-rows 0');
    expect(html).not.toContain('Qqqzzzville');
    expect(html).not.toContain('alert(');
    expect(drawnCounts(html).charts).toEqual(reference.charts);
  }, 120_000);

  it('a --report that cannot be written is refused before the job starts (exit 7, one line)', async () => {
    const out = join(dir, 'never.out');
    const r = await runCli(['run', '--op', 'search', '--input', inputPath, '--output', out, '--report', join(dir, 'no-such-dir', 'r.html'), '--progress', 'off']);
    expect(r.code).toBe(EXIT_OUTPUT);
    expect(r.stderr.trimEnd().split('\n')).toEqual([expect.stringMatching(/^addrflow run: ADDR_ERR_OUTPUT_UNWRITABLE: cannot write --report .*r\.html: .*\(ENOENT\)$/)]);
    expect(existsSync(out)).toBe(false);
  });

  it('a CSV search job (rows with quoted fields) reports its rows: tiles, codes and matchlevels drawn = its output columns', async () => {
    const rows = ['id,street,city,countrycode'];
    const cities: Array<[string, string]> = [['Paris', 'FR'], ['Vaduz', 'LI'], ['Berlin', 'DE'], ['"Saint-Denis, Réunion"', 'FR'], ['Xyzzy', 'DK']];
    for (let i = 0; i < 2000; i++) {
      const [city, cc] = cities[i % cities.length]!;
      rows.push(`${i + 1},${i % 7 === 0 ? '"Rue de la Paix\n(bâtiment B)"' : 'Hauptstrasse'},${city},${i % 50 === 9 ? 'XXX' : cc}`);
    }
    const path = join(dir, 'search.csv');
    writeFileSync(path, rows.join('\n') + '\n');
    const out = join(dir, 'search.out.csv');
    const report = join(dir, 'search-csv.html');
    const r = await runCli(['run', '--op', 'search', '--input', path, '--output', out, '--report', report, '--progress', 'off']);
    expect(r.code, r.stderr).toBe(0);
    // the output's own columns, read back with the project's CSV parser
    const text = readFileSync(out, 'utf8');
    const records: string[][] = [];
    let cur = '';
    for (const line of text.split('\n')) {
      cur = cur ? `${cur}\n${line}` : line;
      if ((cur.match(/"/g)?.length ?? 0) % 2 === 0) { if (cur) records.push(parseFields(cur, ',').fields); cur = ''; }
    }
    const header = records.shift()!;
    expect(records).toHaveLength(2000);
    const col = (name: string) => header.indexOf(name);
    const count = (k: number) => {
      const m: Record<string, number> = {};
      for (const f of records) if (f[k]) m[f[k]!] = (m[f[k]!] ?? 0) + 1;
      return m;
    };
    const drawn = drawnCounts(readFileSync(report, 'utf8'));
    const ok = records.filter((f) => !f[col('result_errorcode')]).length;
    expect(drawn.tiles).toMatchObject({ records: '2,000', processed: ok.toLocaleString('en'), rejected: (2000 - ok).toLocaleString('en') });
    expect(drawn.charts.matchlevels).toEqual(count(col('result_matchlevel')));
    expect(drawn.charts.codes).toEqual({ ...(ok ? { 0: ok } : {}), ...count(col('result_errorcode')) });
    expect(drawn.rows.length).toBeGreaterThan(0);
    expect(readFileSync(report, 'utf8')).toMatch(/row \d/);
  }, 60_000);

  it('a lines job from a JSON array: per-status-code counts, formatted tile, no map', async () => {
    const lines = [...generateLines(3000, 9, 0)];
    for (let i = 0; i < 3000; i += 97) lines[i] = JSON.stringify({ id: i + 1, countrycode: 'DE' }); // 428
    const path = join(dir, 'lines.json');
    writeFileSync(path, '[' + lines.join(',\n') + ']');
    const out = join(dir, 'lines.out');
    const report = join(dir, 'lines.html');
    const r = await runCli(['run', '--op', 'lines', '--input', path, '--output', out, '--report', report, '--progress', 'off']);
    expect(r.code, r.stderr).toBe(0);
    const html = readFileSync(report, 'utf8');
    const e = expectedCounts(lines, readFileSync(out, 'utf8').trimEnd().split('\n'));
    const drawn = drawnCounts(html);
    expect(drawn.charts.codes).toEqual(e.codes);
    expect(drawn.charts.countries).toEqual(drawnCountries(e.countries));
    expect(drawn.tiles.formatted).toBe(((e.codes['0'] ?? 0) + (e.codes['1'] ?? 0)).toLocaleString('en'));
    expect(html).not.toContain('id="map"');
    expect(html).toMatch(/element \d/);
  }, 60_000);
});
