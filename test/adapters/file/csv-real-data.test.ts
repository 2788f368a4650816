/**
 * A real CSV export as a search job's input: the OpenStreetMap address list of Liechtenstein
 * (`addresses.csv` of ../shared/data/osm-liechtenstein-2024, 12,513 rows with a header, columns
 * osm_id,lon,lat,housenumber,street,place,postcode,city,country,suburb,name), run as it is with
 * only `--map zip=postcode`. The CSV path must give, row for row, exactly the records the NDJSON
 * path gives for the same requests, and carry the other columns through.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeWithSharedData, sharedDataPath } from '../../helpers/shared-data.ts';
import { runCli } from '../../helpers/cli.ts';
import { RecordSplitter } from '../../../src/csv/splitter.ts';
import { parseFields } from '../../../src/csv/fields.ts';
import { SEARCH_RECORD_KEYS } from '../../../src/contract/records.ts';

function rowsOf(text: string): string[][] {
  const rows: string[][] = [];
  const s = new RecordSplitter(',');
  const emit = (b: Buffer, st: number, e: number) => rows.push(parseFields(b.toString('utf8', st, e), ',').fields);
  s.push(Buffer.from(text), emit);
  s.end(emit);
  return rows;
}

describeWithSharedData('CSV search job on a real address export', ['osm-liechtenstein-2024', 'addresses.csv'], () => {
  let dir: string;
  let index: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'addrflow-csvreal-'));
    const { cachedIndex } = await import('../../../eval/lookup/suites.ts');
    index = (await cachedIndex('li')).dir;
  }, 300_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('answers every row in order, like the NDJSON path does for the same requests, and keeps the input columns', async () => {
    const input = sharedDataPath('osm-liechtenstein-2024', 'addresses.csv');
    const out = join(dir, 'li.out.csv');
    const r = await runCli(['run', '--op', 'search', '--index', index, '--input', input, '--output', out, '--map', 'zip=postcode', '--progress', 'off']);
    expect(r.code, r.stderr).toBe(0);
    const inRows = rowsOf(readFileSync(input, 'utf8'));
    const outRows = rowsOf(readFileSync(out, 'utf8'));
    const header = inRows[0]!;
    expect(outRows[0]).toEqual([...header, ...SEARCH_RECORD_KEYS.map((k) => `result_${k}`), 'result_errorcode', 'result_errormessage']);
    expect(outRows).toHaveLength(inRows.length);
    expect(inRows.length).toBeGreaterThan(12_000);

    // The same requests as NDJSON: the parameters the CSV columns bind to, empty cells left out.
    const params: Array<[string, string]> = [['housenumber', 'housenumber'], ['street', 'street'], ['zip', 'postcode'], ['city', 'city'], ['country', 'country']];
    const idx = Object.fromEntries(header.map((h, i) => [h, i]));
    const nd = join(dir, 'li.ndjson');
    writeFileSync(nd, inRows.slice(1).map((f) => JSON.stringify(Object.fromEntries(params.map(([p, c]) => [p, f[idx[c]!]!]).filter(([, v]) => v!.trim() !== '')))).join('\n') + '\n');
    const rn = await runCli(['run', '--op', 'search', '--index', index, '--input', nd, '--progress', 'off']);
    expect(rn.code, rn.stderr).toBe(0);
    const recs = rn.stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, string | number>);
    expect(recs).toHaveLength(inRows.length - 1);
    let housenumberLevel = 0;
    for (let i = 1; i < inRows.length; i++) {
      const row = outRows[i]!;
      expect(row.slice(0, header.length)).toEqual(inRows[i]);
      const rec = recs[i - 1]!;
      if ('errorcode' in rec) expect(row.slice(-2)).toEqual([String(rec.errorcode), String(rec.errormessage)]);
      else expect(row.slice(header.length, -2)).toEqual(SEARCH_RECORD_KEYS.map((k) => String(rec[k])));
      if (row[header.length + SEARCH_RECORD_KEYS.indexOf('matchlevel')] === 'housenumber') housenumberLevel++;
    }
    // Not an accuracy test (eval:lookup is), only a sign that the columns reached the engine.
    expect(housenumberLevel / (inRows.length - 1)).toBeGreaterThan(0.5);
  }, 300_000);
});
