/**
 * `addrflow run --op search --explain` (issue 18), the real binary on small files with the
 * default index: NDJSON lines get an `explain` key last, CSV rows two more result columns
 * (explain_parts, explain_deductions, with the prefix); without the flag the outputs are the
 * spec's keys only and an element's own `explain` key is not obeyed; --explain with --op lines
 * is a usage error. The job's log lines (at debug level) hold no explanation.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseFields } from '../../../src/csv/fields.ts';
import { SEARCH_RECORD_KEYS } from '../../../src/contract/records.ts';
import { runCli } from '../../helpers/cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'addrflow-explain-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const NDJSON = [
  { id: 1, city: 'Muenchen', zip: '80331' },
  { id: 2, address: 'Qwxzyplatz 9, 75008 Paris', explain: '1' },
  { id: 3, city: 'Berlin', explain: 'no' },
].map((o) => JSON.stringify(o)).join('\n') + '\n';
const CSV = 'city,zip\nMuenchen,80331\nParis,75008\n';

async function run(input: string, name: string, extra: string[]) {
  const path = join(dir, name);
  writeFileSync(path, input);
  const r = await runCli(['run', '--op', 'search', '--input', path, '--output', '-', '--workers', '0', '--progress', 'off', ...extra], { env: { ADDRFLOW_LOG_LEVEL: 'debug' } });
  return r;
}

describe('run --explain', () => {
  it('NDJSON: every record explains itself, last; the rejected element keeps its error', async () => {
    const r = await run(NDJSON, 'in.ndjson', ['--explain']);
    expect(r.code).toBe(0);
    const [a, b, c] = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(Object.keys(a)).toEqual(['id', ...SEARCH_RECORD_KEYS, 'explain']);
    expect(a.explain.parts).toContainEqual(expect.objectContaining({ input: 'Muenchen', status: 'corrected', became: 'München' }));
    expect(b.explain.parts).toContainEqual(expect.objectContaining({ input: 'Qwxzyplatz', status: 'ignored' }));
    expect(b.explain.deductions.length).toBeGreaterThan(0);
    expect(c).toMatchObject({ id: 3, errorcode: 412 });
    expect(r.stderr).not.toMatch(/Qwxzyplatz|qwxzyplatz|deductions/);
  });

  it('without the flag: the spec\'s keys only, whatever an element says', async () => {
    const r = await run(NDJSON, 'in2.ndjson', []);
    const [a, b] = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(Object.keys(a)).toEqual(['id', ...SEARCH_RECORD_KEYS]);
    expect(Object.keys(b)).toEqual(['id', ...SEARCH_RECORD_KEYS]);
  });

  it('CSV: two compact columns after the result columns', async () => {
    const r = await run(CSV, 'in.csv', ['--explain']);
    expect(r.code).toBe(0);
    const [header, row] = r.stdout.trim().split('\n').map((l) => parseFields(l, ',').fields);
    expect(header).toEqual(['city', 'zip', ...SEARCH_RECORD_KEYS.map((k) => `result_${k}`), 'result_explain_parts', 'result_explain_deductions', 'result_errorcode', 'result_errormessage']);
    const parts = row![header!.indexOf('result_explain_parts')]!;
    expect(parts).toContain('corrected:city:Muenchen=München(transliteration)');
    expect(parts).toContain('matched:zip:80331=80331');
    expect(parts).toMatch(/inferred:country_iso_2:=DE/);
    const plain = await run(CSV, 'in2.csv', []);
    expect(plain.stdout.split('\n')[0]).not.toContain('explain');
  });

  it('--explain with --op lines is a usage error', async () => {
    const path = join(dir, 'lines.ndjson');
    writeFileSync(path, '{"countrycode":"DE","sendercountrycode":"DE"}\n');
    const r = await runCli(['run', '--op', 'lines', '--input', path, '--output', join(dir, 'out.ndjson'), '--explain']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--explain/);
    expect(() => readFileSync(join(dir, 'out.ndjson'))).toThrow();
  });
});
